/// @brief A read-only memory mapping of a whole file (RAII, move-only). Readers parse straight
/// from the page cache, in parallel, without copying the file into a buffer first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace pcv::io {

class MappedFile {
 public:
  /// Maps `path`; throws InputError naming the path when it is missing, a directory, unreadable
  /// or cannot be mapped. An empty file maps to an empty span.
  explicit MappedFile(const std::filesystem::path& path);
  ~MappedFile();
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }  ///< bytes
  /// Gives the pages of [offset, offset + bytes) back to the system (they are read again from
  /// the file when touched), so reading a huge file piece by piece keeps the resident memory
  /// bounded.
  void dropPages(uint64_t offset, uint64_t bytes) const;
  const std::filesystem::path& path() const { return path_; }

 private:
  void release() noexcept;
  std::filesystem::path path_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace pcv::io
