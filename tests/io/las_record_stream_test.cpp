// The records of LAS and LAZ files streamed in batches (what pcv convert reads): a file larger
// than memory must not stay resident behind the reader, so only about a batch of the file's
// pages may be mapped into the process at a time, and every record still reads back unchanged,
// through next() or read() into the caller's buffer, or range by range through readAt() where
// the records lie at known places; and records written at their places from several threads
// make the file written in order.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "io_test_util.hpp"
#include "laz_test_support.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/io/record_classes.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinders.hpp"

namespace pcv::test {
namespace {

/// Bytes of files mapped into this process and resident (RssFile of /proc/self/status).
uint64_t residentFileBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("RssFile:", 0) == 0) return std::stoull(line.substr(8)) * 1024;
  }
  ADD_FAILURE() << "no RssFile in /proc/self/status";
  return 0;
}

std::unique_ptr<PointRecordStream> cylinders(uint64_t count) {
  Box3d bounds;
  bounds.extend(glm::dvec3(-3.0));
  bounds.extend(glm::dvec3(3.0));
  return producedRecords(std::make_shared<CylinderProducer>(makeCylinderSet(5), count), bounds,
                         glm::dvec3(0.0), 7);
}

/// `count` cylinder points as a LAS or LAZ file.
void writeCylinders(const std::filesystem::path& path, uint64_t count, LasCompression compression) {
  auto stream = cylinders(count);
  LasFileWriter writer(path, stream->format(), compression);
  const uint8_t* records = nullptr;
  while (const uint64_t n = stream->next(65536, records)) writer.write(records, n);
  writer.finish();
}

/// Reads `stream` to its end in batches of `batchPoints`: the hash of every record, and the most
/// file bytes resident beyond those at the start.
struct Streamed {
  uint64_t hash = 0xcbf29ce484222325ull;
  uint64_t points = 0;
  uint64_t mostResidentGrowth = 0;
};

Streamed streamAll(PointRecordStream& stream, uint64_t batchPoints) {
  Streamed result;
  const uint64_t before = residentFileBytes();
  const uint8_t* records = nullptr;
  while (const uint64_t count = stream.next(batchPoints, records)) {
    result.hash = fnv1a(records, count * stream.format().recordLength, result.hash);
    result.points += count;
    const uint64_t now = residentFileBytes();
    result.mostResidentGrowth =
        std::max(result.mostResidentGrowth, now > before ? now - before : 0);
  }
  return result;
}

TEST(LasRecordStream, StreamingAFileKeepsAboutABatchOfItResident) {
  TempDir dir;
  constexpr uint64_t kPoints = 2'000'000;   // 72 MB of LAS records, about 38 MB of LAZ
  constexpr uint64_t kBatchPoints = 65536;  // 2.4 MB of records
  constexpr uint64_t kMostGrowth = uint64_t(12) << 20;
  auto source = cylinders(kPoints);
  const Streamed expected = streamAll(*source, kBatchPoints);
  for (const LasCompression compression : {LasCompression::None, LasCompression::Laz}) {
    const bool laz = compression == LasCompression::Laz;
    SCOPED_TRACE(laz ? "LAZ" : "LAS");
    const std::filesystem::path path = dir.file(laz ? "s.laz" : "s.las");
    writeCylinders(path, kPoints, compression);
    ASSERT_GT(std::filesystem::file_size(path), 3 * kMostGrowth) << "too small to tell";
    auto stream = openLasRecords(path);
    const Streamed read = streamAll(*stream, kBatchPoints);
    EXPECT_EQ(read.points, kPoints);
    EXPECT_EQ(read.hash, expected.hash) << "records changed on the way";
    EXPECT_LT(read.mostResidentGrowth, kMostGrowth)
        << "of a " << std::filesystem::file_size(path) << "-byte file";
  }
}

/// The hash of every record of `stream`, read into a buffer of `batchPoints` records by read().
Streamed readAll(PointRecordStream& stream, uint64_t batchPoints) {
  Streamed result;
  const uint32_t length = stream.format().recordLength;
  // A guard record past the batch: read() must never write beyond the room it was given.
  std::vector<uint8_t> buffer((batchPoints + 1) * length, 0xA5);
  while (const uint64_t count = stream.read(batchPoints, buffer.data())) {
    EXPECT_LE(count, batchPoints);
    result.hash = fnv1a(buffer.data(), count * length, result.hash);
    result.points += count;
  }
  EXPECT_TRUE(std::all_of(buffer.end() - length, buffer.end(), [](uint8_t b) { return b == 0xA5; }))
      << "read() wrote past its room";
  return result;
}

