/// @brief The physical layer of an E57 file: 1024-byte pages whose last 4 bytes are a CRC-32C
/// of the other 1020, and the logical byte stream their payloads form. Every read checks the
/// CRC of each page it touches (once per page), so a corrupt page is reported by number before
/// any of its bytes are used.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace pcv::io::e57 {

class PagedFile {
 public:
  static constexpr uint64_t kPageSize = 1024;  ///< bytes, the only page size E57 1.0 allows
  static constexpr uint64_t kPayloadSize = kPageSize - 4;  ///< bytes of a page before its CRC

  /// `pages` is the file's physical extent, a whole number of pages (checked by the caller
  /// against the file header). `fileName` prefixes every error message.
  PagedFile(std::span<const uint8_t> pages, std::string fileName);

  uint64_t pageCount() const { return pageCount_; }
  uint64_t logicalSize() const { return pageCount_ * kPayloadSize; }  ///< bytes
  const std::string& fileName() const { return fileName_; }

  /// Copies logical bytes [logical, logical + size) to `out`. Throws InputError when the range
  /// leaves the file (naming `what`, e.g. "data packet 3 of scan 0") or a page fails its CRC.
  void read(uint64_t logical, uint64_t size, uint8_t* out, std::string_view what) const;

  /// Checks one page's CRC unless an earlier read did; throws InputError naming the page.
  void verifyPage(uint64_t page) const;

  /// Offsets in the file (physical) and in the stream of page payloads (logical). A physical
  /// offset inside a page's CRC has no logical offset: isPayloadOffset says whether one does.
  static uint64_t logicalFromPhysical(uint64_t physical) {
    return physical / kPageSize * kPayloadSize + physical % kPageSize;
  }
  static uint64_t physicalFromLogical(uint64_t logical) {
    return logical / kPayloadSize * kPageSize + logical % kPayloadSize;
  }
  static bool isPayloadOffset(uint64_t physical) { return physical % kPageSize < kPayloadSize; }

  /// Throws MalformedFileError "<file>: <what>".
  [[noreturn]] void fail(const std::string& what) const;
  /// Throws MalformedFileError "<file>: byte <physical>: <what>".
  [[noreturn]] void failAt(uint64_t physical, const std::string& what) const;

 private:
  std::span<const uint8_t> pages_;
  std::string fileName_;
  uint64_t pageCount_ = 0;
  /// One bit per page, set once its CRC matched; readers on several threads may verify the
  /// same page twice, which is harmless.
  std::unique_ptr<std::atomic<uint64_t>[]> verified_;
};

}  // namespace pcv::io::e57
