/// @brief A file on an HTTP(S) server read by range requests, as a ByteSource: its size and
/// validators (ETag, Last-Modified) learnt from the first answer and checked on every later one,
/// bytes fetched in 64 KiB blocks (adjacent ones merged into one request, several requests in
/// flight) and kept in the process's memory cache and, where set, a disk cache.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "block_cache.hpp"
#include "http_transfers.hpp"
#include "pcv/io/byte_source.hpp"
#include "pcv/io/remote_source.hpp"

namespace pcv::io {

class RemoteFile final : public ByteSource {
 public:
  /// Bytes per cached block, and per request at most (larger runs are split, to go in parallel).
  static constexpr uint64_t kBlockBytes = 64 << 10;
  static constexpr uint64_t kMaxRequestBytes = 4 << 20;

  /// Bytes of the file's end asked for with its first block when a tail is wanted: at least its
  /// last whole block, whatever the size (blocks start at multiples of kBlockBytes).
  static constexpr uint64_t kTailBytes = 2 * kBlockBytes;

  /// Asks for the first block: learns the size and validators, or reads a small file whole from
  /// a server without ranges. With `withTail`, the file's last kTailBytes are asked for in the
  /// same round trip (a suffix range: the size is not known yet) and kept in the cache where the
  /// answer agrees with the first block's (size, validators); a tail that fails or disagrees is
  /// dropped, never an error. Throws RemoteError naming the URL.
  explicit RemoteFile(const std::string& location, bool withTail = false);

  /// For messages: the location without credentials, escaped and bounded (locationForMessages).
  const std::string& name() const override { return shown_; }
  uint64_t size() const override { return size_; }
  std::span<const uint8_t> whole() const override { return whole_; }
  std::span<const uint8_t> read(uint64_t offset, uint64_t length,
                                std::vector<uint8_t>& storage) const override;
  void prefetch(const std::vector<ByteRange>& ranges) const override;

 private:
  /// The blocks [first, last] from the caches or the server; null entries for blocks not wanted.
  std::vector<Block> blocks(uint64_t first, uint64_t last) const;
  /// Fetches the blocks `wanted` (sorted indices) into the caches; those in [base, base +
  /// out.size()) also into `out`.
  void fetchBlocks(const std::vector<uint64_t>& wanted, uint64_t base,
                   std::vector<Block>& out) const;
  /// Fills [offset, offset+length) of `target` straight from the server (large reads bypass
  /// the cache).
  void fetchInto(uint64_t offset, uint64_t length, uint8_t* target) const;
  Verdict judgeRange(Transfer& t) const;
  Verdict judgeProbe(Transfer& t);
  /// The tail asked with the probe: retried as any range while its fault passes, else left for
  /// keepTail to drop.
  Verdict judgeTail(Transfer& t) const;
  /// Caches the whole blocks of a tail answer that agrees with the probe's.
  void keepTail(Transfer& tail);
  /// A transfer that ended without an answer (curlCode set); `asked` starts the message.
  Verdict judgeTransport(Transfer& t, const std::string& asked) const;
  [[noreturn]] void fail(RemoteFailure failure, int status, const std::string& what) const;
  Verdict failOrRetry(Transfer& t, RemoteFailure failure, int status, const std::string& what,
                      bool passing) const;
  Block fromDisk(uint64_t block) const;
  void toDisk(uint64_t block, const std::vector<uint8_t>& bytes) const;

  std::string location_;  ///< as given (s3:// kept)
  std::string shown_;     ///< location_ for messages: no credentials, escaped, bounded
  std::string url_;       ///< what is requested
  uint64_t id_ = 0;       ///< this source in the block cache
  uint64_t size_ = 0;
  std::string etag_, lastModified_;
  std::vector<uint8_t> whole_;  ///< a small file from a server without ranges
  std::string diskFolder_;      ///< empty: no disk cache
  std::string diskRoot_;        ///< the cache folder diskFolder_ is in (its bound's)
  uint64_t diskLimitBytes_ = 0;  ///< what the cache folder holds at most
  mutable std::atomic<bool> changed_{false};  ///< once seen changed, every read fails
};

}  // namespace pcv::io
