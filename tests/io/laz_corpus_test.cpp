// Every decodable file of the shared LAZ corpus decodes to the records LASzip's own decoder gives
// (the manifest's oracle hash), and to the raw records of its uncompressed twin where it has one.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace pcv::test
