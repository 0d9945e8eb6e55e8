/// @brief Where a reader's bytes come from: a local file (mapped, read in place) or a URL (HTTP
/// range requests, io/remote). Readers of COPC and of LAS/LAZ headers ask for byte ranges through
/// this seam, so the same parser reads a file on disk or on a web server.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace pcv {

/// Bytes [offset, offset + length) of a source.
struct ByteRange {
  uint64_t offset = 0;
  uint64_t length = 0;
  uint64_t end() const { return offset + length; }
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;

  /// The path or URL, for messages.
  virtual const std::string& name() const = 0;
  /// Bytes in the source.
  virtual uint64_t size() const = 0;
  /// The whole source in memory when it is there already (a mapping): readers then parse in
  /// place. Empty for a remote source, whose bytes come through read().
  virtual std::span<const uint8_t> whole() const { return {}; }

  /// Bytes [offset, offset + length), which must lie inside the source (readers check their
  /// ranges against size() first). Returns a view into the mapping for a local source (nothing
  /// copied, `storage` untouched) or into `storage`, which it fills, for a remote one. Safe to
  /// call from several threads. Throws InputError (RemoteError for a URL) naming the source.
  virtual std::span<const uint8_t> read(uint64_t offset, uint64_t length,
                                        std::vector<uint8_t>& storage) const = 0;

  /// Hint: these ranges are read soon. A remote source fetches them together (merged where they
  /// touch, several requests in flight) into its cache; a local one does nothing.
  virtual void prefetch(const std::vector<ByteRange>& ranges) const { (void)ranges; }

  /// Tells the source the bytes of [offset, offset + length) are not needed again soon (a
  /// decoded chunk): a mapping gives the pages back. Never fails.
  virtual void release(uint64_t offset, uint64_t length) const noexcept {
    (void)offset;
    (void)length;
  }
};

/// A source over bytes the caller keeps alive (a buffer, a mapping): the span readers' seam.
class SpanByteSource final : public ByteSource {
 public:
  SpanByteSource(std::span<const uint8_t> bytes, std::string name)
      : bytes_(bytes), name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  uint64_t size() const override { return bytes_.size(); }
  std::span<const uint8_t> whole() const override { return bytes_; }
  std::span<const uint8_t> read(uint64_t offset, uint64_t length,
                                std::vector<uint8_t>& storage) const override;

 private:
  std::span<const uint8_t> bytes_;
  std::string name_;
};

/// Opens `location`: a local path is mapped; an http://, https:// or s3:// URL is read by range
/// requests (io/remote; one source per URL per process, so its cache and validators are shared
/// by every reader of it). Throws InputError naming the location (RemoteError for a URL).
std::shared_ptr<const ByteSource> openByteSource(const std::string& location);

/// Opens `location` for a few small reads (a sample of records, a header, a chunk table): a local
/// file is mapped without asking the kernel to read it all ahead (a sample of 1 000 tiles then
/// reads the pages of its records, not the tiles); a URL as openByteSource. Throws InputError
/// naming the location.
std::shared_ptr<const ByteSource> openSparseByteSource(const std::string& location);

/// Reads all of `source` into memory (a remote one by ranges in parallel). Throws
/// OutOfMemoryError naming the sizes when it does not fit in the memory available.
std::vector<uint8_t> readWholeSource(const ByteSource& source);

}  // namespace pcv
