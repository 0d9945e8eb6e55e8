// Edits saved into LAS, LAZ (point formats 1, 3, 6, 7, 8) and COPC (6, 7, 8) files: every field
// of every record read back equals the expected one (the class and withheld flag changed only
// where selected), the LAZ and COPC chunks without a change are byte-identical, the chunk table
// and the COPC hierarchy point at the chunks where they now lie, EVLRs survive, and an
// interrupted save leaves the original as it was and no file behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "common/mapped_file.hpp"
#include "las/las_header.hpp"
#include "laz/laz_records.hpp"
#include "laz_record_generator.hpp"
#include "laz_test_support.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/copc_hierarchy.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/session/edit_save.hpp"
#include "pcv/session/point_edits.hpp"
#include "pcv/session/record_sink.hpp"
#include "temp_dir.hpp"

namespace pcv {
namespace {

namespace fs = std::filesystem;
using test::fileRecords;
using test::readBytes;

constexpr uint64_t kPoints = 30000;
constexpr uint32_t kChunkPoints = 4000;
constexpr double kScale = 0.01;

/// The bytes of each chunk of a LAZ file, by the chunk table; and each chunk's point range.
struct Chunks {
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<uint64_t> offsets, firstPoints, pointCounts;
};
Chunks fileChunks(const fs::path& path) {
  const io::MappedFile file(path);
  Chunks chunks;
  for (const laz::ChunkLocation& c : test::lazChunks(path)) {
    chunks.bytes.emplace_back(file.data() + c.offset, file.data() + c.offset + c.byteCount);
    chunks.offsets.push_back(c.offset);
    chunks.firstPoints.push_back(c.firstPoint);
    chunks.pointCounts.push_back(c.pointCount);
  }
  return chunks;
}

enum class Kind { Las, Laz, Copc };

struct Case {
  Kind kind;
  int pointFormat;
};

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  const char* kinds[] = {"Las", "Laz", "Copc"};
  return std::string(kinds[int(info.param.kind)]) + "Format" +
         std::to_string(info.param.pointFormat);
}

/// The class and withheld flag of a record, read as the LAS specification lays them out.
uint32_t classOf(const uint8_t* r, int format) {
  return format >= 6 ? r[16] : r[15] & 0x1F;
}
bool withheldOf(const uint8_t* r, int format) {
  return format >= 6 ? (r[15] >> 2) & 1 : (r[15] >> 7) & 1;
}
void setClass(uint8_t* r, int format, uint32_t cls) {
  if (format >= 6)
    r[16] = uint8_t(cls);
  else
    r[15] = uint8_t((r[15] & 0xE0) | cls);
}
void setWithheld(uint8_t* r, int format, bool on) {
  const uint8_t bit = format >= 6 ? 4 : 0x80;
  r[15] = on ? uint8_t(r[15] | bit) : uint8_t(r[15] & ~bit);
}
double worldX(const uint8_t* r, const LasWriteFormat& f) {
  int32_t x = 0;
  std::memcpy(&x, r, 4);
  return x * f.scale.x + f.offset.x;
}

class PointEditsRoundTrip : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    const Case c = GetParam();
    std::vector<uint8_t> records =
        test::syntheticRecords(c.pointFormat, 0, kPoints, 11 + c.pointFormat);
    LasWriteFormat format{.pointFormat = c.pointFormat,
                          .recordLength = io::kLasFormatBytes[c.pointFormat],
                          .versionMinor = std::max(2, minimumLasMinorVersion(c.pointFormat)),
                          .scale = glm::dvec3(kScale)};
    // LAS 1.4 files carry an EVLR after the points (after the chunk table in LAZ): it must
    // survive a save that moves it.
    if (format.versionMinor == 4) {
      format.evlrs.push_back(
          {.userId = "pcv test", .recordId = 7, .description = "kept", .payload = {1, 2, 3, 4, 5}});
    }
    // Classes 0-9 spread over the records, none withheld: the edits below change some.
    const uint32_t length = format.recordLength;
    for (uint64_t i = 0; i < kPoints; ++i) {
      setClass(records.data() + i * length, c.pointFormat, uint32_t(i % 10));
      setWithheld(records.data() + i * length, c.pointFormat, false);
    }
    const fs::path las = dir_.file("source.las");
    {
      LasFileWriter writer(c.kind == Kind::Laz ? dir_.file("source.laz") : las, format,
                           c.kind == Kind::Laz ? LasCompression::Laz : LasCompression::None,
                           kChunkPoints);
      writer.write(records.data(), kPoints);
      writer.finish();
    }
    input_ = c.kind == Kind::Las   ? las
             : c.kind == Kind::Laz ? dir_.file("source.laz")
                                   : dir_.file("source.copc.laz");
    if (c.kind == Kind::Copc) {
      RecordSinkOptions sink;
      sink.copcOptions.maxPointsPerNode = kChunkPoints;
      writePointRecords([las] { return openLasRecords(las); }, input_, sink);
    }
    original_ = readBytes(input_);
    before_ = fileRecords(input_, &format_);
    ASSERT_EQ(before_.size(), kPoints * format_.recordLength);
    // The median x: the box edit selects about half the points.
    std::vector<double> xs;
    for (uint64_t i = 0; i < kPoints; ++i) xs.push_back(worldX(record(before_, i), format_));
    std::nth_element(xs.begin(), xs.begin() + xs.size() / 2, xs.end());
    medianX_ = xs[xs.size() / 2];
  }

  const uint8_t* record(const std::vector<uint8_t>& all, uint64_t i) const {
    return all.data() + i * format_.recordLength;
  }

  fs::path output(const char* name) const {
    return dir_.file(std::string(name) + (GetParam().kind == Kind::Las   ? ".las"
                                          : GetParam().kind == Kind::Laz ? ".laz"
                                                                         : ".copc.laz"));
  }

  /// Points with x <= the median.
  PointSelection westHalf() const {
    PointSelection s;
    s.clip.box = ClipBox{.min = glm::dvec3(-1e9), .max = {medianX_, 1e9, 1e9}};
    return s;
  }

  /// A box around the position of `target` (a record of the input) alone.
  PointSelection around(const uint8_t* target) const {
    glm::dvec3 p;
    for (int a = 0; a < 3; ++a) {
      int32_t v = 0;
      std::memcpy(&v, target + 4 * a, 4);
      p[a] = v * format_.scale[a] + format_.offset[a];
    }
    PointSelection one;
    one.clip.box = ClipBox{.min = p - 1e-6, .max = p + 1e-6};
    return one;
  }

  /// Saves `edits` of the input to `out` and checks every record read back against `expected`,
  /// and every LAZ chunk without a change against the input's.
  FileEditResult saveAndCheck(const std::vector<PointEdit>& edits, const fs::path& out,
                              const std::vector<uint8_t>& expected) {
    const FileEditResult result = evaluateEdits(input_, edits);
    const RecordPatchSummary saved =
        saveFileChanges(input_, out, result.changes, {.inputs = {input_}});
    EXPECT_EQ(readBytes(input_), original_) << "the input was touched";
    LasWriteFormat format;
    const std::vector<uint8_t> after = fileRecords(out, &format);
    EXPECT_EQ(format.evlrs.size(), format_.evlrs.size());
    for (size_t e = 0; e < std::min(format.evlrs.size(), format_.evlrs.size()); ++e) {
      EXPECT_EQ(format.evlrs[e].payload, format_.evlrs[e].payload);
    }
    EXPECT_EQ(after.size(), expected.size());
    uint64_t differing = 0;
    for (uint64_t i = 0; i < kPoints && after.size() == expected.size(); ++i) {
      if (std::memcmp(record(after, i), record(expected, i), format_.recordLength) != 0) {
        if (++differing < 5) ADD_FAILURE() << "record " << i << " is not the expected one";
      }
    }
    EXPECT_EQ(differing, 0u);
    uint64_t changed = 0;
    for (uint64_t i = 0; i < kPoints; ++i) {
      changed += std::memcmp(record(before_, i), record(expected, i), format_.recordLength) != 0;
    }
    EXPECT_EQ(result.changed, changed);
    if (GetParam().kind == Kind::Las) {
      EXPECT_EQ(saved.recordsRewritten, changed);
      // Only the class and flag bytes of the changed records differ from the original file.
      const std::vector<uint8_t> bytes = readBytes(out);
      EXPECT_EQ(bytes.size(), original_.size());
      const uint64_t pointsOffset =
          io::parseLasHeader(io::MappedFile(input_).bytes(), {.file = input_.string()})
              .pointsOffset;
      for (size_t at = 0; at < std::min(bytes.size(), original_.size()); ++at) {
        if (bytes[at] == original_[at]) continue;
        const uint64_t inRecord = (at - pointsOffset) % format_.recordLength;
        EXPECT_TRUE(at >= pointsOffset && (inRecord == 15 || inRecord == 16)) << "byte " << at;
      }
    } else {
      checkChunks(out, result.changes, saved);
    }
    return result;
  }

  void checkChunks(const fs::path& out, const FileChanges& changes,
                   const RecordPatchSummary& saved) {
    const Chunks was = fileChunks(input_);
    const Chunks is = fileChunks(out);
    ASSERT_EQ(was.bytes.size(), is.bytes.size());
    uint64_t copied = 0;
    for (size_t c = 0; c < was.bytes.size(); ++c) {
      EXPECT_EQ(was.firstPoints[c], is.firstPoints[c]);
      EXPECT_EQ(was.pointCounts[c], is.pointCounts[c]);
      if (changes.in(was.firstPoints[c], was.pointCounts[c]).empty()) {
        EXPECT_EQ(was.bytes[c], is.bytes[c]) << "chunk " << c << " holds no change";
        ++copied;
      }
    }
    EXPECT_EQ(saved.chunksCopied, copied);
    EXPECT_EQ(saved.chunksReencoded, was.bytes.size() - copied);
    if (GetParam().kind != Kind::Copc) return;
    // Every node of the hierarchy names a chunk of the table, with its size.
    std::map<uint64_t, size_t> chunkAt;
    for (size_t c = 0; c < is.offsets.size(); ++c) chunkAt[is.offsets[c]] = c;
    const CopcHierarchy hierarchy = readCopcHierarchy(out);
    const CopcHierarchy before = readCopcHierarchy(input_);
    ASSERT_EQ(hierarchy.nodes.size(), before.nodes.size());
    uint64_t points = 0;
    for (const CopcNode& node : hierarchy.nodes) {
      if (node.pointCount == 0) continue;
      ASSERT_TRUE(chunkAt.count(node.chunkOffset)) << "a node points at no chunk";
      const size_t c = chunkAt[node.chunkOffset];
      EXPECT_EQ(node.chunkBytes, is.bytes[c].size());
      EXPECT_EQ(node.pointCount, is.pointCounts[c]);
      points += node.pointCount;
    }
    EXPECT_EQ(points, kPoints);
  }

  test::TempDir dir_;
  fs::path input_;
  std::vector<uint8_t> original_;
  std::vector<uint8_t> before_;
  LasWriteFormat format_;
  double medianX_ = 0.0;
};

