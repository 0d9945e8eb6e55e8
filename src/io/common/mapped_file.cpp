#include "mapped_file.hpp"

#include <algorithm>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcv/core/error.hpp"
#include "pcv/io/uri_reference.hpp"
#include "save_journal.hpp"

namespace pcv::io {
namespace {

/// Closes a descriptor when the constructor leaves, mapped or not (the mapping outlives it).
struct FileDescriptor {
  int fd = -1;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

MappedFile::MappedFile(const std::filesystem::path& path, bool readAhead, FileSharing sharing)
    : path_(path) {
  // A file whose in-place save was cut short is put back as it was before it is read.
  recoverInterruptedSave(path);
  // O_NONBLOCK: a FIFO (or a device) named as a file is refused below instead of blocking the
  // open until a writer comes; on a regular file the flag changes nothing.
  FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (file.fd < 0) {
    throw InputError(locationForMessages(path.string()) + ": cannot open: " + std::strerror(errno));
  }
  // A shared lock while mapped: an in-place save (which takes an exclusive one) does not write
  // under a reader, and a reader does not start under a save. File systems without flock
  // simply go without.
  if (sharing == FileSharing::LockWhileMapped) {
    if (::flock(file.fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
      throw InputError(locationForMessages(path.string()) +
                       ": is being saved in place; open it once that save has ended");
    }
  }
  struct stat info {};
  if (::fstat(file.fd, &info) != 0) {
    throw InputError(locationForMessages(path.string()) + ": cannot stat: " + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode))
    throw InputError(locationForMessages(path.string()) + ": is a directory, expected a file");
  if (!S_ISREG(info.st_mode)) {
    throw InputError(locationForMessages(path.string()) +
                     ": is not a regular file (a pipe or device?)");
  }
  size_ = size_t(info.st_size);
  if (size_ == 0) return;
  void* mapping = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.fd, 0);
  if (mapping == MAP_FAILED) {
    throw InputError(locationForMessages(path.string()) + ": cannot map " +
                     formatBytes(double(size_)) + ": " + std::strerror(errno));
  }
  // Start read-ahead where threads read it all; a header or a sample touches a few pages only.
  if (readAhead) ::madvise(mapping, size_, MADV_WILLNEED);
  data_ = static_cast<const uint8_t*>(mapping);
  if (sharing == FileSharing::LockWhileMapped) lockFd_ = std::exchange(file.fd, -1);
}

MappedFile::~MappedFile() {
  release();
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : path_(std::move(other.path_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      lockFd_(std::exchange(other.lockFd_, -1)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    lockFd_ = std::exchange(other.lockFd_, -1);
  }
  return *this;
}

uint64_t MappedFile::dropPages(uint64_t begin, uint64_t end) const noexcept {
  static const uint64_t pageBytes = uint64_t(::sysconf(_SC_PAGESIZE));
  end = std::min<uint64_t>(end, size_);
  begin = (begin + pageBytes - 1) / pageBytes * pageBytes;
  end = end / pageBytes * pageBytes;
  if (!data_ || begin >= end) return begin;
  // A private read-only mapping holds no changes, so dropping its pages loses nothing. Failure
  // only leaves them resident.
  ::madvise(const_cast<uint8_t*>(data_) + begin, end - begin, MADV_DONTNEED);
  return end;
}

void MappedFile::release() noexcept {
  if (data_ && ::munmap(const_cast<uint8_t*>(data_), size_) != 0) {
    std::fprintf(stderr, "pcv: munmap of %s failed: %s\n", path_.c_str(), std::strerror(errno));
  }
  data_ = nullptr;
  size_ = 0;
  if (lockFd_ >= 0) ::close(lockFd_);  // the shared lock goes with it
  lockFd_ = -1;
}

}  // namespace pcv::io
