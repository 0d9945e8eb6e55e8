/// @brief A read-only memory mapping of a whole file (RAII, move-only). Readers parse straight
/// from the page cache, in parallel, without copying the file into a buffer first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace pcv::io {

/// Whether a mapping holds a shared lock (flock) on its file while it lives.
enum class FileSharing {
  LockWhileMapped,  ///< readers: an in-place save waits for them to go (patchRecordFileInPlace)
  NoLock,           ///< the in-place save's own view of the file it writes
};

class MappedFile {
 public:
  /// Maps `path`; throws InputError naming the path when it is missing, a directory, unreadable
  /// or cannot be mapped. An empty file maps to an empty span. With `readAhead` the kernel is
  /// asked to read the whole file ahead (readers that go through all of it); without, only the
  /// pages touched are read (a header). An interrupted in-place save of the file is rolled back
  /// first (recoverInterruptedSave); one running now is an InputError.
  explicit MappedFile(const std::filesystem::path& path, bool readAhead = true,
                      FileSharing sharing = FileSharing::LockWhileMapped);
  ~MappedFile();
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }  ///< bytes
  const std::filesystem::path& path() const { return path_; }

  /// Gives back this process's copies of the whole pages inside bytes [begin, end): a reader
  /// streaming through a file larger than memory keeps only what it still reads resident. The
  /// bytes stay readable (the kernel reads them from the file again when touched). Returns where
  /// the next range to drop can start (the end of the pages dropped).
  uint64_t dropPages(uint64_t begin, uint64_t end) const noexcept;

 private:
  void release() noexcept;
  std::filesystem::path path_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  int lockFd_ = -1;  ///< holds the shared lock; -1: none
};

}  // namespace pcv::io