TEST(PointRecordStream, ReadIntoABufferGivesWhatNextGives) {
  TempDir dir;
  constexpr uint64_t kPoints = 300'000;
  auto source = cylinders(kPoints);
  const Streamed expected = streamAll(*source, 65536);
  // The generated records are written in place; LAS and LAZ records copied, and a LAZ stream's
  // whole chunks (50 000 points) split over batches smaller than a chunk.
  auto generated = cylinders(kPoints);
  const Streamed made = readAll(*generated, 40'000);
  EXPECT_EQ(made.points, kPoints);
  EXPECT_EQ(made.hash, expected.hash);
  for (const LasCompression compression : {LasCompression::None, LasCompression::Laz}) {
    const bool laz = compression == LasCompression::Laz;
    SCOPED_TRACE(laz ? "LAZ" : "LAS");
    const std::filesystem::path path = dir.file(laz ? "r.laz" : "r.las");
    writeCylinders(path, kPoints, compression);
    for (const uint64_t batch : {uint64_t(7'777), uint64_t(65'536)}) {
      auto stream = openLasRecords(path);
      const Streamed read = readAll(*stream, batch);
      EXPECT_EQ(read.points, kPoints) << "batches of " << batch;
      EXPECT_EQ(read.hash, expected.hash) << "batches of " << batch;
    }
  }
}

/// Every record of `stream` through next().
std::vector<uint8_t> recordsInOrder(PointRecordStream& stream) {
  std::vector<uint8_t> all;
  const uint8_t* batch = nullptr;
  while (const uint64_t count = stream.next(50'000, batch)) {
    all.insert(all.end(), batch, batch + count * stream.format().recordLength);
  }
  return all;
}

/// Every record of `stream` through readAt(), in ranges of uneven sizes taken from the last to
/// the first, each into a buffer with a guard record past its room.
std::vector<uint8_t> recordsByRanges(const PointRecordStream& stream) {
  const uint64_t length = stream.format().recordLength, total = stream.pointCount();
  std::vector<uint8_t> all(total * length);
  std::vector<uint64_t> firsts;
  for (uint64_t first = 0, size = 1; first < total; first += size, size = size * 3 + 7) {
    firsts.push_back(first);
  }
  firsts.push_back(total);
  for (size_t r = firsts.size() - 1; r-- > 0;) {
    const uint64_t count = firsts[r + 1] - firsts[r];
    std::vector<uint8_t> buffer((count + 1) * length, 0xA5);
    stream.readAt(firsts[r], count, buffer.data());
    EXPECT_TRUE(std::all_of(buffer.end() - long(length), buffer.end(), [](uint8_t b) {
      return b == 0xA5;
    })) << "readAt() wrote past its room";
    std::copy(buffer.begin(), buffer.end() - long(length), all.begin() + long(firsts[r] * length));
  }
  return all;
}

TEST(PointRecordStream, RangesReadAnywhereGiveWhatNextGives) {
  TempDir dir;
  constexpr uint64_t kPoints = 120'000;
  const std::filesystem::path las = dir.file("a.las"), laz = dir.file("a.laz");
  writeCylinders(las, kPoints, LasCompression::None);
  writeCylinders(laz, kPoints, LasCompression::Laz);
  EXPECT_FALSE(openLasRecords(laz)->randomAccess()) << "LAZ chunks decode in order";
  // A file's records; two files one after the other; records moved to another grid, into
  // longer and shorter records; with their classes rewritten; a cloud in memory made records.
  LasWriteFormat otherGrid = openLasRecords(las)->format();
  otherGrid.offset += glm::dvec3(0.5, -0.25, 1.0);
  LasWriteFormat longer = otherGrid, shorter = otherGrid;
  longer.pointFormat = 10;
  longer.recordLength = lasFormatRecordBytes(10);
  shorter.pointFormat = 1;
  shorter.recordLength = lasFormatRecordBytes(1);
  const auto twoFiles = [&] {
    std::vector<std::unique_ptr<PointRecordStream>> both;
    both.push_back(openLasRecords(las));
    both.push_back(openLasRecords(las));
    return concatenateRecords(std::move(both));
  };
  const auto classOf = [](uint8_t previous, uint64_t index) {
    return uint8_t(index % 3 ? previous : 2);
  };
  const std::vector<std::pair<std::string, std::function<std::unique_ptr<PointRecordStream>()>>>
      streams = {
          {"file", [&] { return openLasRecords(las); }},
          {"two files", twoFiles},
          {"other grid", [&] { return reformatRecords(openLasRecords(las), otherGrid); }},
          {"longer", [&] { return reformatRecords(twoFiles(), longer); }},
          {"shorter", [&] { return reformatRecords(openLasRecords(las), shorter); }},
          {"classes", [&] { return reclassifyRecords(twoFiles(), classOf); }},
          {"cloud", [&] { return cloudRecords(readPointCloud(las), 8); }},
      };
  for (const auto& [name, open] : streams) {
    SCOPED_TRACE(name);
    const std::unique_ptr<PointRecordStream> ranges = open(), inOrder = open();
    ASSERT_TRUE(ranges->randomAccess());
    const std::vector<uint8_t> expected = recordsInOrder(*inOrder);
    ASSERT_EQ(expected.size(), ranges->pointCount() * ranges->format().recordLength);
    EXPECT_TRUE(recordsByRanges(*ranges) == expected);
  }
}

TEST(PointRecordStream, RangesReadInTurnKeepLittleOfTheFileResident) {
  TempDir dir;
  constexpr uint64_t kPoints = 2'000'000;  // 72 MB of LAS records
  constexpr uint64_t kRange = 7'777;       // ranges smaller than what is given back at a time
  constexpr uint64_t kMostGrowth = uint64_t(12) << 20;
  const std::filesystem::path path = dir.file("ranges.las");
  writeCylinders(path, kPoints, LasCompression::None);
  const std::unique_ptr<PointRecordStream> stream = openLasRecords(path);
  const uint64_t before = residentFileBytes();
  uint64_t mostGrowth = 0;
  std::vector<uint8_t> buffer(kRange * stream->format().recordLength);
  for (uint64_t first = 0; first < kPoints; first += kRange) {
    stream->readAt(first, std::min(kRange, kPoints - first), buffer.data());
    const uint64_t now = residentFileBytes();
    mostGrowth = std::max(mostGrowth, now > before ? now - before : 0);
  }
  EXPECT_LT(mostGrowth, kMostGrowth) << "of a " << std::filesystem::file_size(path) << "-byte file";
}

std::vector<uint8_t> fileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(LasFileWriter, RecordsPlacedFromSeveralThreadsMakeTheFileWrittenInOrder) {
  TempDir dir;
  constexpr uint64_t kPoints = 100'000, kRange = 3'000;
  auto source = cylinders(kPoints);
  LasWriteFormat format = source->format();
  format.evlrs.push_back({.userId = "pcv-test", .recordId = 1, .payload = {9, 8, 7}});
  const std::vector<uint8_t> records = recordsInOrder(*source);
  const std::filesystem::path inOrder = dir.file("order.las"), placed = dir.file("placed.las");
  {
    LasFileWriter writer(inOrder, format, LasCompression::None);
    writer.write(records.data(), kPoints);
    writer.finish();
  }
  {
    LasFileWriter writer(placed, format, LasCompression::None);
    writer.placeRecords(kPoints);
    EXPECT_THROW(writer.write(records.data(), 1), Error);
    // The ranges from the last to the first, spread over the threads.
    const uint64_t ranges = (kPoints + kRange - 1) / kRange;
    parallelFor(
        ranges,
        [&](uint64_t begin, uint64_t end) {
          for (uint64_t r = end; r-- > begin;) {
            const uint64_t first = (ranges - 1 - r) * kRange;
            const uint64_t count = std::min(kRange, kPoints - first);
            writer.writeAt(first, records.data() + first * format.recordLength, count);
          }
        },
        1);
    EXPECT_THROW(writer.writeAt(kPoints - 1, records.data(), 2), Error) << "past the records";
    writer.finish();
  }
  EXPECT_TRUE(fileBytes(placed) == fileBytes(inOrder));
}

TEST(LasFileWriter, RecordsPlacedButNotAllWrittenAreAnError) {
  TempDir dir;
  auto source = cylinders(1000);
  const std::vector<uint8_t> records = recordsInOrder(*source);
  const std::filesystem::path path = dir.file("short.las");
  {
    LasFileWriter writer(path, source->format(), LasCompression::None);
    writer.placeRecords(1000);
    writer.writeAt(0, records.data(), 999);
    EXPECT_THROW(writer.finish(), Error);
  }
  EXPECT_FALSE(std::filesystem::exists(path)) << "an unfinished file is removed";
  LasFileWriter laz(dir.file("x.laz"), source->format(), LasCompression::Laz);
  EXPECT_THROW(laz.placeRecords(1000), Error) << "LAZ chunks are written in order";
}

}  // namespace
}  // namespace pcv::test
