// Local files are mapped and read in place; URLs go to io/remote.
#include "pcv/io/byte_source.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mapped_file.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/io/remote_source.hpp"
#include "remote/remote_sources.hpp"

namespace pcv {
namespace {

/// A mapped local file: every read is a view into the mapping, as the readers had before.
class MappedByteSource final : public ByteSource {
 public:
  explicit MappedByteSource(const std::string& path) : file_(path), name_(path) {}
  const std::string& name() const override { return name_; }
  uint64_t size() const override { return file_.size(); }
  std::span<const uint8_t> whole() const override { return file_.bytes(); }
  std::span<const uint8_t> read(uint64_t offset, uint64_t length,
                                std::vector<uint8_t>&) const override {
    if (offset > file_.size() || length > file_.size() - offset) {
      throw InputError(name_ + ": bytes " + std::to_string(offset) + "+" + std::to_string(length) +
                       " are past the end of the " + std::to_string(file_.size()) + "-byte file");
    }
    return file_.bytes().subspan(offset, length);
  }
  void release(uint64_t offset, uint64_t length) const noexcept override {
    file_.dropPages(offset, offset + length);
  }

 private:
  io::MappedFile file_;
  std::string name_;
};

/// A local file read by pread into the caller's storage: for sparse reads, where a mapping would
/// ask the kernel to read the whole file ahead.
class PreadByteSource final : public ByteSource {
 public:
  explicit PreadByteSource(const std::string& path) : name_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
    struct stat info {};
    if (::fstat(fd_, &info) != 0) {
      const int error = errno;
      ::close(fd_);
      throw InputError(path + ": cannot stat: " + std::strerror(error));
    }
    if (!S_ISREG(info.st_mode)) {
      ::close(fd_);
      throw InputError(path + (S_ISDIR(info.st_mode) ? ": is a directory, expected a file"
                                                     : ": is not a regular file (a pipe or device?)"));
    }
    size_ = uint64_t(info.st_size);
  }
  ~PreadByteSource() override { ::close(fd_); }
  PreadByteSource(const PreadByteSource&) = delete;
  PreadByteSource& operator=(const PreadByteSource&) = delete;
  const std::string& name() const override { return name_; }
  uint64_t size() const override { return size_; }
  std::span<const uint8_t> read(uint64_t offset, uint64_t length,
                                std::vector<uint8_t>& storage) const override {
    if (offset > size_ || length > size_ - offset) {
      throw InputError(name_ + ": bytes " + std::to_string(offset) + "+" + std::to_string(length) +
                       " are past the end of the " + std::to_string(size_) + "-byte file");
    }
    storage.resize(length);
    uint64_t done = 0;
    while (done < length) {
      const ssize_t got = ::pread(fd_, storage.data() + done, length - done, off_t(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        throw InputError(name_ + ": cannot read bytes " + std::to_string(offset + done) + "+" +
                         std::to_string(length - done) + ": " +
                         (got < 0 ? std::strerror(errno) : "the file ended (truncated meanwhile?)"));
      }
      done += uint64_t(got);
    }
    return {storage.data(), length};
  }

 private:
  std::string name_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace

std::shared_ptr<const ByteSource> openSparseByteSource(const std::string& location) {
  if (isRemoteLocation(location)) return io::openRemoteSource(location);
  return std::make_shared<const PreadByteSource>(location);
}

std::span<const uint8_t> SpanByteSource::read(uint64_t offset, uint64_t length,
                                              std::vector<uint8_t>&) const {
  if (offset > bytes_.size() || length > bytes_.size() - offset) {
    throw InputError(name_ + ": bytes " + std::to_string(offset) + "+" + std::to_string(length) +
                     " are past the end of the " + std::to_string(bytes_.size()) + "-byte file");
  }
  return bytes_.subspan(offset, length);
}

std::shared_ptr<const ByteSource> openByteSource(const std::string& location) {
  if (isRemoteLocation(location)) return io::openRemoteSource(location);
  return std::make_shared<const MappedByteSource>(location);
}

std::vector<uint8_t> readWholeSource(const ByteSource& source) {
  if (const auto whole = source.whole(); !whole.empty() || source.size() == 0) {
    return std::vector<uint8_t>(whole.begin(), whole.end());
  }
  requireHostMemory(source.name() + ": the whole file, read into memory", source.size(), 1);
  std::vector<uint8_t> bytes;
  const auto got = source.read(0, source.size(), bytes);
  if (got.data() != bytes.data()) bytes.assign(got.begin(), got.end());
  return bytes;
}

}  // namespace pcv
