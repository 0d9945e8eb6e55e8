// Saving changed records into a file itself (patchRecordFileInPlace): a layered LAZ chunk that
// comes out shorter is padded to its old size and written where it was; a COPC chunk that comes
// out longer takes the place of the chunks after it, which move to the end with a new chunk
// table and the hierarchy following them; a LAZ chunk that grows (its point order is the file's
// own) and a LAS file changed in more than half its bytes are left to the copy. Every record
// reads back as expected and no journal stays behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "common/mapped_file.hpp"
#include "common/save_journal.hpp"
#include "las/las_header.hpp"
#include "laz/laz_records.hpp"
#include "laz_record_generator.hpp"
#include "laz_test_support.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/copc_hierarchy.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/io/record_patch.hpp"
#include "pcv/session/record_sink.hpp"
#include "temp_dir.hpp"

namespace pcv {
namespace {

namespace fs = std::filesystem;
using test::fileRecords;
using test::readBytes;

constexpr uint64_t kPoints = 24000;
constexpr uint32_t kChunkPoints = 3000;

enum class Kind { Las, Laz, Copc };

/// The first chunk with at least half a node's points (a COPC root may hold few).
size_t fullChunkOf(const std::vector<laz::ChunkLocation>& chunks) {
  size_t c = 0;
  while (c + 1 < chunks.size() && chunks[c].pointCount < kChunkPoints / 2) ++c;
  return c;
}

/// The records of a file, each `length` bytes, sorted: the same points in any order.
std::vector<std::vector<uint8_t>> sortedRecords(const std::vector<uint8_t>& all, uint32_t length) {
  std::vector<std::vector<uint8_t>> records;
  for (size_t at = 0; at + length <= all.size(); at += length) {
    records.emplace_back(all.begin() + ptrdiff_t(at), all.begin() + ptrdiff_t(at + length));
  }
  std::sort(records.begin(), records.end());
  return records;
}

class InPlaceSave : public ::testing::Test {
 protected:
  /// Point format 6, classes 0-9 in turn (a pattern the class layer holds in few bytes).
  fs::path make(Kind kind) {
    std::vector<uint8_t> records = test::syntheticRecords(6, 0, kPoints, 5);
    format_ = LasWriteFormat{
        .pointFormat = 6, .recordLength = 30, .versionMinor = 4, .scale = glm::dvec3(0.01)};
    for (uint64_t i = 0; i < kPoints; ++i) {
      records[i * 30 + 16] = uint8_t(i % 10);
      records[i * 30 + 15] &= uint8_t(~4u);  // none withheld
    }
    const fs::path las = dir_.file("source.las");
    const fs::path laz = dir_.file("source.laz");
    {
      LasFileWriter writer(kind == Kind::Laz ? laz : las, format_,
                           kind == Kind::Laz ? LasCompression::Laz : LasCompression::None,
                           kChunkPoints);
      writer.write(records.data(), kPoints);
      writer.finish();
    }
    fs::path input = kind == Kind::Las ? las : kind == Kind::Laz ? laz : dir_.file("s.copc.laz");
    if (kind == Kind::Copc) {
      RecordSinkOptions sink;
      sink.copcOptions.maxPointsPerNode = kChunkPoints;
      writePointRecords([las] { return openLasRecords(las); }, input, sink);
    }
    original_ = readBytes(input);
    before_ = fileRecords(input, &format_);
    return input;
  }

  /// Changes giving every record of [first, first + count) class `cls`, or, with `varied`,
  /// every other record a class of its own (a layer that grows).
  std::vector<RecordChange> changesOver(uint64_t first, uint64_t count, int cls, bool varied) {
    std::vector<RecordChange> changes;
    for (uint64_t i = first; i < first + count; ++i) {
      if (varied && i % 2) continue;
      changes.push_back(
          {.index = i, .classification = int16_t(varied ? (i * 7919) % 200 : uint64_t(cls))});
    }
    return changes;
  }

  /// The file's records with `changes` applied.
  std::vector<uint8_t> expected(const std::vector<RecordChange>& changes) const {
    std::vector<uint8_t> records = before_;
    for (const RecordChange& change : changes) {
      applyRecordChange(records.data() + change.index * 30, 6, change);
    }
    return records;
  }

