// Every decodable file of the shared LAZ corpus decodes to the records LASzip's own decoder gives
// (the manifest's oracle hash), and to the raw records of its uncompressed twin where it has one.
#include <gtest/gtest.h>

#include <algorithm>

#include "laz/chunk_encoder.hpp"
#include "laz_test_support.hpp"

namespace pcv::test {
namespace {

TEST(LazCorpus, DecodesEveryCorpusFileToItsOracleHash) {
  PCV_REQUIRE_LAZ_CORPUS();
  const auto oracle = readOracleTable(lazCorpusDir() / "MANIFEST.md");
  int checked = 0;
  for (const auto& [name, entry] : oracle) {
    if (entry.status != "ok" || name.find(".laz") == std::string::npos) continue;
    SCOPED_TRACE(name);
    io::LasHeader header;
    std::vector<uint8_t> records;
    try {
      records = decodeAllRecords(lazCorpusDir() / name, {}, 777, &header);
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    EXPECT_EQ(header.pointCount, entry.pointCount);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx",
                  static_cast<unsigned long long>(fnv1a(records.data(), records.size())));
    char expected[17];
    std::snprintf(expected, sizeof expected, "%016llx",
                  static_cast<unsigned long long>(entry.recordHash));
    EXPECT_STREQ(hex, expected);
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

TEST(LazCorpus, DecodesEveryCorpusFileToItsTwin) {
  PCV_REQUIRE_LAZ_CORPUS();
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(lazCorpusDir())) {
    const std::filesystem::path laz = entry.path();
    if (laz.extension() != ".laz") continue;
    std::filesystem::path twin = laz;
    twin.replace_extension(".las");
    if (!std::filesystem::exists(twin)) continue;
    SCOPED_TRACE(laz.filename().string());
    const std::vector<uint8_t> decoded = decodeAllRecords(laz);
    const std::vector<uint8_t> expected = lasRecordBlock(twin);
    ASSERT_EQ(decoded.size(), expected.size());
    EXPECT_TRUE(decoded == expected);
    ++checked;
  }
  EXPECT_GE(checked, 8);
}

// The encoder makes the choices LASzip's makes, so re-encoding a file's decoded chunks gives its
// chunks back byte for byte: strong evidence that other LASzip readers read what pcv writes.
TEST(LazCorpus, ReencodesEveryCorpusChunkToTheSameBytes) {
  PCV_REQUIRE_LAZ_CORPUS();
  const auto oracle = readOracleTable(lazCorpusDir() / "MANIFEST.md");
  int files = 0;
  for (const auto& [name, entry] : oracle) {
    if (entry.status != "ok" || name.find(".laz") == std::string::npos) continue;
    SCOPED_TRACE(name);
    const std::filesystem::path path = lazCorpusDir() / name;
    const io::MappedFile file(path);
    const io::ReadContext context{.file = path.string()};
    const io::LasHeader header = io::parseLasHeader(file.bytes(), context);
    io::LazPointRecords records(file.bytes(), header, context);
    const laz::LaszipVlr& vlr = records.vlr();
    // pcv writes version 2 pointwise items only; the version 1 files cannot come back.
    if (std::any_of(vlr.items.begin(), vlr.items.end(), [](const laz::Item& item) {
          return item.version == 1 && item.type != laz::ItemType::WavePacket13;
        })) {
      continue;
    }
    auto decoder = records.makeDecoder({});
    laz::ChunkEncoder encoder(vlr);
    for (size_t c = 0; c < records.chunkCount(); ++c) {
      const laz::ChunkLocation& chunk = records.layout().chunks[c];
      std::vector<uint8_t> decoded(chunk.pointCount * records.recordLength());
      records.decodeChunk(c, *decoder, decoded.data(), chunk.pointCount,
                          [](const uint8_t*, uint64_t, uint64_t) {});
      std::vector<uint8_t> encoded;
      encoder.encode(decoded.data(), chunk.pointCount, encoded);
      const uint8_t* original = file.bytes().data() + chunk.offset;
      ASSERT_EQ(encoded.size(), chunk.byteCount) << "chunk " << c;
      EXPECT_TRUE(std::equal(encoded.begin(), encoded.end(), original)) << "chunk " << c;
    }
    ++files;
  }
  EXPECT_GE(files, 18);
}

}  // namespace
}  // namespace pcv::test
