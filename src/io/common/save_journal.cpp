// The journal of an in-place save. Layout (little-endian): the mark "PCVJRNL1", the file's size
// and inode, the count of regions; each region's offset, length and old bytes; then a checksum
// of everything before it and the end mark "PCVJEND1". The journal is written under a temporary
// name, made durable and only then renamed to its own name, so a journal under that name is
// always whole; its writer holds an exclusive lock on it (flock) until it is removed, so another
// process (or thread) opening the file never rolls back a save that is still running.
#include "save_journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "byte_order.hpp"
#include "pcv/core/error.hpp"

namespace pcv::io {
namespace {

constexpr char kStartMark[8] = {'P', 'C', 'V', 'J', 'R', 'N', 'L', '1'};
constexpr char kEndMark[8] = {'P', 'C', 'V', 'J', 'E', 'N', 'D', '1'};
constexpr uint64_t kHeadBytes = 32;   ///< mark, file size, inode, region count
constexpr uint64_t kRegionHead = 16;  ///< offset, length
constexpr uint64_t kTailBytes = 16;   ///< checksum, end mark
constexpr uint64_t kHashSeed = 0xcbf29ce484222325ull;

/// A 64-bit hash of `bytes` continuing from `h`, eight bytes a step: it tells a whole journal
/// from one cut short or damaged, not an adversary's.
uint64_t hashBytes(std::span<const uint8_t> bytes, uint64_t h) {
  constexpr uint64_t kPrime = 0x100000001b3ull;
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    h = (h ^ loadLe<uint64_t>(bytes.data() + i)) * kPrime;
    h ^= h >> 29;
  }
  for (; i < bytes.size(); ++i) h = (h ^ bytes[i]) * kPrime;
  return h;
}

/// Closes a descriptor it owns.
struct Descriptor {
  int fd = -1;
  explicit Descriptor(int f) : fd(f) {}
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
};

/// A read-only mapping of an open descriptor's file.
struct FdMapping {
  const uint8_t* data = nullptr;
  size_t size = 0;
  FdMapping(int fd, const std::string& what) {
    struct stat info {};
    if (::fstat(fd, &info) != 0) throw Error("cannot stat " + what + ": " + std::strerror(errno));
    size = size_t(info.st_size);
    if (size == 0) return;
    void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) throw Error("cannot map " + what + ": " + std::strerror(errno));
    data = static_cast<const uint8_t*>(mapped);
  }
  ~FdMapping() {
    if (data) ::munmap(const_cast<uint8_t*>(data), size);
  }
  FdMapping(const FdMapping&) = delete;
  FdMapping& operator=(const FdMapping&) = delete;
};

[[noreturn]] void failSystem(const std::string& what, const std::filesystem::path& path) {
  throw Error(what + " " + path.string() + ": " + std::strerror(errno));
}

void writeAll(int fd, const uint8_t* bytes, uint64_t count, uint64_t at,
              const std::filesystem::path& path) {
  while (count > 0) {
    const ssize_t n = ::pwrite(fd, bytes, size_t(std::min<uint64_t>(count, 1ull << 30)), off_t(at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) failSystem("cannot write", path);
    bytes += n;
    at += uint64_t(n);
    count -= uint64_t(n);
  }
}

void syncFile(int fd, const std::filesystem::path& path) {
  if (::fsync(fd) != 0) failSystem("cannot flush", path);
}

/// Makes a name made or removed in `file`'s folder durable.
void syncFolderOf(const std::filesystem::path& file) {
  std::filesystem::path folder = file.parent_path();
  if (folder.empty()) folder = ".";
  const Descriptor dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.fd < 0 || ::fsync(dir.fd) != 0) failSystem("cannot flush the folder", folder);
}

/// Writes the journal's old bytes back into the file open as `fileFd`, cuts off what the save
/// appended, and makes it durable.
void restore(int fileFd, const SaveJournalContents& journal, const std::filesystem::path& file) {
  for (const SaveJournalContents::Region& region : journal.regions) {
    writeAll(fileFd, region.bytes.data(), region.bytes.size(), region.offset, file);
  }
  if (::ftruncate(fileFd, off_t(journal.fileSize)) != 0) failSystem("cannot shorten", file);
  syncFile(fileFd, file);
}

std::string journalProblem(const std::filesystem::path& file,
                           const std::filesystem::path& journal) {
  return file.string() + ": an in-place save of it was interrupted, and its journal " +
         journal.string();
}

}  // namespace

std::filesystem::path saveJournalPath(const std::filesystem::path& file) {
  std::filesystem::path journal = file;
  journal += ".pcv-journal";
  return journal;
}

