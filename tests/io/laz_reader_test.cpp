// The LAZ reader: corpus files load exactly the points and attributes of their LAS twins;
// layered files decode only what is asked; broken files (bad VLR, truncated chunks, a corrupt or
// missing chunk table, counts that disagree) fail with the file, the chunk and the byte, or load
// by the chunks alone where the format allows.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>

#include "io_test_util.hpp"
#include "laz_test_support.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_records.hpp"

namespace pcv::test {
namespace {

void expectSameCloud(const PointCloud& a, const PointCloud& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a.origin, b.origin);
  EXPECT_EQ(a.hasColor, b.hasColor);
  EXPECT_EQ(std::memcmp(a.points.data(), b.points.data(), a.size() * sizeof(Point)), 0);
  ASSERT_EQ(a.attributes.size(), b.attributes.size());
  for (size_t i = 0; i < a.attributes.size(); ++i) {
    EXPECT_EQ(a.attributes[i].name, b.attributes[i].name);
    EXPECT_TRUE(std::equal(a.attributes[i].values.begin(), a.attributes[i].values.end(),
                           b.attributes[i].values.begin()))
        << a.attributes[i].name;
  }
}

/// The chunk table offset stored at the start of the point data.
uint64_t pointsOffsetOf(const std::vector<uint8_t>& file) {
  uint32_t offset;
  std::memcpy(&offset, file.data() + 96, 4);
  return offset;
}

TEST(LazReader, LoadsEveryCorpusLazLikeItsLasTwin) {
  PCV_REQUIRE_LAZ_CORPUS();
  int pairs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(lazCorpusDir())) {
    std::filesystem::path twin = entry.path();
    if (twin.extension() != ".laz" || !std::filesystem::exists(twin.replace_extension(".las"))) {
      continue;
    }
    SCOPED_TRACE(entry.path().filename().string());
    FileSummary lazSummary, lasSummary;
    const PointCloud laz = readPointCloud(entry.path(), nullptr, &lazSummary);
    const PointCloud las = readPointCloud(twin, nullptr, &lasSummary);
    expectSameCloud(laz, las);
    EXPECT_EQ(lazSummary.worldBounds.min, lasSummary.worldBounds.min);
    EXPECT_EQ(lazSummary.worldBounds.max, lasSummary.worldBounds.max);
    EXPECT_EQ(lazSummary.details, lasSummary.details);
    ++pairs;
  }
  EXPECT_GE(pairs, 8);
}

TEST(LazReader, LoadsEveryDecodableCorpusFile) {
  PCV_REQUIRE_LAZ_CORPUS();
  for (const auto& [name, entry] : readOracleTable(lazCorpusDir() / "MANIFEST.md")) {
    if (entry.status != "ok" || name.find(".laz") == std::string::npos) continue;
    SCOPED_TRACE(name);
    FileSummary summary;
    readPointCloud(lazCorpusDir() / name, nullptr, &summary);
    EXPECT_EQ(summary.pointCount + summary.droppedPoints, entry.pointCount);
    EXPECT_TRUE(summary.format == "LAZ" || summary.format == "COPC") << summary.format;
  }
}

TEST(LazReader, DecodesOnlyTheAskedLayers) {
  PCV_REQUIRE_LAZ_CORPUS();
  for (const char* name : {"las_with_several_extra_byte_bloc.laz", "simple.laz"}) {
    SCOPED_TRACE(name);
    const std::filesystem::path path = lazCorpusDir() / name;
    const PointCloud full = readPointCloud(path);
    const ReadOptions options{.attributes = {"intensity"}, .colors = false};
    const PointCloud some = readPointCloud(path, options, nullptr, nullptr);
    ASSERT_EQ(some.size(), full.size());
    EXPECT_FALSE(some.hasColor);
    ASSERT_EQ(some.attributes.size(), 1u);
    EXPECT_EQ(some.attributes[0].name, "intensity");
    const ScalarAttribute* intensity = full.findAttribute("intensity");
    ASSERT_NE(intensity, nullptr);
    EXPECT_TRUE(std::equal(some.attributes[0].values.begin(), some.attributes[0].values.end(),
                           intensity->values.begin()));
    for (uint64_t i = 0; i < full.size(); ++i) {
      ASSERT_EQ(some.points[i].x, full.points[i].x);
      ASSERT_EQ(some.points[i].y, full.points[i].y);
      ASSERT_EQ(some.points[i].z, full.points[i].z);
    }
  }
}

