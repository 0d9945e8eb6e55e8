// LAZ files whose chunk table other writers got wrong, made here from pcv's own LAZ: a table of
// variable-size chunks that leaves points out (LASzip reads on to the header's count), and a
// streaming writer's file whose last 8 bytes do not point at the table (LASzip reads the chunks
// one after the other). Both load every point with a warning; damaged copies still fail cleanly.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>

#include "io_test_util.hpp"
#include "laz/chunk_table.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_records.hpp"

namespace pcv::test {
namespace {

std::vector<uint8_t> readFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::vector<SyntheticPoint> scannedPoints(size_t count) {
  std::vector<SyntheticPoint> points(count);
  for (size_t i = 0; i < count; ++i) {
    points[i] = {.x = double(i % 97) * 0.25, .y = double(i / 97) * 0.5, .z = double(i % 13)};
    points[i].red = uint16_t(i % 251), points[i].green = uint16_t(i % 7), points[i].blue = 9;
    points[i].classification = uint8_t(2 + i % 3);
  }
  return points;
}

/// A LAZ copy of `las` whose chunks hold `chunkPoints` points each, or, when `chunkPoints` is
/// kLasVariableChunks, the counts in `variableChunks`.
void writeLaz(const std::filesystem::path& las, const std::filesystem::path& laz,
              uint32_t chunkPoints, const std::vector<uint64_t>& variableChunks = {}) {
  auto records = openLasRecords(las);
  const uint64_t length = records->format().recordLength;
  std::vector<uint8_t> all(records->pointCount() * length);
  const uint64_t read = records->read(records->pointCount(), all.data());
  ASSERT_EQ(read, records->pointCount());
  LasFileWriter writer(laz, records->format(), LasCompression::Laz, chunkPoints);
  if (chunkPoints == kLasVariableChunks) {
    std::vector<LasChunkRecords> chunks;
    uint64_t first = 0;
    for (uint64_t count : variableChunks) {
      chunks.push_back({all.data() + first * length, count});
      first += count;
    }
    ASSERT_EQ(first, read);
    writer.writeChunks(chunks);
  } else {
    writer.write(all.data(), read);
  }
  writer.finish();
}

uint64_t pointsOffsetOf(const std::vector<uint8_t>& file) {
  uint32_t offset;
  std::memcpy(&offset, file.data() + 96, 4);
  return offset;
}

uint64_t tableOffsetOf(const std::vector<uint8_t>& file) {
  uint64_t offset;
  std::memcpy(&offset, file.data() + pointsOffsetOf(file), 8);
  return offset;
}

/// The file with its chunk table (the last thing in it) replaced by `entries`.
std::vector<uint8_t> withTable(std::vector<uint8_t> file,
                               const std::vector<laz::ChunkTableEntry>& entries) {
  file.resize(tableOffsetOf(file));
  const std::vector<uint8_t> table = laz::encodeChunkTable(entries, true);
  file.insert(file.end(), table.begin(), table.end());
  return file;
}

std::vector<laz::ChunkTableEntry> tableOf(const std::vector<uint8_t>& file) {
  const uint64_t table = tableOffsetOf(file);
  uint32_t count;
  std::memcpy(&count, file.data() + table + 4, 4);
  auto entries =
      laz::decodeChunkTableEntries(file.data() + table + 8, file.size() - table - 8, count, true);
  EXPECT_TRUE(entries.has_value());
  return entries.value_or(std::vector<laz::ChunkTableEntry>{});
}

/// The file as a writer that cannot seek back leaves it: -1 where the table offset goes, and
/// `trailer` as the last 8 bytes.
std::vector<uint8_t> asStreamedWith(std::vector<uint8_t> file, uint64_t trailer) {
  const int64_t unknown = -1;
  std::memcpy(file.data() + pointsOffsetOf(file), &unknown, 8);
  const auto* bytes = reinterpret_cast<const uint8_t*>(&trailer);
  file.insert(file.end(), bytes, bytes + 8);
  return file;
}

void expectSamePoints(const PointCloud& a, const PointCloud& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a.origin, b.origin);
  EXPECT_EQ(std::memcmp(a.points.data(), b.points.data(), a.size() * sizeof(Point)), 0);
}

struct Case {
  int pointFormat;  ///< 3: pointwise chunks; 7: layered
  int minor;
};
constexpr Case kCases[] = {{3, 2}, {7, 4}};

TEST(LazChunkTableFaults, ReadsPointsAVariableTableLeavesOutAsLaszipDoes) {
  TempDir dir;
  const std::vector<uint64_t> chunkCounts = {3000, 5000, 1200, 800};
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.pointFormat);
    writeBytes(dir.file("a.las"),
               makeLas(scannedPoints(10000), {.minor = c.minor, .pointFormat = c.pointFormat}));
    writeLaz(dir.file("a.las"), dir.file("a.laz"), kLasVariableChunks, chunkCounts);
    const PointCloud expected = readPointCloud(dir.file("a.las"));
    const std::vector<uint8_t> intact = readFileBytes(dir.file("a.laz"));
    std::vector<laz::ChunkTableEntry> entries = tableOf(intact);
    ASSERT_EQ(entries.size(), chunkCounts.size());