std::optional<SaveJournalContents> parseSaveJournal(std::span<const uint8_t> bytes) {
  if (bytes.size() < kHeadBytes + kTailBytes ||
      std::memcmp(bytes.data(), kStartMark, sizeof kStartMark) != 0 ||
      std::memcmp(bytes.data() + bytes.size() - sizeof kEndMark, kEndMark, sizeof kEndMark) != 0) {
    return std::nullopt;
  }
  SaveJournalContents journal;
  journal.fileSize = loadLe<uint64_t>(bytes.data() + 8);
  journal.fileIdentity = loadLe<uint64_t>(bytes.data() + 16);
  const uint64_t count = loadLe<uint64_t>(bytes.data() + 24);
  const uint64_t end = bytes.size() - kTailBytes;
  // Each region takes at least its 16-byte head: a count beyond that is no journal.
  if (count > (end - kHeadBytes) / kRegionHead) return std::nullopt;
  uint64_t h = hashBytes(bytes.first(kHeadBytes), kHashSeed);
  uint64_t at = kHeadBytes;
  journal.regions.reserve(size_t(count));
  for (uint64_t r = 0; r < count; ++r) {
    if (end - at < kRegionHead) return std::nullopt;
    const uint64_t offset = loadLe<uint64_t>(bytes.data() + at);
    const uint64_t length = loadLe<uint64_t>(bytes.data() + at + 8);
    h = hashBytes(bytes.subspan(size_t(at), kRegionHead), h);
    at += kRegionHead;
    if (length > end - at || offset > journal.fileSize || length > journal.fileSize - offset) {
      return std::nullopt;
    }
    const std::span<const uint8_t> old = bytes.subspan(size_t(at), size_t(length));
    h = hashBytes(old, h);
    journal.regions.push_back({offset, old});
    at += length;
  }
  if (at != end || loadLe<uint64_t>(bytes.data() + end) != h) return std::nullopt;
  return journal;
}

void recoverInterruptedSave(const std::filesystem::path& file) {
  const std::filesystem::path journalPath = saveJournalPath(file);
  const Descriptor journal(::open(journalPath.c_str(), O_RDONLY | O_CLOEXEC));
  if (journal.fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return;
    throw InputError(journalProblem(file, journalPath) +
                     " cannot be read: " + std::strerror(errno));
  }
  if (::flock(journal.fd, LOCK_EX | LOCK_NB) != 0) {
    throw InputError(file.string() +
                     ": is being saved in place (its journal is held by the save); open it once "
                     "that save has ended");
  }
  struct stat journalInfo {};
  // The save may have ended between the open and the lock: its journal is gone then.
  if (::fstat(journal.fd, &journalInfo) != 0 || journalInfo.st_nlink == 0) return;
  const FdMapping mapped(journal.fd, journalPath.string());
  const std::optional<SaveJournalContents> contents = parseSaveJournal({mapped.data, mapped.size});
  if (!contents) {
    throw InputError(journalProblem(file, journalPath) +
                     " is damaged: the file may hold part of that save; keep both and check the "
                     "file before removing the journal");
  }
  const Descriptor target(::open(file.c_str(), O_WRONLY | O_CLOEXEC));
  struct stat info {};
  if (target.fd < 0 || ::fstat(target.fd, &info) != 0) {
    throw InputError(
        journalProblem(file, journalPath) +
        " holds the bytes to put back, but the file cannot be written: " + std::strerror(errno));
  }
  // A save only appends: a file shorter than the journal's is another file.
  if (uint64_t(info.st_size) < contents->fileSize ||
      uint64_t(info.st_ino) != contents->fileIdentity) {
    throw InputError(journalProblem(file, journalPath) + " was written for a file of " +
                     std::to_string(contents->fileSize) + " bytes (this one has " +
                     std::to_string(info.st_size) +
                     ", or is another file): remove the journal if the file is as it should be");
  }
  restore(target.fd, *contents, file);
  if (::unlink(journalPath.c_str()) != 0) failSystem("cannot remove", journalPath);
  syncFolderOf(journalPath);
}

std::unique_ptr<InPlaceSave> InPlaceSave::begin(const std::filesystem::path& file,
                                                std::span<const uint8_t> current,
                                                std::span<const ByteRange> ranges) {
  recoverInterruptedSave(file);
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) failSystem("cannot open for writing", file);
  // Readers hold shared locks (MappedFile): none may be reading while chunks move. File systems
  // without flock go without.
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    ::close(fd);
    return nullptr;
  }
  return std::unique_ptr<InPlaceSave>(new InPlaceSave(file, fd, current, ranges));
}