TEST(LazReader, InfoDescribesCompressorChunksAndItems) {
  PCV_REQUIRE_LAZ_CORPUS();
  const FileSummary summary = summarizePointCloud(lazCorpusDir() / "autzen_trim.laz");
  std::string notes;
  for (const std::string& line : summary.notes) notes += line + "\n";
  EXPECT_NE(notes.find("compressor 2 (pointwise chunked)"), std::string::npos) << notes;
  EXPECT_NE(notes.find("50000 points each, 3 chunks"), std::string::npos) << notes;
  EXPECT_NE(notes.find("POINT10 v2, GPSTIME11 v2, RGB12 v2"), std::string::npos) << notes;
}

TEST(LazReader, HeaderQuestionsDecodeNoPoints) {
  PCV_REQUIRE_LAZ_CORPUS();
  TempDir dir;
  std::vector<uint8_t> bytes = readBytes(lazCorpusDir() / "split-1.laz");
  uint64_t table;
  const uint64_t points = pointsOffsetOf(bytes);
  std::memcpy(&table, bytes.data() + points, 8);
  // Chunks of zeros: nothing a decoder would get through, but the header and table are intact.
  std::fill(bytes.begin() + int64_t(points) + 8, bytes.begin() + int64_t(table), uint8_t(0));
  writeBytes(dir.file("z.laz"), bytes);
  const FileSummary summary = describePointFile(dir.file("z.laz"));
  EXPECT_EQ(summary.pointCount, 122893u);
  EXPECT_TRUE(summary.fromHeader);
  std::string notes;
  for (const std::string& line : summary.notes) notes += line + "\n";
  EXPECT_NE(notes.find("3 chunks"), std::string::npos) << notes;
  EXPECT_NE(inputErrorOf(dir.file("z.laz")).find("chunk 0 of 3"), std::string::npos);
}

TEST(LazReader, RejectsTheBrokenCorpusFiles) {
  PCV_REQUIRE_LAZ_CORPUS();
  const std::pair<const char*, const char*> cases[] = {
      {"broken_compressor.laz", "compressor 16"},
      {"broken_type.laz", "type 22"},
      {"lone-star-invalid-tile_2-2-2-2_4bytes.laz", "LAS public header"}};
  for (const auto& [name, expected] : cases) {
    SCOPED_TRACE(name);
    const std::string message = inputErrorOf(lazCorpusDir() / name);
    EXPECT_NE(message.find(name), std::string::npos) << message;
    EXPECT_NE(message.find("byte "), std::string::npos) << message;
    EXPECT_NE(message.find(expected), std::string::npos) << message;
  }
}

TEST(LazReader, RejectsTruncatedChunk) {
  PCV_REQUIRE_LAZ_CORPUS();
  TempDir dir;
  // Pointwise chunks (point formats 0-3) cannot be found without the table.
  for (const char* name : {"split-1.laz", "autzen_trim.laz"}) {
    SCOPED_TRACE(name);
    std::vector<uint8_t> bytes = readBytes(lazCorpusDir() / name);
    bytes.resize(bytes.size() * 3 / 4);  // inside a chunk, and the chunk table is gone
    writeBytes(dir.file(name), bytes);
    const std::string message = inputErrorOf(dir.file(name));
    EXPECT_NE(message.find("chunk"), std::string::npos) << message;
    EXPECT_NE(message.find("byte "), std::string::npos) << message;
  }
}

TEST(LazReader, ATruncatedLayeredFileKeepsItsWholeChunksUnlessStrict) {
  PCV_REQUIRE_LAZ_CORPUS();
  TempDir dir;
  const char* name = "lone-star.copc.laz";
  const FileSummary whole = summarizePointCloud(lazCorpusDir() / name);
  std::vector<uint8_t> bytes = readBytes(lazCorpusDir() / name);
  bytes.resize(bytes.size() * 3 / 4);  // inside a chunk, and the chunk table is gone
  writeBytes(dir.file(name), bytes);
  // Layered chunks state their sizes: those before the cut are found and read.
  FileSummary cut;
  const PointCloud cloud = readPointCloud(dir.file(name), ReadOptions{}, nullptr, &cut);
  EXPECT_GT(cloud.size(), 0u);
  EXPECT_LT(cloud.size(), whole.pointCount);
  EXPECT_EQ(cut.missingPoints, whole.pointCount - cloud.size());
  EXPECT_FALSE(cut.warnings.empty());
  ReadOptions strict;
  strict.strict = true;
  try {
    readPointCloud(dir.file(name), strict, nullptr, nullptr);
    ADD_FAILURE() << "a truncated file read under strict";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("byte "), std::string::npos) << error.what();
  }
}

