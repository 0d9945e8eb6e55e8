#include "pcv/session/copc_cache.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>

#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/io/copc_hierarchy.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv {
namespace {

/// FNV-1a: the same name for the same inputs on every run and build (std::hash promises not).
uint64_t fnv1a(const std::string& text, uint64_t hash = 14695981039346656037ull) {
  for (const unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
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
    // The header lists every field; a read keeps LAS files' default attributes only.
    const bool las = summary.format == "LAS" || summary.format == "LAZ" || summary.format == "COPC";
    uint64_t kept = 0;
    for (const std::string& name : summary.attributes)
      kept += !las || lasAttributeReadByDefault(name);
    bytes += summary.pointCount * (16 + 4 * kept);
  }
  return bytes;
}

std::vector<std::filesystem::path> removeOutdatedCopcCaches(const std::filesystem::path& cached) {
  const std::string name = cached.filename().string();
  const std::string prefix = name.substr(0, name.find('-') + 1);
  std::vector<std::filesystem::path> removed;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(cached.parent_path(), error)) {
    const std::string other = entry.path().filename().string();
    if (other != name && other.rfind(prefix, 0) == 0 &&
        std::filesystem::remove(entry.path(), error)) {
      removed.push_back(entry.path());
    }
  }
  return removed;
}

}  // namespace pcv