    // The last chunk left out of the table (its bytes lie between the tabled chunks and the
    // table), the last two left out, and the last chunk's count too small (no untabled bytes:
    // it runs on to the header's count).
    std::vector<std::vector<laz::ChunkTableEntry>> shortTables = {
        {entries.begin(), entries.end() - 1}, {entries.begin(), entries.end() - 2}};
    std::vector<laz::ChunkTableEntry> shortCount = entries;
    shortCount.back().pointCount -= 300;
    shortTables.push_back(shortCount);
    // Two chunks left out are found only where chunks state their sizes (layered).
    if (c.pointFormat < 6) shortTables.erase(shortTables.begin() + 1);
    for (size_t t = 0; t < shortTables.size(); ++t) {
      SCOPED_TRACE(t);
      writeBytes(dir.file("short.laz"), withTable(intact, shortTables[t]));
      FileSummary summary;
      const PointCloud cloud = readPointCloud(dir.file("short.laz"), nullptr, &summary);
      expectSamePoints(cloud, expected);
      EXPECT_EQ(summary.warnings.size(), 1u);
    }
    FileSummary intactSummary;
    readPointCloud(dir.file("a.laz"), nullptr, &intactSummary);
    EXPECT_TRUE(intactSummary.warnings.empty());
  }
}

TEST(LazChunkTableFaults, RefusesUntabledPointsBeyondTheChunkData) {
  // The header declares more points than the tabled chunks and the bytes after them hold.
  TempDir dir;
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.pointFormat);
    writeBytes(dir.file("a.las"),
               makeLas(scannedPoints(6000), {.minor = c.minor, .pointFormat = c.pointFormat}));
    writeLaz(dir.file("a.las"), dir.file("a.laz"), kLasVariableChunks, {4000, 2000});
    std::vector<uint8_t> bytes = readFileBytes(dir.file("a.laz"));
    const size_t countAt = c.minor >= 4 ? 247 : 107;  // LAS 1.4: the 64-bit count
    uint32_t count;
    std::memcpy(&count, bytes.data() + countAt, 4);
    count += 500;
    std::memcpy(bytes.data() + countAt, &count, 4);
    if (c.minor >= 4) std::memset(bytes.data() + 107, 0, 4);  // legacy count: 0 in 1.4 files
    writeBytes(dir.file("more.laz"), bytes);
    EXPECT_FALSE(inputErrorOf(dir.file("more.laz")).empty());
  }
}

TEST(LazChunkTableFaults, ReadsAStreamedFileInSequenceWhenItsLastBytesAreNoTableOffset) {
  TempDir dir;
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.pointFormat);
    writeBytes(dir.file("a.las"),
               makeLas(scannedPoints(9000), {.minor = c.minor, .pointFormat = c.pointFormat}));
    writeLaz(dir.file("a.las"), dir.file("a.laz"), 2000);
    const PointCloud expected = readPointCloud(dir.file("a.las"));
    const std::vector<uint8_t> intact = readFileBytes(dir.file("a.laz"));
    const uint64_t points = pointsOffsetOf(intact);
    // An offset inside the chunk data, one past the file's end, and text.
    const uint64_t trailers[] = {points + 8 + 200, uint64_t(intact.size()) * 3,
                                 0x4c41534c41534c41ull};
    for (uint64_t trailer : trailers) {
      SCOPED_TRACE(trailer);
      writeBytes(dir.file("s.laz"), asStreamedWith(intact, trailer));
      FileSummary summary;
      const PointCloud cloud = readPointCloud(dir.file("s.laz"), nullptr, &summary);
      expectSamePoints(cloud, expected);
      EXPECT_EQ(summary.warnings.size(), 1u);
    }
    // The streaming writer's file as it should be: the table found, nothing to warn about.
    writeBytes(dir.file("s.laz"), asStreamedWith(intact, tableOffsetOf(intact)));
    FileSummary summary;
    expectSamePoints(readPointCloud(dir.file("s.laz"), nullptr, &summary), expected);
    EXPECT_TRUE(summary.warnings.empty());
  }
}

TEST(LazChunkTableFaults, DamagedStreamedFilesFailCleanly) {
  TempDir dir;
  std::mt19937 random(23);
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.pointFormat);
    writeBytes(dir.file("a.las"),
               makeLas(scannedPoints(9000), {.minor = c.minor, .pointFormat = c.pointFormat}));
    writeLaz(dir.file("a.las"), dir.file("a.laz"), 2000);
    const std::vector<uint8_t> intact = readFileBytes(dir.file("a.laz"));
    const uint64_t points = pointsOffsetOf(intact);
    const std::vector<uint8_t> streamed = asStreamedWith(intact, points + 300);
    // Cut inside the chunks: no table, the last chunk runs out of bytes.
    std::vector<uint8_t> cut(streamed.begin(), streamed.begin() + (streamed.size() * 2) / 3);
    writeBytes(dir.file("cut.laz"), cut);
    EXPECT_FALSE(inputErrorOf(dir.file("cut.laz")).empty());
    // Bytes changed anywhere in the chunks: an InputError or points, never a crash or hang.
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<uint8_t> bytes = streamed;
      for (int k = 0; k < 6; ++k) {
        bytes[points + 8 + random() % (bytes.size() - points - 8)] = uint8_t(random());
      }
      writeBytes(dir.file("bad.laz"), bytes);
      try {
        readPointCloud(dir.file("bad.laz"));
      } catch (const InputError&) {
      }
    }
  }
}

}  // namespace
}  // namespace pcv::test