TEST(LazReader, DecodesChunksInSequenceWithoutChunkTable) {
  PCV_REQUIRE_LAZ_CORPUS();
  TempDir dir;
  for (const char* name : {"split-1.laz", "ellipsoid-1.4.laz", "autzen_trim.laz"}) {
    SCOPED_TRACE(name);
    std::vector<uint8_t> bytes = readBytes(lazCorpusDir() / name);
    // A table offset pointing at itself: the writer never came back to fill it in.
    const uint64_t points = pointsOffsetOf(bytes);
    std::memcpy(bytes.data() + points, &points, 8);
    writeBytes(dir.file(name), bytes);
    FileSummary summary;
    const PointCloud cloud = readPointCloud(dir.file(name), nullptr, &summary);
    expectSameCloud(cloud, readPointCloud(lazCorpusDir() / name));
    std::string notes;
    for (const std::string& line : summary.notes) notes += line + "\n";
    EXPECT_NE(notes.find("chunk table not used"), std::string::npos) << notes;
  }
}

TEST(LazReader, FindsTheChunkTableOfWritersThatCannotSeekBack) {
  PCV_REQUIRE_LAZ_CORPUS();
  TempDir dir;
  std::vector<uint8_t> bytes = readBytes(lazCorpusDir() / "split-1.laz");
  // Such writers leave -1 where the offset goes and append it after the table.
  const uint64_t points = pointsOffsetOf(bytes);
  uint64_t table;
  std::memcpy(&table, bytes.data() + points, 8);
  const int64_t unknown = -1;
  std::memcpy(bytes.data() + points, &unknown, 8);
  bytes.insert(bytes.end(), reinterpret_cast<const uint8_t*>(&table),
               reinterpret_cast<const uint8_t*>(&table) + 8);
  writeBytes(dir.file("s.laz"), bytes);
  FileSummary summary;
  const PointCloud cloud = readPointCloud(dir.file("s.laz"), nullptr, &summary);
  expectSameCloud(cloud, readPointCloud(lazCorpusDir() / "split-1.laz"));
  for (const std::string& line : summary.notes) {
    EXPECT_EQ(line.find("not used"), std::string::npos) << line;
  }
}

TEST(LazReader, DecodesChunksInSequenceWhenTheChunkTableIsCorrupt) {
  PCV_REQUIRE_LAZ_CORPUS();
  TempDir dir;
  std::vector<uint8_t> bytes = readBytes(lazCorpusDir() / "split-1.laz");
  uint64_t table;
  std::memcpy(&table, bytes.data() + pointsOffsetOf(bytes), 8);
  bytes[table] = 7;  // table version 7
  writeBytes(dir.file("t.laz"), bytes);
  FileSummary summary;
  const PointCloud cloud = readPointCloud(dir.file("t.laz"), nullptr, &summary);
  expectSameCloud(cloud, readPointCloud(lazCorpusDir() / "split-1.laz"));
  ASSERT_FALSE(summary.notes.empty());
  EXPECT_NE(summary.notes.back().find("version 7"), std::string::npos) << summary.notes.back();
}

TEST(LazReader, RejectsPointCountsThatDisagree) {
  PCV_REQUIRE_LAZ_CORPUS();
  TempDir dir;
  // One point fewer leaves bytes in the last chunk; more points than the table's chunks hold
  // contradict it; one more makes the last chunk run out of bytes.
  const std::pair<int, const char*> cases[] = {
      {-1, "point counts disagree"}, {+60000, "point counts disagree"}, {+1, "chunk 2 of 3"}};
  for (const auto& [change, expected] : cases) {
    std::vector<uint8_t> bytes = readBytes(lazCorpusDir() / "split-1.laz");
    uint32_t count;
    std::memcpy(&count, bytes.data() + 107, 4);
    count += uint32_t(change);
    std::memcpy(bytes.data() + 107, &count, 4);
    writeBytes(dir.file("c.laz"), bytes);
    const std::string message = inputErrorOf(dir.file("c.laz"));
    EXPECT_NE(message.find(expected), std::string::npos) << message;
    EXPECT_NE(message.find("byte "), std::string::npos) << message;
  }
}

