// Writing LAS and LAZ: LAS -> LAZ -> LAS and LAZ -> LAS -> LAZ give identical point records for
// every shared file; the cylinder scene written in every point format, with chunk sizes that
// leave a partial last chunk, reads back to the records it was made of; the header's counts and
// bounds are the points'; variable chunks written in rounds of varying sizes each decode alone
// where the writer said it put them.
#include <gtest/gtest.h>

#include <cstring>

#include "io_test_util.hpp"
#include "laz/chunk_decoder.hpp"
#include "laz/laszip_vlr.hpp"
#include "laz_test_support.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinders.hpp"

namespace pcv::test {
namespace {

/// Every record of a stream.
std::vector<uint8_t> drain(PointRecordStream& stream, uint64_t batch = 100000) {
  std::vector<uint8_t> all;
  const uint8_t* records = nullptr;
  while (const uint64_t count = stream.next(batch, records)) {
    all.insert(all.end(), records, records + count * stream.format().recordLength);
  }
  return all;
}

void writeStream(PointRecordStream& stream, const std::filesystem::path& path,
                 LasCompression compression, uint32_t chunkPoints = 50000) {
  LasFileWriter writer(path, stream.format(), compression, chunkPoints);
  const uint8_t* records = nullptr;
  while (const uint64_t count = stream.next(65536, records)) writer.write(records, count);
  writer.finish();
}

std::unique_ptr<PointRecordStream> cylinders(uint64_t count, int format) {
  Box3d bounds;
  bounds.extend(glm::dvec3(-3.0));
  bounds.extend(glm::dvec3(3.0));
  return producedRecords(std::make_shared<CylinderProducer>(makeCylinderSet(9), count), bounds,
                         glm::dvec3(0.0), format);
}

/// The shared LAS and LAZ files that load (the broken-on-purpose ones are other tests' work).
std::vector<std::filesystem::path> sharedLasAndLaz() {
  std::vector<std::filesystem::path> files;
  const std::filesystem::path data = testDataDir();
  for (const char* folder : {"las", "laz", "laz-corpus"}) {
    if (!std::filesystem::exists(data / folder)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(data / folder)) {
      const auto extension = entry.path().extension();
      if (extension != ".las" && extension != ".laz") continue;
      try {
        openLasRecords(entry.path());
        files.push_back(entry.path());
      } catch (const InputError&) {
      }
    }
  }
  return files;
}

TEST(LazWriter, RoundTripsEverySharedFileWithIdenticalRecords) {
  if (testDataDir().empty()) GTEST_SKIP() << "no shared test data";
  TempDir dir;
  int files = 0;
  for (const std::filesystem::path& path : sharedLasAndLaz()) {
    SCOPED_TRACE(path.string());
    std::vector<uint8_t> original;
    try {
      auto source = openLasRecords(path);
      original = drain(*source);
    } catch (const InputError& e) {
      continue;  // points that do not decode (broken on purpose)
    }
    // Through the other kind and back: LAS -> LAZ -> LAS, LAZ -> LAS -> LAZ.
    const bool isLaz = path.extension() == ".laz";
    const auto first = dir.file(isLaz ? "a.las" : "a.laz");
    const auto second = dir.file(isLaz ? "b.laz" : "b.las");
    auto source = openLasRecords(path);
    writeStream(*source, first, isLaz ? LasCompression::None : LasCompression::Laz);
    auto middle = openLasRecords(first);
    EXPECT_TRUE(drain(*middle) == original) << "first conversion";
    middle = openLasRecords(first);
    writeStream(*middle, second, isLaz ? LasCompression::Laz : LasCompression::None);
    auto back = openLasRecords(second);
    EXPECT_TRUE(drain(*back) == original) << "second conversion";
    // And what pcv shows of them is the same.
    const FileSummary a = summarizePointCloud(path), b = summarizePointCloud(second);
    EXPECT_EQ(a.pointCount, b.pointCount);
    EXPECT_EQ(a.worldBounds.min, b.worldBounds.min);
    EXPECT_EQ(a.worldBounds.max, b.worldBounds.max);
    ++files;
  }
  EXPECT_GE(files, 30);
}

TEST(LazWriter, RoundTripsCylindersOfEveryFormatAndChunkSize) {
  TempDir dir;
  const uint64_t count = 23456;
  for (int format = 0; format <= 10; ++format) {
    auto source = cylinders(count, format);
    const std::vector<uint8_t> expected = drain(*source, 5000);
    for (uint32_t chunk : {50000u, 1000u, 777u}) {
      SCOPED_TRACE("format " + std::to_string(format) + ", chunks of " + std::to_string(chunk));
      auto stream = cylinders(count, format);
      writeStream(*stream, dir.file("c.laz"), LasCompression::Laz, chunk);
      auto back = openLasRecords(dir.file("c.laz"));
      EXPECT_EQ(back->pointCount(), count);
      EXPECT_TRUE(drain(*back) == expected);
      const FileSummary summary = summarizePointCloud(dir.file("c.laz"));
      EXPECT_EQ(summary.pointCount, count);
      std::string notes;
      for (const std::string& line : summary.notes) notes += line + "\n";
      EXPECT_NE(notes.find(format >= 6 ? "compressor 3" : "compressor 2"), std::string::npos);
      EXPECT_NE(notes.find(std::to_string((count + chunk - 1) / chunk) + " chunk"),
                std::string::npos)
          << notes;
    }
  }
}

TEST(LazWriter, HeaderBoundsAndCountsAreThePoints) {
  TempDir dir;
  auto stream = cylinders(10000, 7);
  writeStream(*stream, dir.file("h.laz"), LasCompression::Laz);
  const io::MappedFile file(dir.file("h.laz"));
  const io::ReadContext context{.file = "h.laz"};
  const io::LasHeader header = io::parseLasHeader(file.bytes(), context);
  EXPECT_EQ(header.pointCount, 10000u);
  EXPECT_EQ(header.versionMinor, 4);
  EXPECT_EQ(header.pointFormat, 7);
  const FileSummary summary = summarizePointCloud(dir.file("h.laz"));
  for (int a = 0; a < 3; ++a) {
    EXPECT_DOUBLE_EQ(header.headerMin[a], summary.worldBounds.min[a]);
    EXPECT_DOUBLE_EQ(header.headerMax[a], summary.worldBounds.max[a]);
  }
}

TEST(LazWriter, ConvertsBetweenPointFormats) {
  PCV_REQUIRE_LAZ_CORPUS();
  TempDir dir;
  // PF3 -> PF7 -> PF3 keeps every field both formats have.
  auto source = openLasRecords(lazCorpusDir() / "simple.laz");
  LasWriteFormat extended = source->format();
  extended.pointFormat = 7;
  extended.recordLength = 36;
  extended.versionMinor = 4;
  auto seven = reformatRecords(std::move(source), extended);
  writeStream(*seven, dir.file("7.laz"), LasCompression::Laz);
  auto back = openLasRecords(dir.file("7.laz"));
  LasWriteFormat legacy = back->format();
  legacy.pointFormat = 3;
  legacy.recordLength = 34;
  auto three = reformatRecords(std::move(back), legacy);
  auto original = openLasRecords(lazCorpusDir() / "simple.laz");
  EXPECT_TRUE(drain(*three) == drain(*original));
}

TEST(LazWriter, VariableChunksOfManyRoundsDecodeAloneWhereTheyWerePlaced) {
  // Each round of chunks is written while the next is encoded, into buffers kept between rounds:
  // every chunk is sought through its placement and decoded by itself, and the whole file reads
  // back in order.
  TempDir dir;
  constexpr uint64_t kCount = 60000;
  auto stream = cylinders(kCount, 7);
  const std::vector<uint8_t> records = drain(*stream);
  const uint32_t length = stream->format().recordLength;
  // Rounds alternate between two sets of buffers: the fourth, small after the second's large
  // chunks, lets go of what the second kept. The last takes the rest of the points.
  const std::vector<std::vector<uint64_t>> rounds = {std::vector<uint64_t>(40, 100),
                                                     {9000, 7000, 1},
                                                     std::vector<uint64_t>(300, 37),
                                                     {3, 500, 2},
                                                     {0}};
  std::vector<LasChunkRecords> all;
  std::vector<LasChunkPlacement> placements;
  {
    LasFileWriter writer(dir.file("v.laz"), stream->format(), LasCompression::Laz,
                         kLasVariableChunks);
    uint64_t at = 0;
    for (size_t r = 0; r < rounds.size(); ++r) {
      std::vector<LasChunkRecords> chunks;
      for (uint64_t count : rounds[r]) {
        if (r + 1 == rounds.size()) count = kCount - at;
        chunks.push_back({.records = records.data() + at * length, .count = count});
        at += count;
      }
      const std::vector<LasChunkPlacement> placed = writer.writeChunks(chunks);
      ASSERT_EQ(placed.size(), chunks.size());
      all.insert(all.end(), chunks.begin(), chunks.end());
      placements.insert(placements.end(), placed.begin(), placed.end());
    }
    ASSERT_EQ(at, kCount);
    writer.finish();
  }
  const io::MappedFile file(dir.file("v.laz"));
  const io::ReadContext context{.file = "v.laz"};
  const io::LasHeader header = io::parseLasHeader(file.bytes(), context);
  EXPECT_EQ(header.pointCount, kCount);
  const io::LasVlr* vlr = header.findVlr(laz::kLaszipUserId, laz::kLaszipRecordId);
  ASSERT_NE(vlr, nullptr);
  const laz::LaszipVlr laszip =
      laz::parseLaszipVlr(file.bytes().subspan(vlr->payloadOffset, vlr->payloadBytes),
                          header.pointFormat, uint32_t(header.recordLength));
  laz::ChunkDecoder decoder(laszip, {});
  for (size_t c = 0; c < all.size(); ++c) {
    SCOPED_TRACE("chunk " + std::to_string(c));
    if (c > 0) {
      EXPECT_EQ(placements[c].offset, placements[c - 1].offset + placements[c - 1].bytes);
    }
    ASSERT_LE(placements[c].offset + placements[c].bytes, file.bytes().size());
    std::vector<uint8_t> decoded(all[c].count * length);
    decoder.start(file.data() + placements[c].offset, placements[c].bytes, all[c].count);
    decoder.decode(all[c].count, decoded.data());
    ASSERT_FALSE(decoder.fault().has_value()) << decoder.fault()->what;
    EXPECT_EQ(std::memcmp(decoded.data(), all[c].records, decoded.size()), 0);
  }
  auto back = openLasRecords(dir.file("v.laz"));
  EXPECT_TRUE(drain(*back) == records);
}

TEST(LazWriter, RejectsInconsistentFormats) {
  TempDir dir;
  LasWriteFormat bad{.pointFormat = 11};
  EXPECT_THROW(LasFileWriter(dir.file("x.laz"), bad, LasCompression::Laz), InputError);
  LasWriteFormat shortRecords{.pointFormat = 3, .recordLength = 20};
  EXPECT_THROW(LasFileWriter(dir.file("x.laz"), shortRecords, LasCompression::Laz), InputError);
  LasWriteFormat oldVersion{.pointFormat = 6, .recordLength = 30, .versionMinor = 2};
  EXPECT_THROW(LasFileWriter(dir.file("x.las"), oldVersion, LasCompression::None), InputError);
}

}  // namespace
}  // namespace pcv::test
