// Broken E57 files, each made by the test writer and then damaged in one way (with the page
// CRCs resealed unless the CRC is what is broken): every one is refused with an InputError that
// names the file, the page, packet or element, and what was expected.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <regex>

#include "e57_test_util.hpp"
#include "pcv/io/malformed_file_error.hpp"

namespace pcv::test {
namespace {

// Where the writer puts things (logical offsets): the header, then the first scan's section
// header, then its first data packet.
constexpr uint64_t kFirstSection = 48;
constexpr uint64_t kFirstPacket = kFirstSection + 32;

e57::Scan doubleScan(uint64_t records = 1000) {
  return floatScan(
      records, [](uint64_t r) { return glm::dvec3(double(r), 1.0, 2.0); }, false);
}

void expectMessage(const std::string& message, const std::string& part) {
  EXPECT_NE(message.find(part), std::string::npos) << "message: " << message;
  EXPECT_NE(message.find("broken.e57"), std::string::npos) << "message: " << message;
}

template <typename T>
void overwrite(std::vector<uint8_t>& bytes, uint64_t logical, T value) {
  std::memcpy(bytes.data() + e57::physicalIndex(logical), &value, sizeof value);
  e57::resealPages(bytes);
}

/// `text` with every `from` replaced by `to` (a test failure when there is none).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  for (; at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

e57::Layout editingXml(const std::string& from, const std::string& to) {
  return {.editXml = [from, to](std::string xml) { return replaced(std::move(xml), from, to); }};
}

TEST(E57Malformed, RejectsPageWithBadCrc) {
  TempDir dir;
  std::vector<uint8_t> bytes = e57::makeE57({doubleScan()});
  ASSERT_GT(bytes.size(), 6u * 1024);
  bytes[5 * 1024 + 100] ^= 0x01;
  expectMessage(e57ErrorOf(dir, bytes), "page 5 (bytes 5120-6143) fails its CRC-32C check");
}

TEST(E57Malformed, RejectsCorruptHeaderPage) {
  TempDir dir;
  std::vector<uint8_t> bytes = e57::makeE57({doubleScan()});
  bytes[20] ^= 0x40;  // inside the physical length
  expectMessage(e57ErrorOf(dir, bytes), "page 0 (bytes 0-1023) fails its CRC-32C check");
}

TEST(E57Malformed, RejectsTruncatedFile) {
  TempDir dir;
  std::vector<uint8_t> bytes = e57::makeE57({doubleScan()});
  const size_t size = bytes.size();
  bytes.resize(size - 2048);
  expectMessage(e57ErrorOf(dir, bytes),
                "but it is " + std::to_string(size - 2048) + " (truncated)");
  bytes.resize(700);
  expectMessage(e57ErrorOf(dir, bytes), "ends inside its first 1024-byte page");
}

TEST(E57Malformed, RejectsUnsupportedVersionAndPageSize) {
  TempDir dir;
  std::vector<uint8_t> bytes = e57::makeE57({doubleScan()});
  overwrite<uint32_t>(bytes, 8, 2);
  expectMessage(e57ErrorOf(dir, bytes), "E57 version 2.0 is not supported");
  bytes = e57::makeE57({doubleScan()});
  overwrite<uint64_t>(bytes, 40, 2048);
  expectMessage(e57ErrorOf(dir, bytes), "page size 2048, expected 1024");
}

TEST(E57Malformed, RejectsXmlSectionOutsideTheFile) {
  TempDir dir;
  std::vector<uint8_t> bytes = e57::makeE57({doubleScan()});
  overwrite<uint64_t>(bytes, 32, uint64_t(1) << 40);
  expectMessage(e57ErrorOf(dir, bytes), "XML section length 1099511627776");
}

TEST(E57Malformed, RejectsXmlThatDoesNotParse) {
  TempDir dir;
  const std::string message =
      e57ErrorOf(dir, e57::makeE57({doubleScan()}, editingXml("</data3D>", "</data3")));
  expectMessage(message, "XML section does not parse");
}

TEST(E57Malformed, RejectsScanWithoutPointsOrPrototype) {
  TempDir dir;
  auto renaming = [](const std::string& from, const std::string& to) {
    return e57::Layout{.editXml = [from, to](std::string xml) {
      return replaced(replaced(std::move(xml), "<" + from + " ", "<" + to + " "), "</" + from + ">",
                      "</" + to + ">");
    }};
  };
  expectMessage(e57ErrorOf(dir, e57::makeE57({doubleScan()}, renaming("points", "pointz"))),
                "/data3D/0: lacks its 'points' element");
  expectMessage(e57ErrorOf(dir, e57::makeE57({doubleScan()}, renaming("prototype", "prototyp"))),
                "/data3D/0/points: lacks its 'prototype' element");
  expectMessage(
      e57ErrorOf(dir, e57::makeE57({doubleScan()}, editingXml("recordCount=", "recordCoun="))),
      "/data3D/0/points: lacks the 'recordCount' attribute");
}

TEST(E57Malformed, RejectsInvertedIntegerRange) {
  TempDir dir;
  e57::Scan scan = doubleScan();
  scan.fields.push_back(e57::integerField("rowIndex", 0, 3, [](uint64_t) { return 0; }));
  scan.fields.back().xml = "<rowIndex type=\"Integer\" minimum=\"5\" maximum=\"3\"/>";
  expectMessage(e57ErrorOf(dir, e57::makeE57({scan})),
                "/data3D/0/points/prototype/rowIndex: minimum 5 > maximum 3");
}

// No range of 64-bit integers needs more than 64 bits; a limit outside int64 is refused as
// such, before any width is computed from it.
TEST(E57Malformed, RejectsLimitsBeyond64Bits) {
  TempDir dir;
  e57::Scan scan = doubleScan();
  scan.fields.push_back(e57::integerField("rowIndex", 0, 3, [](uint64_t) { return 0; }));
  scan.fields.back().xml =
      "<rowIndex type=\"Integer\" minimum=\"0\" maximum=\"18446744073709551616\"/>";
  expectMessage(e57ErrorOf(dir, e57::makeE57({scan})),
                "maximum=\"18446744073709551616\" is not a 64-bit integer");
}

TEST(E57Malformed, RejectsFieldTypesRecordsCannotHold) {
  TempDir dir;
  e57::Scan scan = doubleScan();
  scan.fields.push_back(e57::integerField("comment", 0, 0, [](uint64_t) { return 0; }));
  scan.fields.back().xml = "<comment type=\"String\"/>";
  expectMessage(e57ErrorOf(dir, e57::makeE57({scan})), "type 'String' in a record prototype");
  scan.fields.back().xml = "<comment type=\"Float\" precision=\"half\"/>";
  expectMessage(e57ErrorOf(dir, e57::makeE57({scan})), "precision 'half'");
}

TEST(E57Malformed, RejectsCodecsOtherThanBitpack) {
  TempDir dir;
  e57::Scan scan = doubleScan();
  scan.codecsXml =
      "<vectorChild type=\"Structure\"><inputs type=\"Vector\"><vectorChild "
      "type=\"String\">cartesianX</vectorChild></inputs><zlibCodec type=\"Structure\"/>"
      "</vectorChild>";
  expectMessage(e57ErrorOf(dir, e57::makeE57({scan})),
                "codecs/0: codec 'zlibCodec' is not supported: only the standard bitPackCodec is");
  scan.codecsXml =
      "<vectorChild type=\"Structure\"><bitPackCodec type=\"Structure\"/></vectorChild>";
  EXPECT_EQ(readE57Bytes(dir, e57::makeE57({scan})).size(), 1000u);
}

TEST(E57Malformed, RejectsRecordCountBeyondTheSection) {
  TempDir dir;
  e57::Scan scan = doubleScan();
  scan.declaredRecords = uint64_t(1) << 62;  // would be 64 EiB of points if believed
  expectMessage(e57ErrorOf(dir, e57::makeE57({scan})),
                "recordCount 4611686018427387904 of 192 bits each cannot fit");
}

TEST(E57Malformed, RejectsBytestreamShorterThanTheRecordCount) {
  TempDir dir;
  e57::Scan scan = doubleScan();
  scan.declaredRecords = 1001;  // fits in the section's size, but the streams hold 1000
  expectMessage(e57ErrorOf(dir, e57::makeE57({scan})),
                "bytestream 'cartesianX' holding 1000 of its 1001 records");
}

TEST(E57Malformed, RejectsZeroBitRecordsBeyondTheSection) {
  TempDir dir;
  e57::Scan scan;
  scan.records = 4;
  for (const char* axis : {"cartesianX", "cartesianY", "cartesianZ"}) {
    scan.fields.push_back(e57::integerField(axis, 7, 7, [](uint64_t) { return 7; }));
  }
  EXPECT_EQ(readE57Bytes(dir, e57::makeE57({scan})).size(), 4u);
  scan.declaredRecords = uint64_t(1) << 40;
  expectMessage(e57ErrorOf(dir, e57::makeE57({scan})), "of 0 bits each cannot fit");
}

// Scans that point at one section would each pass their own check; together they may not
// claim more records than the file has bits.
TEST(E57Malformed, ScansSharingASectionAreMemorySafe) {
  TempDir dir;
  std::vector<e57::Scan> scans = {doubleScan()};
  for (int s = 0; s < 9; ++s) {
    e57::Scan empty;
    empty.records = 4;
    for (const char* axis : {"cartesianX", "cartesianY", "cartesianZ"}) {
      empty.fields.push_back(e57::integerField(axis, 0, 0, [](uint64_t) { return 0; }));
    }
    scans.push_back(empty);
  }
  const e57::Layout layout{.editXml = [](std::string xml) {
    return std::regex_replace(xml, std::regex("fileOffset=\"[0-9]+\" recordCount=\"4\""),
                              "fileOffset=\"48\" recordCount=\"190000\"");
  }};
  expectMessage(e57ErrorOf(dir, e57::makeE57(scans, layout)),
                "claims more records than the file's");
}

TEST(E57Malformed, RejectsBadSectionHeader) {
  TempDir dir;
  std::vector<uint8_t> bytes = e57::makeE57({doubleScan()});
  overwrite<uint8_t>(bytes, kFirstSection, 3);
  expectMessage(e57ErrorOf(dir, bytes), "section id 3, expected 1");
  bytes = e57::makeE57({doubleScan()});
  overwrite<uint64_t>(bytes, kFirstSection + 8, uint64_t(1) << 50);
  expectMessage(e57ErrorOf(dir, bytes), "section length 1125899906842624");
  expectMessage(
      e57ErrorOf(dir, e57::makeE57({doubleScan()},
                                   editingXml("fileOffset=\"48\"", "fileOffset=\"99999999\""))),
      "points fileOffset 99999999");
}

/// Where reading `bytes` fails, as the error states it; a test failure when they load.
std::optional<uint64_t> faultOffsetOf(const TempDir& dir, const std::vector<uint8_t>& bytes) {
  writeBytes(dir.file("broken.e57"), bytes);
  try {
    readPointCloud(dir.file("broken.e57"));
  } catch (const MalformedFileError& error) {
    return error.byteOffset();
  }
  ADD_FAILURE() << "loaded, expected a MalformedFileError";
  return std::nullopt;
}

// A scan of no records still has a section, which libE57Format opens: one whose header was
// never written (zeroed, or an older writer's data offset 0) makes the file broken, not empty.
TEST(E57Malformed, RejectsEmptyScanWhoseSectionHeaderIsInvalid) {
  TempDir dir;
  const std::vector<e57::Scan> scans = {doubleScan(0), doubleScan(50)};
  ASSERT_EQ(readE57Bytes(dir, e57::makeE57(scans)).size(), 50u);
  std::vector<uint8_t> bytes = e57::makeE57(scans);
  overwrite<uint64_t>(bytes, kFirstSection + 16, 0);  // data offset
  EXPECT_EQ(faultOffsetOf(dir, bytes), kFirstSection);
  bytes = e57::makeE57(scans);
  for (uint64_t at = 0; at < 32; at += 8) overwrite<uint64_t>(bytes, kFirstSection + at, 0);
  EXPECT_EQ(faultOffsetOf(dir, bytes), kFirstSection);
}

TEST(E57Malformed, SectionHeaderFaultsNameTheSectionsByte) {
  TempDir dir;
  std::vector<uint8_t> bytes = e57::makeE57({doubleScan()});
  overwrite<uint8_t>(bytes, kFirstSection, 3);
  EXPECT_EQ(faultOffsetOf(dir, bytes), kFirstSection);
  bytes = e57::makeE57({doubleScan()});
  overwrite<uint64_t>(bytes, kFirstSection + 8, uint64_t(1) << 50);
  EXPECT_EQ(faultOffsetOf(dir, bytes), kFirstSection);
}

TEST(E57Malformed, RejectsUnknownPacketType) {
  TempDir dir;
  std::vector<uint8_t> bytes = e57::makeE57({doubleScan()});
  overwrite<uint8_t>(bytes, kFirstPacket, 7);
  expectMessage(e57ErrorOf(dir, bytes),
                "packet 0 at byte 80: packet type 7, expected 0 (index), 1 (data) or 2 (ignored)");
}

TEST(E57Malformed, RejectsBytestreamCountThatDiffersFromThePrototype) {
  TempDir dir;
  std::vector<uint8_t> bytes = e57::makeE57({doubleScan()});
  overwrite<uint16_t>(bytes, kFirstPacket + 4, 2);
  expectMessage(e57ErrorOf(dir, bytes), "2 bytestreams, expected one per prototype field (3)");
}

TEST(E57Malformed, RejectsPacketsThatRunPastTheirSection) {
  TempDir dir;
  std::vector<uint8_t> bytes = e57::makeE57({doubleScan()});
  overwrite<uint16_t>(bytes, kFirstPacket + 2, 0xffff);
  expectMessage(e57ErrorOf(dir, bytes), "length 65536 runs past the end of the section");
  bytes = e57::makeE57({doubleScan()});
  overwrite<uint16_t>(bytes, kFirstPacket + 6, 0xfff0);  // cartesianX's buffer
  expectMessage(e57ErrorOf(dir, bytes), "bytestream 'cartesianX' buffer of 65520 bytes runs past");
}

TEST(E57Malformed, RefusesFileWithoutScans) {
  TempDir dir;
  expectMessage(e57ErrorOf(dir, e57::makeE57({})), "no 3D scans");
}

TEST(E57Malformed, RejectsPrototypeWithoutCoordinates) {
  TempDir dir;
  e57::Scan scan;
  scan.records = 2;
  scan.fields = {e57::integerField("colorRed", 0, 255, [](uint64_t) { return 1; })};
  expectMessage(e57ErrorOf(dir, e57::makeE57({scan})),
                "neither cartesianX/Y/Z nor sphericalRange/Azimuth/Elevation");
}

TEST(E57Malformed, RejectsPoseThatIsNoRotation) {
  TempDir dir;
  e57::Scan scan = doubleScan();
  scan.rotation = {0.0, 0.0, 0.0, 0.0};
  expectMessage(e57ErrorOf(dir, e57::makeE57({scan})), "/data3D/0/pose/rotation: quaternion");
  scan.rotation.reset();
  scan.translation = {1.0, 2.0, 3.0};
  expectMessage(e57ErrorOf(dir, e57::makeE57({scan}, editingXml(">2</y>", ">two</y>"))),
                "/data3D/0/pose/translation/y: value 'two' is not a number");
}

}  // namespace
}  // namespace pcv::test
