// The journal of in-place saves: a committed save leaves the new bytes and no journal; one given
// up, or cut short by the process dying, is rolled back (by the next open of the file, through
// MappedFile), appended bytes cut off; a journal still held by a running save is never rolled
// back; a damaged journal or one of another file is an error that leaves both alone; every cut
// of a journal is refused by the parser.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "common/mapped_file.hpp"
#include "common/save_journal.hpp"
#include "laz_test_support.hpp"
#include "pcv/core/error.hpp"
#include "synthetic_point_files.hpp"
#include "temp_dir.hpp"

namespace pcv::io {
namespace {

namespace fs = std::filesystem;
using test::readBytes;

class SaveJournal : public ::testing::Test {
 protected:
  void SetUp() override {
    for (size_t i = 0; i < original_.size(); ++i) original_[i] = uint8_t(i * 31 + 7);
    test::writeBytes(file_, original_);
  }

  /// The file with `bytes` written at `at`.
  std::vector<uint8_t> with(uint64_t at, const std::vector<uint8_t>& bytes) const {
    std::vector<uint8_t> changed = original_;
    if (changed.size() < at + bytes.size()) changed.resize(at + bytes.size());
    std::copy(bytes.begin(), bytes.end(), changed.begin() + ptrdiff_t(at));
    return changed;
  }

  /// Runs a save in a child process that dies (no destructor, no roll-back) after writing
  /// `bytes` at 100 and 5 bytes past the end: what a crash in the middle of a save leaves.
  void crashMidSave(const std::vector<uint8_t>& bytes) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      const MappedFile mapped(file_, true, FileSharing::NoLock);
      const std::vector<ByteRange> ranges{{100, bytes.size()}};
      InPlaceSave* save = InPlaceSave::begin(file_, mapped.bytes(), ranges).release();
      save->write(100, bytes);
      save->write(original_.size(), std::vector<uint8_t>(5, 0xAB));
      ::_exit(0);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }

  test::TempDir dir_;
  fs::path file_ = dir_.file("cloud.las");
  std::vector<uint8_t> original_ = std::vector<uint8_t>(4096);
};

TEST_F(SaveJournal, ACommittedSaveKeepsTheNewBytesAndNoJournal) {
  const std::vector<uint8_t> bytes(64, 0x5A);
  {
    const MappedFile mapped(file_, true, FileSharing::NoLock);
    const std::vector<ByteRange> ranges{{1000, 64}};
    const auto save = InPlaceSave::begin(file_, mapped.bytes(), ranges);
    ASSERT_TRUE(save);
    EXPECT_TRUE(fs::exists(saveJournalPath(file_)));
    save->write(1000, bytes);
    save->commit();
  }
  EXPECT_EQ(readBytes(file_), with(1000, bytes));
  EXPECT_FALSE(fs::exists(saveJournalPath(file_)));
}

TEST_F(SaveJournal, ASaveGivenUpPutsTheOldBytesBackAndCutsWhatItAppended) {
  {
    const MappedFile mapped(file_, true, FileSharing::NoLock);
    const std::vector<ByteRange> ranges{{10, 20}, {3000, 100}};
    const auto save = InPlaceSave::begin(file_, mapped.bytes(), ranges);
    ASSERT_TRUE(save);
    save->write(3000, std::vector<uint8_t>(100, 1));
    save->write(original_.size() + 10, std::vector<uint8_t>(50, 2));
    // Outside every journaled range below the old end: refused.
    EXPECT_THROW(save->write(500, std::vector<uint8_t>(4, 3)), Error);
  }
  EXPECT_EQ(readBytes(file_), original_);
  EXPECT_FALSE(fs::exists(saveJournalPath(file_)));
}

TEST_F(SaveJournal, ASaveCutShortIsRolledBackByTheNextOpen) {
  crashMidSave(std::vector<uint8_t>(32, 0xEE));
  ASSERT_TRUE(fs::exists(saveJournalPath(file_)));
  EXPECT_NE(readBytes(file_), original_);
  const MappedFile reopened(file_);
  EXPECT_EQ(std::vector<uint8_t>(reopened.data(), reopened.data() + reopened.size()), original_);
  EXPECT_FALSE(fs::exists(saveJournalPath(file_)));
}

TEST_F(SaveJournal, ASaveStillRunningIsNotRolledBack) {
  const MappedFile mapped(file_, true, FileSharing::NoLock);
  const std::vector<ByteRange> ranges{{0, 16}};
  const auto save = InPlaceSave::begin(file_, mapped.bytes(), ranges);
  ASSERT_TRUE(save);
  save->write(0, std::vector<uint8_t>(16, 9));
  // Another reader of the file while the save holds its journal: told, nothing put back.
  EXPECT_THROW(MappedFile{file_}, InputError);
  EXPECT_EQ(readBytes(file_), with(0, std::vector<uint8_t>(16, 9)));
  save->commit();
  EXPECT_NO_THROW(MappedFile{file_});
}

TEST_F(SaveJournal, NoSaveStartsWhileAReaderHasTheFileMapped) {
  const MappedFile mapped(file_, true, FileSharing::NoLock);
  const std::vector<ByteRange> ranges{{0, 16}};
  {
    const MappedFile reader(file_);  // a stream of the file, say
    EXPECT_FALSE(InPlaceSave::begin(file_, mapped.bytes(), ranges));
    EXPECT_FALSE(fs::exists(saveJournalPath(file_)));
  }
  EXPECT_TRUE(InPlaceSave::begin(file_, mapped.bytes(), ranges));
}

TEST_F(SaveJournal, ADamagedJournalOrOneOfAnotherFileIsAnErrorThatLeavesBoth) {
  crashMidSave(std::vector<uint8_t>(32, 0xEE));
  const fs::path journal = saveJournalPath(file_);
  std::vector<uint8_t> bytes = readBytes(journal);
  const std::vector<uint8_t> halfSaved = readBytes(file_);
  bytes[bytes.size() / 2] ^= 1;
  test::writeBytes(journal, bytes);
  EXPECT_THROW(MappedFile{file_}, InputError);
  EXPECT_EQ(readBytes(file_), halfSaved);
  EXPECT_EQ(readBytes(journal), bytes);
  // A whole journal beside a file shorter than the one it was written for: not that file.
  bytes[bytes.size() / 2] ^= 1;
  test::writeBytes(journal, bytes);
  fs::resize_file(file_, 1000);
  EXPECT_THROW(MappedFile{file_}, InputError);
  EXPECT_TRUE(fs::exists(journal));
}

TEST_F(SaveJournal, EveryCutOfAJournalIsRefused) {
  crashMidSave(std::vector<uint8_t>(32, 0xEE));
  const std::vector<uint8_t> bytes = readBytes(saveJournalPath(file_));
  const std::optional<SaveJournalContents> whole = parseSaveJournal(bytes);
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->fileSize, original_.size());
  ASSERT_EQ(whole->regions.size(), 1u);
  EXPECT_EQ(whole->regions[0].offset, 100u);
  EXPECT_TRUE(std::equal(whole->regions[0].bytes.begin(), whole->regions[0].bytes.end(),
                         original_.begin() + 100));
  for (size_t size = 0; size < bytes.size(); ++size) {
    EXPECT_FALSE(parseSaveJournal(std::span(bytes).first(size))) << size;
  }
}

}  // namespace
}  // namespace pcv::io
