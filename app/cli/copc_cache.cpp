#include "copc_cache.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "convert_command.hpp"
#include "run_report.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/io/copc_hierarchy.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv::app {
namespace {

/// FNV-1a: the same name for the same inputs on every run and build (std::hash promises not).
uint64_t fnv1a(const std::string& text, uint64_t hash = 14695981039346656037ull) {
  for (const unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

bool lasOrLaz(const std::string& file) {
  try {
    return detectPointFileFormat(file) == PointFileFormat::Las;
  } catch (const InputError&) {
    return false;
  }
}

/// Removes the cached conversions of the same inputs before they changed.
void removeOutdated(const std::filesystem::path& cached) {
  const std::string name = cached.filename().string();
  const std::string prefix = name.substr(0, name.find('-') + 1);
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(cached.parent_path(), error)) {
    const std::string other = entry.path().filename().string();
    if (other != name && other.rfind(prefix, 0) == 0) {
      std::fprintf(stderr, "pcv: removing the outdated COPC cache %s\n", entry.path().c_str());
      std::filesystem::remove(entry.path(), error);
    }
  }
}

}  // namespace

std::filesystem::path copcCacheDirectory() {
  if (const char* own = std::getenv("PCV_CACHE_DIR"); own && *own) return own;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return std::filesystem::path(xdg) / "pcv";
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : "/tmp") / ".cache" / "pcv";
}

std::filesystem::path copcCachePath(const std::vector<std::string>& files,
                                    const std::filesystem::path& directory) {
  // "<the paths' hash>-<their sizes' and times' hash>": a changed input gets a new file, and
  // the one it replaces is found by the first half.
  uint64_t paths = fnv1a("pcv copc cache 1"), versions = paths;
  for (const std::string& file : files) {
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::weakly_canonical(file, error);
    paths = fnv1a((error ? file : absolute.string()) + "\n", paths);
    const uint64_t size = std::filesystem::file_size(file, error);
    const auto modified = std::filesystem::last_write_time(file, error);
    versions = fnv1a(
        std::to_string(size) + "|" + std::to_string(modified.time_since_epoch().count()) + "\n",
        versions);
  }
  char name[64];
  std::snprintf(name, sizeof name, "%016" PRIx64 "-%016" PRIx64 ".copc.laz", paths, versions);
  return directory / name;
}

std::optional<uint64_t> inCoreBytes(const std::vector<std::string>& files) {
  uint64_t bytes = 0;
  for (const std::string& file : files) {
    const FileSummary summary = describePointFile(file);
    if (!summary.pointCountKnown) return std::nullopt;
    bytes += summary.pointCount * (16 + 4 * summary.attributes.size());
  }
  return bytes;
}

std::optional<std::string> copcCacheFor(const std::vector<std::string>& files, uint64_t memoryBytes,
                                        bool quiet) {
  if (files.empty()) return std::nullopt;
  if (files.size() == 1 && isCopcFile(files[0])) return std::nullopt;  // it streams itself
  for (const std::string& file : files) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(file, error) || !lasOrLaz(file)) return std::nullopt;
  }
  const std::optional<uint64_t> needed = inCoreBytes(files);
  const uint64_t limit = memoryBytes > 0 ? memoryBytes : availableHostMemoryBytes();
  if (!needed || *needed <= limit) return std::nullopt;
  const std::filesystem::path directory = copcCacheDirectory();
  const std::filesystem::path cached = copcCachePath(files, directory);
  const std::string what = files.size() == 1 ? files[0] : std::to_string(files.size()) + " files";
  std::error_code error;
  runReport()["copcCache"] = {{"path", cached.string()}, {"converted", false}};
  if (std::filesystem::is_regular_file(cached, error)) {
    std::fprintf(stderr, "pcv: streaming %s from its COPC cache %s\n", what.c_str(),
                 cached.c_str());
    return cached.string();
  }
  std::fprintf(stderr,
               "pcv: %s %s %s read whole, more than the %s %s: converting once to the COPC "
               "cache %s, then streaming it\n",
               what.c_str(), files.size() == 1 ? "takes" : "take",
               formatBytes(double(*needed)).c_str(), formatBytes(double(limit)).c_str(),
               memoryBytes > 0 ? "--memory allows" : "available", cached.c_str());
  std::filesystem::create_directories(directory, error);
  if (error) {
    throw Error("cannot make the COPC cache folder " + directory.string() + ": " + error.message());
  }
  // The conversion writes under a temporary name and renames when complete, so an interrupted
  // one leaves no cache file behind; it takes its own default memory (half of RAM, out of core
  // beyond that), not the streaming budget.
  convertToCopc(files, cached.string(), 0, quiet);
  runReport()["copcCache"]["converted"] = true;
  removeOutdated(cached);
  return cached.string();
}

}  // namespace pcv::app
