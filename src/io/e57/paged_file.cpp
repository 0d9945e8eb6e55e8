#include "paged_file.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "crc32c.hpp"
#include "pcv/io/malformed_file_error.hpp"

namespace pcv::io::e57 {
namespace {

std::string hex32(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

}  // namespace

PagedFile::PagedFile(std::span<const uint8_t> pages, std::string fileName)
    : pages_(pages), fileName_(std::move(fileName)), pageCount_(pages.size() / kPageSize) {
  const uint64_t words = (pageCount_ + 63) / 64;
  verified_ = std::make_unique<std::atomic<uint64_t>[]>(words);
  for (uint64_t w = 0; w < words; ++w) verified_[w].store(0, std::memory_order_relaxed);
}

void PagedFile::fail(const std::string& what) const {
  throw MalformedFileError(fileName_, {}, what);
}

void PagedFile::failAt(uint64_t physical, const std::string& what) const {
  throw MalformedFileError(fileName_, {.byteOffset = physical, .line = {}}, what);
}

void PagedFile::verifyPage(uint64_t page) const {
  std::atomic<uint64_t>& word = verified_[page / 64];
  const uint64_t bit = uint64_t(1) << (page % 64);
  if (word.load(std::memory_order_acquire) & bit) return;
  const uint8_t* start = pages_.data() + page * kPageSize;
  // E57 writers store the CRC most significant byte first, unlike every other field.
  const uint32_t stored =
      uint32_t(start[kPayloadSize]) << 24 | uint32_t(start[kPayloadSize + 1]) << 16 |
      uint32_t(start[kPayloadSize + 2]) << 8 | uint32_t(start[kPayloadSize + 3]);
  const uint32_t computed = crc32c(start, kPayloadSize);
  if (stored != computed) {
    fail("page " + std::to_string(page) + " (bytes " + std::to_string(page * kPageSize) + "-" +
         std::to_string(page * kPageSize + kPageSize - 1) + ") fails its CRC-32C check: stored " +
         hex32(stored) + ", computed " + hex32(computed) + " (the file is corrupt)");
  }
  word.fetch_or(bit, std::memory_order_release);
}

void PagedFile::read(uint64_t logical, uint64_t size, uint8_t* out, std::string_view what) const {
  if (logical > logicalSize() || size > logicalSize() - logical) {
    fail(std::string(what) + " (logical bytes " + std::to_string(logical) + " + " +
         std::to_string(size) + ") runs past the end of the file's " +
         std::to_string(logicalSize()) + " payload bytes (truncated?)");
  }
  while (size > 0) {
    const uint64_t page = logical / kPayloadSize;
    const uint64_t within = logical % kPayloadSize;
    const uint64_t take = std::min(size, kPayloadSize - within);
    verifyPage(page);
    std::memcpy(out, pages_.data() + page * kPageSize + within, take);
    out += take;
    logical += take;
    size -= take;
  }
}

}  // namespace pcv::io::e57
