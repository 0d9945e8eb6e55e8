// Temporary record files go through plain descriptors: large sequential writes and reads, with
// the page cache told to drop what was read (the data is used once and need not crowd out the
// rest of the machine).
#include "temporary_files.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "pcv/core/error.hpp"
#include "pcv/core/uninitialized_vector.hpp"

namespace pcv::io {
namespace {

std::string systemError(const std::filesystem::path& path, const char* what) {
  return path.string() + ": " + what + ": " + std::strerror(errno);
}

}  // namespace

TemporaryDirectory::TemporaryDirectory(const std::filesystem::path& parent) {
  const std::filesystem::path base = parent.empty() ? std::filesystem::path(".") : parent;
  std::string pattern = (base / ".pcv-convert-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) {
    throw Error(systemError(base, "cannot make a temporary folder there (--tmp picks another)"));
  }
  path_ = pattern;
}

TemporaryDirectory::~TemporaryDirectory() {
  std::error_code error;
  std::filesystem::remove_all(path_, error);
  if (error) {
    std::fprintf(stderr, "pcv: could not remove the temporary folder %s: %s\n", path_.c_str(),
                 error.message().c_str());
  }
}

RecordFileWriter::RecordFileWriter(const std::filesystem::path& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd_ < 0) throw Error(systemError(path, "cannot create a temporary file"));
}

RecordFileWriter::~RecordFileWriter() {
  if (fd_ >= 0) ::close(fd_);
}

RecordFileWriter::RecordFileWriter(RecordFileWriter&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)) {}

void RecordFileWriter::append(const uint8_t* data, uint64_t bytes) {
  while (bytes > 0) {
    const ssize_t written = ::write(fd_, data, std::min<uint64_t>(bytes, uint64_t(1) << 30));
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) throw Error(systemError(path_, "writing a temporary file failed"));
    data += written;
    bytes -= uint64_t(written);
  }
}

void RecordFileWriter::close() {
  if (fd_ < 0) return;
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) throw Error(systemError(path_, "closing a temporary file failed"));
}

void readRecordFile(const std::filesystem::path& path, uint8_t* into, uint64_t bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(systemError(path, "cannot open a temporary file"));
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  uint64_t done = 0;
  while (done < bytes) {
    const ssize_t got =
        ::read(fd, into + done, std::min<uint64_t>(bytes - done, uint64_t(1) << 30));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      ::close(fd);
      throw Error(path.string() + ": a temporary file holds " + std::to_string(done) +
                  " bytes, expected " + std::to_string(bytes));
    }
    done += uint64_t(got);
  }
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

namespace {

class RecordFileStream : public PointRecordStream {
 public:
  RecordFileStream(const std::filesystem::path& path, const LasWriteFormat& format, uint64_t count)
      : path_(path) {
    format_ = format;
    pointCount_ = count;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw Error(systemError(path, "cannot open a temporary file"));
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
  ~RecordFileStream() override {
    if (fd_ >= 0) {
      ::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
      ::close(fd_);
    }
  }

  uint64_t next(uint64_t maxPoints, const uint8_t*& records) override {
    const uint64_t count = std::min(maxPoints, pointCount_ - done_);
    const uint64_t length = format_.recordLength;
    buffer_.resize(count * length);
    uint64_t got = 0;
    while (got < count * length) {
      const ssize_t n = ::read(fd_, buffer_.data() + got, count * length - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        throw Error(path_.string() + ": a temporary file ends after " +
                    std::to_string((done_ * length + got)) + " bytes, expected " +
                    std::to_string(pointCount_ * length));
      }
      got += uint64_t(n);
    }
    done_ += count;
    records = buffer_.data();
    return count;
  }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  UninitializedVector<uint8_t> buffer_;
  uint64_t done_ = 0;
};

}  // namespace

std::unique_ptr<PointRecordStream> recordFileStream(const std::filesystem::path& path,
                                                    const LasWriteFormat& format, uint64_t count) {
  return std::make_unique<RecordFileStream>(path, format, count);
}

}  // namespace pcv::io
