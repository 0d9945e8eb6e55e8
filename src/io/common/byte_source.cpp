// Local files are mapped and read in place; URLs go to io/remote.
#include "pcv/io/byte_source.hpp"

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
  MappedByteSource(const std::string& path, bool readAhead)
      : file_(path, readAhead), name_(path) {}
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

}  // namespace

std::shared_ptr<const ByteSource> openSparseByteSource(const std::string& location) {
  if (isRemoteLocation(location)) return io::openRemoteSource(location);
  // Mapped without read-ahead: each record read faults in its page (and the kernel maps the
  // cached pages around it), fewer system calls than a pread per record.
  return std::make_shared<const MappedByteSource>(location, false);
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
  return std::make_shared<const MappedByteSource>(location, true);
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
