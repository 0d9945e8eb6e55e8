// The record sink writes a LAS output range by range on all cores where the records can be made
// range by range (plain LAS inputs, merged, re-encoded or reclassified): the file must be the
// one the batches in order make, byte for byte, in every point format, and a failure on any
// thread (an input grown between passes, a cancel) must leave nothing at the output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "io_test_util.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/session/copc_conversion.hpp"
#include "pcv/session/file_classification.hpp"
#include "pcv/session/record_sink.hpp"

namespace pcv::test {
namespace {

/// More than one of the sink's ranges (2 MiB of records) in every point format, the last one
/// shorter.
constexpr uint64_t kPoints = 150'000;

/// `stream`'s records through next() alone: what the sink wrote for every stream before it
/// wrote ranges, the reference each test compares with.
class InOrderOnly final : public PointRecordStream {
 public:
  explicit InOrderOnly(std::unique_ptr<PointRecordStream> source) : source_(std::move(source)) {
    format_ = source_->format();
    pointCount_ = source_->pointCount();
    bounds_ = source_->bounds();
  }
  uint64_t next(uint64_t maxPoints, const uint8_t*& records) override {
    return source_->next(maxPoints, records);
  }

 private:
  std::unique_ptr<PointRecordStream> source_;
};

PointRecordSource inOrderOnly(PointRecordSource source) {
  return [source] { return std::make_unique<InOrderOnly>(source()); };
}

std::vector<uint8_t> fileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Writes `source` both ways, and expects the same file; returns the summary of the ranges.
RecordSinkSummary expectSameBothWays(const PointRecordSource& source, const TempDir& dir,
                                     const std::string& name) {
  const std::filesystem::path placed = dir.file(name + "-placed.las");
  const std::filesystem::path batched = dir.file(name + "-batched.las");
  EXPECT_TRUE(source()->randomAccess()) << name << ": the test would compare the batches twice";
  const RecordSinkSummary summary = writePointRecords(source, placed);
  writePointRecords(inOrderOnly(source), batched);
  const std::vector<uint8_t> a = fileBytes(placed), b = fileBytes(batched);
  EXPECT_EQ(a.size(), b.size()) << name;
  EXPECT_TRUE(a == b) << name << ": the file written by ranges differs from the batches'";
  return summary;
}

/// A LAS file of `count` records of `pointFormat` with `extraBytes`, a VLR (and an EVLR where
/// the format needs LAS 1.4), every byte random but the coordinates, which stay within a
/// million steps of the offset so that files on other grids merge.
std::filesystem::path writeRandomLas(const std::filesystem::path& path, int pointFormat,
                                     uint64_t count, const glm::dvec3& offset, uint32_t seed,
                                     uint16_t extraBytes = 3) {
  LasWriteFormat format{.pointFormat = pointFormat,
                        .recordLength = uint16_t(lasFormatRecordBytes(pointFormat) + extraBytes),
                        .versionMinor = minimumLasMinorVersion(pointFormat),
                        .scale = glm::dvec3(0.01, 0.01, 0.001),
                        .offset = offset};
  format.vlrs.push_back({.userId = "pcv-test", .recordId = 7, .payload = {1, 2, 3}});
  if (format.versionMinor >= 4) {
    format.evlrs.push_back({.userId = "pcv-test", .recordId = 8, .payload = {4, 5}});
  }
  std::mt19937 random{seed};
  std::vector<uint8_t> records(count * format.recordLength);
  for (uint8_t& byte : records) byte = uint8_t(random());
  for (uint64_t i = 0; i < count; ++i) {
    for (int a = 0; a < 3; ++a) {
      const int32_t steps = int32_t(random() % 1'000'000);
      std::memcpy(records.data() + i * format.recordLength + 4 * a, &steps, 4);
    }
  }
  LasFileWriter writer(path, format, LasCompression::None);
  writer.write(records.data(), count);
  writer.finish();
  return path;
}

/// Records made from their index alone; next() is never to be called: a writer that asks for
/// it did not write by ranges.
class RangesOnly final : public PointRecordStream {
 public:
  explicit RangesOnly(uint64_t count) {
    format_ = LasWriteFormat{.pointFormat = 1, .recordLength = 28};
    pointCount_ = count;
  }
  uint64_t next(uint64_t, const uint8_t*&) override { throw Error("RangesOnly: read in order"); }
  bool randomAccess() const override { return true; }
  void readAt(uint64_t first, uint64_t count, uint8_t* into) const override {
    for (uint64_t i = first; i < first + count; ++i, into += format_.recordLength) {
      std::memset(into, 0, format_.recordLength);
      const int32_t xyz[3] = {int32_t(i % 1000), int32_t(i / 1000), int32_t(i % 77)};
      std::memcpy(into, xyz, sizeof xyz);
      into[14] = uint8_t(1 + i % 3);  // return number
    }
  }
};

TEST(RecordSink, ALasOutputOfARangeStreamIsWrittenRangeByRange) {
  TempDir dir;
  const std::filesystem::path path = dir.file("ranges.las");
  const RecordSinkSummary summary =
      writePointRecords([] { return std::make_unique<RangesOnly>(kPoints); }, path);
  EXPECT_EQ(summary.points, kPoints);
  // The same records through a stream that makes them in order.
  auto all = std::make_shared<std::vector<uint8_t>>(kPoints * 28);
  RangesOnly(kPoints).readAt(0, kPoints, all->data());
  struct Whole final : PointRecordStream {
    explicit Whole(std::shared_ptr<std::vector<uint8_t>> bytes) : bytes_(std::move(bytes)) {
      format_ = LasWriteFormat{.pointFormat = 1, .recordLength = 28};
      pointCount_ = kPoints;
    }
    uint64_t next(uint64_t maxPoints, const uint8_t*& records) override {
      const uint64_t count = std::min(maxPoints, kPoints - done_);
      records = bytes_->data() + done_ * 28;
      done_ += count;
      return count;
    }
    std::shared_ptr<std::vector<uint8_t>> bytes_;
    uint64_t done_ = 0;
  };
  const std::filesystem::path reference = dir.file("whole.las");
  writePointRecords([all] { return std::make_unique<Whole>(all); }, reference);
  EXPECT_TRUE(fileBytes(path) == fileBytes(reference));
}

TEST(RecordSink, RangesMakeTheBatchesFileInEveryPointFormat) {
  TempDir dir;
  for (int format = 0; format <= 10; ++format) {
    SCOPED_TRACE("point format " + std::to_string(format));
    const std::string input =
        writeRandomLas(dir.file("in" + std::to_string(format) + ".las"), format, kPoints,
                       glm::dvec3(500000.0, 5000000.0, 0.0), uint32_t(format))
            .string();
    const RecordSinkSummary summary =
        expectSameBothWays(pointFileRecords({input}), dir, "f" + std::to_string(format));
    EXPECT_EQ(summary.points, kPoints);
    EXPECT_EQ(summary.pointFormat, format);
  }
}

TEST(RecordSink, RangesOfLongRecordsHoldFewOfThem) {
  TempDir dir;
  // Records of 60 000 bytes: a range of as many records as short ones would take 4 GB.
  const std::string input =
      writeRandomLas(dir.file("long.las"), 0, 300, glm::dvec3(0.0), 9, 60'000).string();
  EXPECT_EQ(expectSameBothWays(pointFileRecords({input}), dir, "long").points, 300u);
}

TEST(RecordSink, RangesMakeTheBatchesFileOfMergedReencodedAndClassifiedFiles) {
  TempDir dir;
  // Three tiles, each on a grid of its own: all but the first are moved to the first's grid.
  std::vector<std::string> inputs;
  for (int i = 0; i < 3; ++i) {
    inputs.push_back(writeRandomLas(dir.file("tile" + std::to_string(i) + ".las"), 3,
                                    kPoints / 2 + 1000 * uint64_t(i),
                                    glm::dvec3(500000.0 + 1000.0 * i, 5000000.0, 0.0), 40 + i)
                         .string());
  }
  expectSameBothWays(pointFileRecords(inputs), dir, "merged");
  // Into longer records (3 -> 7) and shorter ones (3 -> 1).
  expectSameBothWays(pointFileRecords(inputs, 7), dir, "format7");
  expectSameBothWays(pointFileRecords(inputs, 1), dir, "format1");
  // Classes found for every point, merged with the records' own.
  const uint64_t total = pointFileRecords(inputs)()->pointCount();
  auto classes = std::make_shared<std::vector<uint8_t>>(total);
  for (uint64_t i = 0; i < total; ++i) (*classes)[i] = uint8_t(i % 3 == 0 ? 2 : (i % 7 ? 1 : 7));
  expectSameBothWays(classifiedRecords(pointFileRecords(inputs), classes, 0, {}), dir,
                     "classified");
  // A cloud in memory (what pcv.write and the viewer's saves write), made records.
  expectSameBothWays([&] { return cloudRecords(readPointCloud(inputs[1]), 7); }, dir, "cloud");
}

TEST(RecordSink, RangesMakeTheBatchesFileOfAnEmptyInputAndCountTheProgress) {
  TempDir dir;
  const std::string empty =
      writeRandomLas(dir.file("empty.las"), 6, 0, glm::dvec3(0.0), 1).string();
  EXPECT_EQ(expectSameBothWays(pointFileRecords({empty}), dir, "empty").points, 0u);
  const std::string input =
      writeRandomLas(dir.file("in.las"), 1, kPoints, glm::dvec3(0.0), 2).string();
  CopcWriteProgress progress;
  writePointRecords(pointFileRecords({input}), dir.file("progress.las"), {}, &progress);
  EXPECT_EQ(progress.pointsTotal, kPoints);
  EXPECT_EQ(progress.pointsWritten, kPoints);
}

TEST(RecordSink, AnInputGrownSinceItsClassesWereFoundIsAnErrorAndLeavesNothing) {
  TempDir dir;
  const std::string input =
      writeRandomLas(dir.file("grown.las"), 6, kPoints, glm::dvec3(0.0), 3).string();
  // Classes for the points the file held at the first pass: fewer than it holds now.
  auto classes = std::make_shared<std::vector<uint8_t>>(kPoints - 5000, uint8_t(2));
  const PointRecordSource source = classifiedRecords(pointFileRecords({input}), classes, 0, {});
  for (const bool ranges : {true, false}) {
    SCOPED_TRACE(ranges ? "ranges" : "batches");
    const std::filesystem::path output = dir.file("out.las");
    EXPECT_THROW(writePointRecords(ranges ? source : inOrderOnly(source), output), Error);
    EXPECT_FALSE(std::filesystem::exists(output));
  }
  // Nothing beside the input: no temporary file left either.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.file("")),
                          std::filesystem::directory_iterator()),
            1);
}

TEST(RecordSink, ACancelledRangeWriteLeavesNothing) {
  TempDir dir;
  const std::string input =
      writeRandomLas(dir.file("in.las"), 2, kPoints, glm::dvec3(0.0), 5).string();
  const std::filesystem::path output = dir.file("out.las");
  CopcWriteProgress progress;
  progress.cancel = true;
  EXPECT_THROW(writePointRecords(pointFileRecords({input}), output, {}, &progress),
               ConversionCancelled);
  EXPECT_FALSE(std::filesystem::exists(output));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.file("")),
                          std::filesystem::directory_iterator()),
            1);
}

}  // namespace
}  // namespace pcv::test