TEST_P(PointEditsRoundTrip, SetClassChangesOnlyTheSelectedPoints) {
  const int f = GetParam().pointFormat;
  const uint32_t newClass = f >= 6 ? 200 : 17;
  std::vector<uint8_t> expected = before_;
  for (uint64_t i = 0; i < kPoints; ++i) {
    uint8_t* r = expected.data() + i * format_.recordLength;
    if (worldX(r, format_) <= medianX_) setClass(r, f, newClass);
  }
  const FileEditResult result = saveAndCheck(
      {{.selection = westHalf(), .action = EditAction::SetClass, .classification = newClass}},
      output("classified"), expected);
  ASSERT_EQ(result.selected.size(), 1u);
  EXPECT_GT(result.selected[0], kPoints / 3);
  EXPECT_LT(result.selected[0], kPoints);
}

TEST_P(PointEditsRoundTrip, OneChangedPointReencodesOneChunk) {
  // A box around one record's position: only the records there change (a LAZ file re-encodes
  // their chunks alone), with the class flags kept and a class above 31 where it fits.
  const int f = GetParam().pointFormat;
  const uint8_t* target = record(before_, kPoints / 2 + 17);
  const PointSelection one = around(target);
  std::vector<uint8_t> expected = before_;
  for (uint64_t i = 0; i < kPoints; ++i) {
    uint8_t* r = expected.data() + i * format_.recordLength;
    if (std::memcmp(r, target, 12) == 0) setClass(r, f, 31);
  }
  const FileEditResult result =
      saveAndCheck({{.selection = one, .action = EditAction::SetClass, .classification = 31}},
                   output("one"), expected);
  EXPECT_GE(result.selected[0], 1u);
  // Of a COPC file only the nodes whose cubes meet the box are read.
  EXPECT_EQ(result.points, kPoints);
  if (GetParam().kind == Kind::Copc) {
    EXPECT_LT(result.pointsRead, kPoints);
  } else {
    EXPECT_EQ(result.pointsRead, kPoints);
  }
  if (GetParam().kind != Kind::Las) {
    const RecordPatchSummary saved =
        saveFileChanges(input_, output("again"), result.changes, {.inputs = {input_}});
    EXPECT_GE(saved.chunksReencoded, 1u);
    EXPECT_GT(saved.chunksCopied, 0u);
  }
}