InPlaceSave::InPlaceSave(const std::filesystem::path& file, int fileFd,
                         std::span<const uint8_t> current, std::span<const ByteRange> ranges)
    : file_(file),
      journal_(saveJournalPath(file)),
      ranges_(ranges.begin(), ranges.end()),
      fileFd_(fileFd) {
  std::sort(ranges_.begin(), ranges_.end(),
            [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  for (size_t r = 0; r < ranges_.size(); ++r) {
    const ByteRange& range = ranges_[r];
    if (range.offset > current.size() || range.bytes > current.size() - range.offset ||
        (r > 0 && ranges_[r - 1].offset + ranges_[r - 1].bytes > range.offset)) {
      ::close(fileFd_);
      throw Error("an in-place save of " + file_.string() +
                  " names ranges that overlap or lie past its end");
    }
  }
  struct stat info {};
  if (::fstat(fileFd_, &info) != 0 || uint64_t(info.st_size) != current.size()) {
    ::close(fileFd_);
    throw Error(file_.string() + " changed size while it was being saved");
  }
  originalSize_ = current.size();
  // Written whole under a temporary name, then renamed: under its own name a journal is whole.
  std::filesystem::path temporary = journal_;
  temporary += ".tmp-" + std::to_string(::getpid());
  // Readable by the owner alone: it holds a copy of the file's bytes, whatever their mode.
  journalFd_ = ::open(temporary.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (journalFd_ < 0) {
    ::close(fileFd_);
    failSystem("cannot create", temporary);
  }
  try {
    if (::flock(journalFd_, LOCK_EX) != 0) failSystem("cannot lock", temporary);
    uint8_t head[kHeadBytes];
    std::memcpy(head, kStartMark, sizeof kStartMark);
    storeLe<uint64_t>(head + 8, current.size());
    storeLe<uint64_t>(head + 16, uint64_t(info.st_ino));
    storeLe<uint64_t>(head + 24, ranges_.size());
    uint64_t at = 0;
    const auto append = [&](std::span<const uint8_t> bytes) {
      writeAll(journalFd_, bytes.data(), bytes.size(), at, temporary);
      at += bytes.size();
    };
    uint64_t h = hashBytes(head, kHashSeed);
    append(head);
    for (const ByteRange& range : ranges_) {
      uint8_t regionHead[kRegionHead];
      storeLe<uint64_t>(regionHead, range.offset);
      storeLe<uint64_t>(regionHead + 8, range.bytes);
      const std::span<const uint8_t> old =
          current.subspan(size_t(range.offset), size_t(range.bytes));
      h = hashBytes(old, hashBytes(regionHead, h));
      append(regionHead);
      append(old);
    }
    uint8_t tail[kTailBytes];
    storeLe<uint64_t>(tail, h);
    std::memcpy(tail + 8, kEndMark, sizeof kEndMark);
    append(tail);
    syncFile(journalFd_, temporary);
    if (::rename(temporary.c_str(), journal_.c_str()) != 0) failSystem("cannot rename", temporary);
    syncFolderOf(journal_);
  } catch (...) {
    ::unlink(temporary.c_str());
    ::close(journalFd_);
    ::close(fileFd_);
    throw;
  }
}

InPlaceSave::~InPlaceSave() {
  if (!done_) {
    try {
      rollBack();
    } catch (...) {
      // The journal stays: the next open of the file puts the old bytes back.
    }
  }
  release();
}

void InPlaceSave::write(uint64_t offset, std::span<const uint8_t> bytes) {
  // Below the old end, only journaled bytes are written; past it, anything (cut off again by a
  // roll-back).
  const uint64_t end = offset + bytes.size();
  const uint64_t below = std::min(end, originalSize_);
  if (offset < below) {
    const auto after =
        std::upper_bound(ranges_.begin(), ranges_.end(), offset,
                         [](uint64_t at, const ByteRange& range) { return at < range.offset; });
    if (after == ranges_.begin() || below > std::prev(after)->offset + std::prev(after)->bytes) {
      throw Error("an in-place save of " + file_.string() + " wrote outside what it journaled");
    }
  }
  writeAll(fileFd_, bytes.data(), bytes.size(), offset, file_);
}

void InPlaceSave::commit() {
  syncFile(fileFd_, file_);
  if (::unlink(journal_.c_str()) != 0) failSystem("cannot remove", journal_);
  done_ = true;
  syncFolderOf(journal_);
  release();
}

void InPlaceSave::release() noexcept {
  // Closing the descriptors drops the locks: readers may come.
  if (fileFd_ >= 0) ::close(fileFd_);
  if (journalFd_ >= 0) ::close(journalFd_);
  fileFd_ = journalFd_ = -1;
}

void InPlaceSave::rollBack() {
  if (done_) return;
  const FdMapping mapped(journalFd_, journal_.string());
  const std::optional<SaveJournalContents> contents = parseSaveJournal({mapped.data, mapped.size});
  if (!contents) throw Error("the journal " + journal_.string() + " cannot be read back");
  restore(fileFd_, *contents, file_);
  if (::unlink(journal_.c_str()) != 0) failSystem("cannot remove", journal_);
  done_ = true;
  syncFolderOf(journal_);
  release();
}

}  // namespace pcv::io