TEST(LazReader, RejectsBadLaszipVlr) {
  PCV_REQUIRE_LAZ_CORPUS();
  TempDir dir;
  const std::vector<uint8_t> original = readBytes(lazCorpusDir() / "simple.laz");
  // The LASzip VLR's payload: find the user id, the payload follows 54 - 2 bytes later.
  const std::string id = "laszip encoded";
  const auto at = std::search(original.begin(), original.end(), id.begin(), id.end());
  ASSERT_NE(at, original.end());
  const size_t payload = size_t(at - original.begin()) + 52;
  struct Patch {
    size_t offset;
    uint8_t value;
    const char* expected;
  };
  const Patch cases[] = {{payload, 16, "compressor 16"},
                         {payload + 2, 1, "coder 1"},
                         {payload + 34 + 2, 21, "21 bytes"},  // POINT10 item of 21 bytes
                         {payload + 34 + 4, 3, "version 3"},  // POINT10 version 3
                         {payload + 34 + 6, 1, "type 1"}};    // GPSTIME11 becomes type 1
  for (const Patch& patch : cases) {
    std::vector<uint8_t> bytes = original;
    bytes[patch.offset] = patch.value;
    writeBytes(dir.file("v.laz"), bytes);
    const std::string message = inputErrorOf(dir.file("v.laz"));
    EXPECT_NE(message.find("byte " + std::to_string(patch.offset)), std::string::npos) << message;
    EXPECT_NE(message.find(patch.expected), std::string::npos) << message;
  }
}

/// A LAZ copy of a LAS file, through pcv's writer.
void writeLazCopy(const std::filesystem::path& las, const std::filesystem::path& laz,
                  uint32_t chunkPoints) {
  auto records = openLasRecords(las);
  LasFileWriter writer(laz, records->format(), LasCompression::Laz, chunkPoints);
  const uint8_t* data = nullptr;
  while (const uint64_t count = records->next(1 << 20, data)) writer.write(data, count);
  writer.finish();
}

TEST(LazReader, ScalesColorsByTheWholeFilesMaximum) {
  // 16-bit colour fields holding 8-bit values are shown as they are, 16-bit ones scaled down:
  // by the maximum of the whole file, also when only its last chunks reach above 255.
  TempDir dir;
  for (uint64_t wideFrom : {uint64_t(90000), uint64_t(~0ull)}) {
    std::vector<SyntheticPoint> points(100000);
    for (uint64_t i = 0; i < points.size(); ++i) {
      points[i] = {.x = double(i % 300), .y = double(i / 300), .z = double(i % 7)};
      const uint16_t v = uint16_t(i % 256);
      points[i].red = points[i].green = points[i].blue = i >= wideFrom ? uint16_t(v * 200) : v;
    }
    writeBytes(dir.file("c.las"), makeLas(points));
    writeLazCopy(dir.file("c.las"), dir.file("c.laz"), 5000);
    expectSameCloud(readPointCloud(dir.file("c.laz")), readPointCloud(dir.file("c.las")));
  }
}

TEST(LazReader, CorruptChunkBytesNeverCrashOrHang) {
  PCV_REQUIRE_LAZ_CORPUS();
  TempDir dir;
  std::mt19937 random(3);
  for (const char* name : {"simple.laz", "1.2-with-color.copc.laz", "fullwave.laz"}) {
    const std::vector<uint8_t> original = readBytes(lazCorpusDir() / name);
    const uint64_t points = pointsOffsetOf(original);
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<uint8_t> bytes = original;
      for (int k = 0; k < 8; ++k) {
        bytes[points + random() % (bytes.size() - points)] = uint8_t(random());
      }
      writeBytes(dir.file(name), bytes);
      try {
        readPointCloud(dir.file(name));
      } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find(name), std::string::npos) << error.what();
      }
    }
  }
}

}  // namespace
}  // namespace pcv::test