TEST_P(PointEditsRoundTrip, ChangedChunksApartAreSavedGroupByGroup) {
  // One worker re-encodes four changed chunks at a time: records of five chunks with unchanged
  // ones between them change, so the save writes two groups and copies the runs between them.
  const WorkerLimit oneWorker(1);
  const int f = GetParam().pointFormat;
  std::vector<PointEdit> edits;
  std::vector<uint8_t> expected = before_;
  for (const uint64_t chunk : {0, 2, 4, 5, 7}) {
    const uint8_t* target = record(before_, chunk * kChunkPoints + 17);
    edits.push_back(
        {.selection = around(target), .action = EditAction::SetClass, .classification = 30});
    for (uint64_t i = 0; i < kPoints; ++i) {
      uint8_t* r = expected.data() + i * format_.recordLength;
      if (std::memcmp(r, target, 12) == 0) setClass(r, f, 30);
    }
  }
  saveAndCheck(edits, output("groups"), expected);
}

TEST_P(PointEditsRoundTrip, EditsSeeWhatTheEditsBeforeThemDid) {
  // Class 3 in the west half becomes 4; then every class 4 is deleted (the new ones too); then
  // the east half is restored: only the west half's class 4 stays withheld.
  const int f = GetParam().pointFormat;
  PointSelection classFour;
  classFour.filter.classes = ClassSet::none();
  classFour.filter.classes.set(4, true);
  PointSelection eastHalf;
  eastHalf.clip.box = ClipBox{.min = {medianX_, -1e9, -1e9}, .max = glm::dvec3(1e9)};
  eastHalf.clip.keep = ClipKeep::Inside;
  std::vector<uint8_t> expected = before_;
  for (uint64_t i = 0; i < kPoints; ++i) {
    uint8_t* r = expected.data() + i * format_.recordLength;
    const double x = worldX(r, format_);
    if (x <= medianX_ && classOf(r, f) == 3) setClass(r, f, 4);
    if (classOf(r, f) == 4) setWithheld(r, f, true);
    if (x >= medianX_) setWithheld(r, f, false);
  }
  PointSelection west = westHalf();
  west.filter.classes = ClassSet::none();
  west.filter.classes.set(3, true);
  saveAndCheck({{.selection = west, .action = EditAction::SetClass, .classification = 4},
                {.selection = classFour, .action = EditAction::Delete},
                {.selection = eastHalf, .action = EditAction::Restore}},
               output("chained"), expected);
}

