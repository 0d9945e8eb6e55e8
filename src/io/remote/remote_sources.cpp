// The process's remote sources: one per URL (its cache and validators shared by every reader),
// the options they are opened with, and the counters tests and benches read.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

#include "pcv/core/text_case.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/io/uri_reference.hpp"
#include "remote_file.hpp"
#include "remote_sources.hpp"
#include "remote_state.hpp"

namespace pcv {
namespace {

std::mutex optionsMutex;

/// "512M", "4G", "1000000": bytes; 0 for text that is not a size.
uint64_t parseSize(const char* text) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || !(value > 0.0)) return 0;
  double unit = 1.0;
  switch (*end) {
    case 'K': case 'k': unit = 1024.0; ++end; break;
    case 'M': case 'm': unit = 1024.0 * 1024; ++end; break;
    case 'G': case 'g': unit = 1024.0 * 1024 * 1024; ++end; break;
    case 'T': case 't': unit = 1024.0 * 1024 * 1024 * 1024; ++end; break;
    default: break;
  }
  if (*end == 'i' || *end == 'B') ++end;
  if (*end == 'B') ++end;
  return *end == '\0' ? uint64_t(value * unit) : 0;
}

RemoteOptions& currentOptions() {
  static RemoteOptions options = [] {
    RemoteOptions defaults;
    if (const char* cache = std::getenv("PCV_CACHE_DIR"); cache && *cache) {
      defaults.diskCacheDirectory = std::string(cache) + "/http";
    }
    if (const char* size = std::getenv("PCV_HTTP_CACHE_SIZE"); size && *size) {
      if (const uint64_t bytes = parseSize(size)) {
        defaults.diskCacheBytes = bytes;
      } else {
        std::fprintf(stderr, "pcv: PCV_HTTP_CACHE_SIZE=%s is not a size (e.g. 2G); the HTTP disk "
                     "cache keeps its default bound\n", size);
      }
    }
    return defaults;
  }();
  return options;
}

struct OpenSources {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<const io::RemoteFile>> byLocation;
};

OpenSources& openSources() {
  static OpenSources sources;
  return sources;
}

}  // namespace

void setRemoteOptions(const RemoteOptions& options) {
  {
    const std::lock_guard lock(optionsMutex);
    currentOptions() = options;
  }
  io::remoteBlockCache().setBudget(options.memoryCacheBytes);
}

RemoteOptions remoteOptions() {
  const std::lock_guard lock(optionsMutex);
  return currentOptions();
}

bool isRemoteLocation(const std::string& location) {
  return startsWithIgnoringCase(location, "http://") ||
         startsWithIgnoringCase(location, "https://") || startsWithIgnoringCase(location, "s3://");
}

std::string requestUrlOf(const std::string& location) {
  if (!startsWithIgnoringCase(location, "s3://")) return location;
  const std::string rest = location.substr(5);
  const size_t slash = rest.find('/');
  if (slash == 0 || slash == std::string::npos || slash + 1 == rest.size()) {
    throw RemoteError(RemoteFailure::BadAnswer, 0,
                      locationForMessages(location) +
                          ": expected s3://BUCKET/KEY (a public bucket, read over https)");
  }
  return "https://" + rest.substr(0, slash) + ".s3.amazonaws.com/" + rest.substr(slash + 1);
}

RemoteCounters remoteCounters() {
  const io::RemoteCounterValues& v = io::remoteCounterValues();
  return {.requests = v.requests,
          .retries = v.retries,
          .bytesFetched = v.bytesFetched,
          .memoryCacheHits = v.memoryCacheHits,
          .diskCacheHits = v.diskCacheHits};
}

std::shared_ptr<const ByteSource> openRemotePointFile(const std::string& location,
                                                      uint64_t likelyBytes) {
  // A file the first block holds whole has no tail to ask for.
  const bool withTail = likelyBytes == 0 || likelyBytes > io::RemoteFile::kBlockBytes;
  return io::openRemoteSource(location, withTail);
}

void forgetRemoteSources() {
  OpenSources& sources = openSources();
  const std::lock_guard lock(sources.mutex);
  sources.byLocation.clear();
}

namespace io {

RemoteCounterValues& remoteCounterValues() {
  static RemoteCounterValues values;
  return values;
}

BlockCache& remoteBlockCache() {
  static BlockCache cache;
  return cache;
}

std::shared_ptr<const ByteSource> openRemoteSource(const std::string& location, bool withTail) {
  OpenSources& sources = openSources();
  {
    const std::lock_guard lock(sources.mutex);
    if (const auto found = sources.byLocation.find(location); found != sources.byLocation.end()) {
      return found->second;
    }
  }
  // Opened outside the lock (a round trip); two threads opening one URL at once both ask, and
  // the first one kept wins.
  auto file = std::make_shared<const RemoteFile>(location, withTail);
  const std::lock_guard lock(sources.mutex);
  return sources.byLocation.emplace(location, std::move(file)).first->second;
}

}  // namespace io
}  // namespace pcv
