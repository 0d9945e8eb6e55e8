/// @brief Files read over HTTP(S) by range requests (libcurl): the settings every remote source of
/// the process shares (requests in flight, cache sizes, retries), the errors a remote read ends
/// with (each naming the URL and the HTTP status or cause), and counters for tests and benches.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "pcv/core/error.hpp"
#include "pcv/io/byte_source.hpp"

namespace pcv {

/// Why a remote read failed, for callers that act on it (tests, retries); the message says it
/// for people.
enum class RemoteFailure {
  NotFound,        ///< HTTP 404 (or 410)
  Forbidden,       ///< HTTP 401 or 403
  HttpStatus,      ///< another HTTP status that is not a success (4xx; 5xx after the retries)
  Dns,             ///< the host name does not resolve
  Tls,             ///< the TLS handshake or the server's certificate failed
  Connection,      ///< refused, reset or timed out (after the retries)
  Changed,         ///< the file changed while it was read (ETag, Last-Modified or size)
  NoRangeSupport,  ///< the server sends whole files only and this one is too large
  BadAnswer,       ///< an answer that does not match the request (range, length)
  Timeout,         ///< no complete answer within RemoteOptions::requestTimeoutSeconds
};

/// A remote read that failed; an InputError so every front end reports it as bad input.
class RemoteError : public InputError {
 public:
  RemoteError(RemoteFailure failure, int httpStatus, const std::string& message)
      : InputError(message), failure_(failure), httpStatus_(httpStatus) {}
  RemoteFailure failure() const { return failure_; }
  int httpStatus() const { return httpStatus_; }  ///< 0 where no HTTP answer came

 private:
  RemoteFailure failure_;
  int httpStatus_;
};

/// What every remote source of the process uses. Set before opening sources (the session layer
/// sets it from --http-connections and --memory); sources opened earlier keep theirs.
struct RemoteOptions {
  int connections = 16;                    ///< requests in flight at most (--http-connections)
  uint64_t memoryCacheBytes = 256ull << 20;  ///< fetched bytes kept in memory (bounded by --memory)
  /// Folder for a disk cache of fetched blocks; empty: none. Defaults to $PCV_CACHE_DIR/http
  /// where PCV_CACHE_DIR is set.
  std::string diskCacheDirectory;
  /// The disk cache's size at most: past it, the blocks used longest ago are removed (down to
  /// nine tenths). $PCV_HTTP_CACHE_SIZE sets it (bytes, or with a K, M, G or T suffix).
  uint64_t diskCacheBytes = 4ull << 30;
  int retries = 4;                 ///< more attempts after a 5xx answer, a timeout or a reset
  double retryDelaySeconds = 0.2;  ///< before the first retry; doubled for each next one
  double connectTimeoutSeconds = 10.0;
  /// A transfer slower than 1 KiB/s for this long is abandoned (and retried).
  double lowSpeedSeconds = 20.0;
  /// Every request ends within this many seconds, its retries included (--http-timeout): a
  /// server that trickles bytes just above the low-speed floor, or stalls, cannot hold pcv.
  double requestTimeoutSeconds = 60.0;
  /// A VPC read over the network names tiles and overviews on its own origin only
  /// (--tile-origins same, the default; VpcHrefRules::sameOrigin).
  bool tilesOnVpcOrigin = true;
  /// A server that ignores Range is read whole when the file is at most this large.
  uint64_t wholeFileLimitBytes = 8ull << 20;
};

void setRemoteOptions(const RemoteOptions& options);
RemoteOptions remoteOptions();

/// Whether `location` is read remotely: http://, https:// or s3:// (any case of the scheme).
bool isRemoteLocation(const std::string& location);

/// The URL requested for `location`: s3://bucket/key becomes https://bucket.s3.amazonaws.com/key
/// (public buckets); http(s) URLs are unchanged.
std::string requestUrlOf(const std::string& location);

/// Opens the point file (LAS, LAZ or COPC) at URL `location` for a reader that reads its end
/// next (EVLRs, the LAZ chunk table, the COPC hierarchy: every writer puts them there): unless
/// `likelyBytes` (the size the caller expects, from an index; 0: unknown) is within the first
/// request's 64 KiB, the file's last 128 KiB are asked for in the same round trip as its first
/// block, so the header, VLRs, chunk table and hierarchy pages come in one round trip instead of
/// two. The source is the one openByteSource(location) returns (one a URL); a URL open already
/// is returned as it is. Throws as openByteSource.
std::shared_ptr<const ByteSource> openRemotePointFile(const std::string& location,
                                                      uint64_t likelyBytes = 0);

/// Counts over every remote source of the process, for tests and benchmarks.
struct RemoteCounters {
  uint64_t requests = 0;        ///< HTTP requests sent (retries included)
  uint64_t retries = 0;         ///< of them, repeats after a fault
  uint64_t bytesFetched = 0;    ///< body bytes received
  uint64_t memoryCacheHits = 0; ///< blocks found in memory
  uint64_t diskCacheHits = 0;   ///< blocks found in the disk cache
};
RemoteCounters remoteCounters();

/// Forgets the sources opened so far (their caches and validators): the next open of a URL asks
/// the server again. For tests that change the file behind a URL between opens.
void forgetRemoteSources();

}  // namespace pcv