TEST_P(PointEditsRoundTrip, DeleteThenRestoreGivesTheRecordsBack) {
  const fs::path deleted = output("deleted");
  const FileEditResult removed = evaluateEdits(
      input_, std::vector<PointEdit>{{.selection = westHalf(), .action = EditAction::Delete}});
  saveFileChanges(input_, deleted, removed.changes, {.inputs = {input_}});
  const std::vector<uint8_t> withheld = fileRecords(deleted);
  uint64_t count = 0;
  for (uint64_t i = 0; i < kPoints; ++i)
    count += withheldOf(record(withheld, i), GetParam().pointFormat);
  EXPECT_EQ(count, removed.changed);
  EXPECT_GT(count, 0u);
  const FileEditResult restored =
      evaluateEdits(deleted, std::vector<PointEdit>{{.action = EditAction::Restore}});
  EXPECT_EQ(restored.changed, count);
  const fs::path back = output("restored");
  saveFileChanges(deleted, back, restored.changes, {.inputs = {deleted}});
  EXPECT_EQ(fileRecords(back), before_);
}

TEST_P(PointEditsRoundTrip, SavingInPlaceReplacesTheFile) {
  std::vector<uint8_t> expected = before_;
  for (uint64_t i = 0; i < kPoints; ++i) {
    setWithheld(expected.data() + i * format_.recordLength, GetParam().pointFormat, true);
  }
  const FileEditResult result =
      evaluateEdits(input_, std::vector<PointEdit>{{.action = EditAction::Delete}});
  EXPECT_EQ(result.changed, kPoints);
  saveFileChanges(input_, input_, result.changes, {.existing = ExistingOutput::Replace});
  EXPECT_EQ(fileRecords(input_), expected);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_.file("")), fs::directory_iterator()),
            GetParam().kind == Kind::Copc ? 2 : 1);  // COPC: beside the LAS it was made of
}

