// The records of LAS and LAZ files streamed in batches (what pcv convert reads): a file larger
// than memory must not stay resident behind the reader, so only about a batch of the file's
// pages may be mapped into the process at a time, and every record still reads back unchanged,
// through next() or read() into the caller's buffer.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "io_test_util.hpp"
#include "laz_test_support.hpp"
#include "pcv/io/las_writer.hpp"
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

}  // namespace
}  // namespace pcv::test
