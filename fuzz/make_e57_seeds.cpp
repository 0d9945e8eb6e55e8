// Writes the E57 fuzzer's seed corpus (fuzz/corpus/e57) with the test writer, so the seeds
// cover the reader's paths without copying anyone's files: float, double, scaled and 64-bit
// integer fields, values across packet boundaries, ignored and index packets, spherical
// coordinates with invalid states, poses, limits, several scans, images and extensions, and an
// empty scan whose section header is invalid.
//   make_e57_seeds OUTPUT_DIR
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "e57_writer.hpp"

namespace {

namespace e57 = pcv::test::e57;

e57::Scan cartesian(uint64_t records, bool single) {
  e57::Scan scan;
  scan.name = single ? "single" : "double";
  scan.records = records;
  for (int axis = 0; axis < 3; ++axis) {
    scan.fields.push_back(e57::floatField(
        std::string("cartesian") + char('X' + axis),
        [axis](uint64_t r) { return std::sin(double(r) * 0.1 + axis) * 10.0; }, single));
  }
  return scan;
}

void addColor(e57::Scan& scan, int64_t maximum) {
  for (const char* channel : {"colorRed", "colorGreen", "colorBlue"}) {
    scan.fields.push_back(e57::integerField(
        channel, 0, maximum, [maximum](uint64_t r) { return int64_t(r * 37) % (maximum + 1); }));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path out = argv[1];
  std::filesystem::create_directories(out);

  e57::Scan rgb = cartesian(300, true);
  addColor(rgb, 255);
  e57::writeE57File(out / "float-rgb-packets.e57", {rgb},
                    {.maxPacketBytes = 700, .ignoredPacket = true, .indexPacket = true});

  e57::Scan scaled;
  scaled.records = 400;
  for (int axis = 0; axis < 3; ++axis) {
    scaled.fields.push_back(e57::scaledField(
        std::string("cartesian") + char('X' + axis), -262144, 262143, 1e-6, 0.5 * axis,
        [axis](uint64_t r) { return int64_t(r * 7919 + axis) % 524288 - 262144; }));
  }
  scaled.fields.push_back(
      e57::integerField("cartesianInvalidState", 0, 2, [](uint64_t r) { return int64_t(r % 3); }));
  scaled.fields.push_back(e57::scaledField("intensity", 0, 32767, 1.0 / 32767, 0.0,
                                           [](uint64_t r) { return int64_t(r * 97 % 32768); }));
  scaled.extraXml =
      "<intensityLimits type=\"Structure\"><intensityMinimum type=\"Float\"/>"
      "<intensityMaximum type=\"Float\">1</intensityMaximum></intensityLimits>";
  e57::writeE57File(out / "scaled19-invalid-intensity.e57", {scaled}, {.recordsPerPacket = 64});

  e57::Scan spherical;
  spherical.records = 120;
  spherical.fields = {
      e57::floatField(
          "sphericalRange", [](uint64_t r) { return 1.0 + double(r % 5); }, false),
      e57::floatField(
          "sphericalAzimuth", [](uint64_t r) { return double(r) * 0.05; }, false),
      e57::floatField(
          "sphericalElevation", [](uint64_t r) { return double(r % 7) * 0.1; }, false),
      e57::integerField("sphericalInvalidState", 0, 2, [](uint64_t r) { return int64_t(r % 2); })};
  spherical.rotation = {std::sqrt(0.5), 0.0, 0.0, std::sqrt(0.5)};
  e57::writeE57File(out / "spherical-pose.e57", {spherical});

  e57::Scan north = cartesian(50, false);
  north.translation = {500000.0, 5000000.0, 100.0};
  addColor(north, 1023);
  north.extraXml =
      "<colorLimits type=\"Structure\"><colorRedMaximum type=\"Integer\">1023</colorRedMaximum>"
      "<colorGreenMaximum type=\"Integer\">1023</colorGreenMaximum><colorBlueMaximum "
      "type=\"Integer\">1023</colorBlueMaximum></colorLimits><cartesianBounds "
      "type=\"Structure\"><xMinimum type=\"Float\">-10</xMinimum><xMaximum "
      "type=\"Float\">10</xMaximum></cartesianBounds>";
  e57::Scan south = cartesian(40, true);
  south.rotation = {0.0, 1.0, 0.0, 0.0};
  south.fields.push_back(e57::integerField("rowIndex", 0, 39, [](uint64_t r) { return r; }));
  south.fields.push_back(e57::integerField("columnIndex", 0, 0, [](uint64_t) { return 0; }));
  south.fields.push_back(e57::integerField("returnIndex", 0, 1, [](uint64_t r) { return r % 2; }));
  south.fields.push_back(e57::integerField("returnCount", 1, 2, [](uint64_t) { return 2; }));
  south.fields.push_back(e57::floatField(
      "timeStamp", [](uint64_t r) { return 0.01 * r; }, false));
  south.fields.push_back(e57::floatField("nor:normalX", [](uint64_t) { return 1.0; }));
  e57::writeE57File(
      out / "two-scans-images.e57", {north, south},
      {.rootExtraXml = "<images2D type=\"Vector\" allowHeterogeneousChildren=\"1\"><vectorChild "
                       "type=\"Structure\"><name type=\"String\"><![CDATA[photo]]></name>"
                       "</vectorChild></images2D>"});

  e57::Scan wide;
  wide.records = 64;
  wide.fields = {e57::integerField("cartesianX", std::numeric_limits<int64_t>::min(),
                                   std::numeric_limits<int64_t>::max(),
                                   [](uint64_t r) { return int64_t(r * 0x9e3779b97f4a7c15ull); }),
                 e57::integerField("cartesianY", -(int64_t(1) << 40), int64_t(1) << 40,
                                   [](uint64_t r) { return int64_t(r) << 30; }),
                 e57::integerField("cartesianZ", 5, 5, [](uint64_t) { return 5; })};
  e57::writeE57File(out / "integers64-zero-width.e57", {wide}, {.recordsPerPacket = 5});

  // An empty scan whose section header was never finished (data offset 0), before a full one.
  std::vector<uint8_t> unfinished = e57::makeE57({cartesian(0, true), cartesian(30, true)});
  constexpr uint64_t kFirstSectionDataOffset = 48 + 16;
  std::memset(unfinished.data() + e57::physicalIndex(kFirstSectionDataOffset), 0, 8);
  e57::resealPages(unfinished);
  std::ofstream(out / "empty-scan-unfinished-section.e57", std::ios::binary)
      .write(reinterpret_cast<const char*>(unfinished.data()), std::streamsize(unfinished.size()));
  return 0;
}