TEST_P(PointEditsRoundTrip, InterruptedSaveLeavesTheOriginalAndNoFile) {
  const FileEditResult result = evaluateEdits(
      input_, std::vector<PointEdit>{{.action = EditAction::SetClass, .classification = 1}});
  ASSERT_GT(result.changed, 0u);
  const std::atomic<bool> cancel{true};
  const auto filesBefore =
      std::distance(fs::directory_iterator(dir_.file("")), fs::directory_iterator());
  EXPECT_THROW(saveFileChanges(input_, input_, result.changes,
                               {.existing = ExistingOutput::Replace}, &cancel),
               ConversionCancelled);
  EXPECT_THROW(
      evaluateEdits(input_, std::vector<PointEdit>{{.action = EditAction::Delete}}, &cancel),
      ConversionCancelled);
  EXPECT_EQ(readBytes(input_), original_);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_.file("")), fs::directory_iterator()),
            filesBefore);
}

TEST_P(PointEditsRoundTrip, ClassTheFormatCannotHoldIsRefused) {
  const int f = GetParam().pointFormat;
  if (f >= 6) {
    EXPECT_THROW(validateEdit({.action = EditAction::SetClass, .classification = 256}), InputError);
    return;
  }
  EXPECT_THROW(evaluateEdits(input_, std::vector<PointEdit>{{.action = EditAction::SetClass,
                                                             .classification = 32}}),
               InputError);
}

INSTANTIATE_TEST_SUITE_P(Formats, PointEditsRoundTrip,
                         ::testing::Values(Case{Kind::Las, 1}, Case{Kind::Las, 3},
                                           Case{Kind::Las, 6}, Case{Kind::Las, 7},
                                           Case{Kind::Las, 8}, Case{Kind::Laz, 1},
                                           Case{Kind::Laz, 3}, Case{Kind::Laz, 6},
                                           Case{Kind::Laz, 7}, Case{Kind::Laz, 8},
                                           Case{Kind::Copc, 6}, Case{Kind::Copc, 7},
                                           Case{Kind::Copc, 8}),
                         caseName);

TEST(FileChanges, MergeKeepsOrderAndLetsNewerFieldsWin) {
  FileChanges changes;
  const std::vector<RecordChange> first = {{.index = 2, .classification = 5},
                                           {.index = 9, .withheld = 1}};
  const std::vector<RecordChange> second = {{.index = 1, .withheld = 0},
                                            {.index = 9, .classification = 7},
                                            {.index = 12, .classification = 0}};
  changes.merge(first);
  changes.merge(second);
  const std::vector<RecordChange> expected = {{.index = 1, .withheld = 0},
                                              {.index = 2, .classification = 5},
                                              {.index = 9, .classification = 7, .withheld = 1},
                                              {.index = 12, .classification = 0}};
  EXPECT_EQ(std::vector<RecordChange>(changes.all().begin(), changes.all().end()), expected);
  EXPECT_EQ(changes.in(2, 8).size(), 2u);  // records 2-9
  EXPECT_EQ(changes.in(3, 6).size(), 0u);
  EXPECT_EQ(changes.in(0, 100).size(), 4u);
}

}  // namespace
}  // namespace pcv