  test::TempDir dir_;
  LasWriteFormat format_;
  std::vector<uint8_t> original_, before_;
};

TEST_F(InPlaceSave, AShorterLazChunkIsPaddedWhereItWas) {
  for (const Kind kind : {Kind::Laz, Kind::Copc}) {
    SCOPED_TRACE(kind == Kind::Laz ? "LAZ" : "COPC");
    const fs::path input = make(kind);
    const std::vector<laz::ChunkLocation> was = test::lazChunks(input);
    ASSERT_GE(was.size(), 4u);
    // One class for a whole chunk: its class layer goes from some bytes to none.
    const std::vector<RecordChange> changes =
        changesOver(was[1].firstPoint, was[1].pointCount, 3, false);
    const std::optional<RecordPatchSummary> saved = patchRecordFileInPlace(input, changes);
    ASSERT_TRUE(saved);
    EXPECT_TRUE(saved->inPlace);
    EXPECT_EQ(saved->chunksReencoded, 1u);
    EXPECT_EQ(saved->chunksMoved, 0u);
    EXPECT_EQ(saved->bytesWritten, was[1].byteCount);
    EXPECT_EQ(fileRecords(input), expected(changes));
    // Only chunk 1's bytes differ; every chunk lies where it did, with its size.
    const std::vector<uint8_t> bytes = readBytes(input);
    ASSERT_EQ(bytes.size(), original_.size());
    for (size_t at = 0; at < bytes.size(); ++at) {
      if (bytes[at] != original_[at]) {
        ASSERT_TRUE(at >= was[1].offset && at < was[1].offset + was[1].byteCount) << at;
      }
    }
    const std::vector<laz::ChunkLocation> is = test::lazChunks(input);
    ASSERT_EQ(is.size(), was.size());
    for (size_t c = 0; c < is.size(); ++c) {
      EXPECT_EQ(is[c].offset, was[c].offset);
      EXPECT_EQ(is[c].byteCount, was[c].byteCount);
    }
    EXPECT_FALSE(fs::exists(io::saveJournalPath(input)));
  }
}

TEST_F(InPlaceSave, ALongerCopcChunkTakesThePlaceOfTheNextWhichMovesToTheEnd) {
  const fs::path input = make(Kind::Copc);
  const std::vector<laz::ChunkLocation> was = test::lazChunks(input);
  ASSERT_GE(was.size(), 4u);
  // A chunk of many points grows: a class of its own for every other point, where they held 0-9.
  const size_t c = fullChunkOf(was);
  ASSERT_LT(c + 1, was.size());
  const std::vector<RecordChange> changes =
      changesOver(was[c].firstPoint, was[c].pointCount, 0, true);
  const std::optional<RecordPatchSummary> saved = patchRecordFileInPlace(input, changes);
  ASSERT_TRUE(saved);
  EXPECT_GE(saved->chunksMoved, 1u);
  EXPECT_EQ(saved->chunksReencoded, 1u);
  // The same points, the changed ones changed; the moved chunk's points now come last.
  LasWriteFormat format;
  const std::vector<uint8_t> after = fileRecords(input, &format);
  EXPECT_EQ(sortedRecords(after, 30), sortedRecords(expected(changes), 30));
  ASSERT_EQ(format.evlrs.size(), format_.evlrs.size());
  EXPECT_GT(readBytes(input).size(), original_.size());
  // Chunk c grew over the chunk after it; each hierarchy node names a chunk of the new table,
  // with its size and points, once.
  const std::vector<laz::ChunkLocation> is = test::lazChunks(input);
  ASSERT_EQ(is.size(), was.size());
  EXPECT_EQ(is[c].offset, was[c].offset);
  EXPECT_GT(is[c].byteCount, was[c].byteCount);
  test::expectHierarchyNamesTheChunks(input);
  uint64_t points = 0;
  for (const laz::ChunkLocation& chunk : is) points += chunk.pointCount;
  EXPECT_EQ(points, kPoints);
  EXPECT_FALSE(fs::exists(io::saveJournalPath(input)));
}

TEST_F(InPlaceSave, ALongerLazChunkIsLeftToACopy) {
  // A LAZ file's point order is its own: no chunk moves, and the file stays as it was.
  const fs::path input = make(Kind::Laz);
  const std::vector<laz::ChunkLocation> was = test::lazChunks(input);
  const std::vector<RecordChange> changes =
      changesOver(was[0].firstPoint, was[0].pointCount, 0, true);
  EXPECT_FALSE(patchRecordFileInPlace(input, changes));
  EXPECT_EQ(readBytes(input), original_);
  EXPECT_FALSE(fs::exists(io::saveJournalPath(input)));
}

TEST_F(InPlaceSave, AFileAReaderHasOpenIsLeftToACopy) {
  // A stream of the file would read chunks moved under it: no save starts while it is mapped.
  const fs::path input = make(Kind::Copc);
  const std::vector<laz::ChunkLocation> was = test::lazChunks(input);
  const std::vector<RecordChange> changes =
      changesOver(was[1].firstPoint, was[1].pointCount, 3, false);
  {
    const io::MappedFile reader(input);
    EXPECT_FALSE(patchRecordFileInPlace(input, changes));
    EXPECT_EQ(readBytes(input), original_);
  }
  EXPECT_TRUE(patchRecordFileInPlace(input, changes));
}

TEST_F(InPlaceSave, LasRecordsAreWrittenWhereTheyAreUnlessMostChange) {
  const fs::path input = make(Kind::Las);
  const std::vector<RecordChange> few = changesOver(100, 50, 7, false);
  const std::optional<RecordPatchSummary> saved = patchRecordFileInPlace(input, few);
  ASSERT_TRUE(saved);
  EXPECT_EQ(saved->recordsRewritten, 50u);
  EXPECT_EQ(fileRecords(input), expected(few));
  EXPECT_EQ(readBytes(input).size(), original_.size());
  // Every record changed: more than half the file, so a copy writes less.
  const std::vector<uint8_t> now = readBytes(input);
  EXPECT_FALSE(patchRecordFileInPlace(input, changesOver(0, kPoints, 9, false)));
  EXPECT_EQ(readBytes(input), now);
}

TEST_F(InPlaceSave, ASaveThatFailsPutsTheFileBack) {
  // A save that moves chunks (and so appends to the file) given up after its first write.
  const fs::path input = make(Kind::Copc);
  const std::vector<laz::ChunkLocation> was = test::lazChunks(input);
  const size_t c = fullChunkOf(was);
  const std::vector<RecordChange> changes =
      changesOver(was[c].firstPoint, was[c].pointCount, 0, true);
  // Thrown from the progress call after the first write (as a cancelled save throws).
  EXPECT_THROW(patchRecordFileInPlace(input, changes, [](uint64_t) { throw Error("stop"); }),
               Error);
  EXPECT_EQ(readBytes(input), original_);
  EXPECT_FALSE(fs::exists(io::saveJournalPath(input)));
}

}  // namespace
}  // namespace pcv
