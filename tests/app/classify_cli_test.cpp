// pcv classify on a LAS file of synthetic terrain with known classes: the classes written match
// the truth, every other bit of every record is the input's, --in-place gives the same file, and
// bad parameters, empty inputs and outputs that must not be written are errors.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>

#include "json_report.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/process/point_classes.hpp"
#include "synthetic_point_files.hpp"
#include "synthetic_terrain.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

/// Byte of the classification in point format 3 records (its low 5 bits; the top 3 are flags).
constexpr size_t kClassByte = 15;

/// Every record of a LAS or LAZ file, concatenated.
std::vector<uint8_t> fileRecords(const std::filesystem::path& path, uint16_t* length = nullptr) {
  const std::unique_ptr<PointRecordStream> stream = openLasRecords(path);
  if (length) *length = stream->format().recordLength;
  std::vector<uint8_t> all;
  const uint8_t* batch = nullptr;
  for (uint64_t count; (count = stream->next(4096, batch)) > 0;) {
    all.insert(all.end(), batch, batch + count * stream->format().recordLength);
  }
  return all;
}

class ClassifyCli : public ::testing::Test {
 protected:
  /// The terrain as point format 3 with every field but X, Y, Z and the class random (the class
  /// flags too), and classes that a rerun must replace: every tenth point ground, every
  /// seventeenth noise, the rest 5 (high vegetation).
  void SetUp() override {
    terrain_ = test::makeSyntheticTerrain(21, {300000.0, 4000000.0, 120.0}, 120.0);
    std::vector<test::SyntheticPoint> points;
    for (size_t i = 0; i < terrain_.points.size(); ++i) {
      const glm::dvec3& p = terrain_.points[i];
      const uint8_t previous = i % 10 == 0 ? kClassGround : i % 17 == 0 ? kClassNoise : 5;
      points.push_back({.x = p.x, .y = p.y, .z = p.z, .classification = previous});
    }
    std::vector<uint8_t> bytes =
        test::makeLas(points, {.pointFormat = 3, .scale = 0.001, .offset = {300000, 4000000, 0}});
    uint32_t pointOffset = 0;
    std::memcpy(&pointOffset, bytes.data() + 96, 4);
    std::mt19937 random(5);
    for (size_t i = 0; i < points.size(); ++i) {
      uint8_t* record = bytes.data() + pointOffset + i * 34;
      for (size_t b = 12; b < 34; ++b) {
        if (b == kClassByte) {
          record[b] = uint8_t((record[b] & 0x1F) | (random() & 0xE0));
        } else {
          record[b] = uint8_t(random());
        }
      }
    }
    input_ = dir_.file("terrain.las");
    test::writeBytes(input_, bytes);
  }

  int run(const std::string& arguments, std::string* text = nullptr) {
    std::string ignored;
    return test::runCommand(test::pcvExecutable().string() + " classify " + arguments,
                            text ? text : &ignored);
  }

  /// Checks `output` against the input: the classes expected from the truth, every other bit
  /// the input's.
  void expectClassified(const std::filesystem::path& output) {
    uint16_t length = 0;
    const std::vector<uint8_t> before = fileRecords(input_, &length);
    const std::vector<uint8_t> after = fileRecords(output);
    ASSERT_EQ(length, 34);
    ASSERT_EQ(after.size(), before.size());
    size_t otherBitsChanged = 0, groundRight = 0, ground = 0, objectsRight = 0, objects = 0,
           noiseMissed = 0, staleKept = 0;
    for (size_t i = 0; i < terrain_.points.size(); ++i) {
      const uint8_t* a = before.data() + i * length;
      const uint8_t* b = after.data() + i * length;
      for (size_t k = 0; k < length; ++k) {
        const uint8_t mask = k == kClassByte ? 0xE0 : 0xFF;
        otherBitsChanged += (a[k] & mask) != (b[k] & mask);
      }
      const uint8_t cls = b[kClassByte] & 0x1F;
      const uint8_t previous = a[kClassByte] & 0x1F;
      EXPECT_TRUE(cls == kClassGround || cls == kClassNoise || cls == kClassUnclassified ||
                  cls == previous);
      staleKept += cls == previous && (previous == kClassGround || previous == kClassNoise) &&
                   terrain_.truth[i] !=
                       (previous == kClassGround ? test::Truth::Ground : test::Truth::Noise);
      switch (terrain_.truth[i]) {
        case test::Truth::Ground:
          ++ground, groundRight += cls == kClassGround;
          break;
        case test::Truth::Noise:
          noiseMissed += cls != kClassNoise;
          break;
        default:
          ++objects, objectsRight += cls != kClassGround;
      }
    }
    EXPECT_EQ(otherBitsChanged, 0u);
    EXPECT_EQ(noiseMissed, 0u);
    EXPECT_EQ(staleKept, 0u);
    EXPECT_GE(double(groundRight) / double(ground), 0.97);
    EXPECT_GE(double(objectsRight) / double(objects), 0.97);
  }

  test::TempDir dir_;
  std::filesystem::path input_;
  test::SyntheticTerrain terrain_;
};

TEST_F(ClassifyCli, WritesGroundAndNoiseAndKeepsEveryOtherField) {
  const auto output = dir_.file("classified.las"), report = dir_.file("report.json");
  std::string text;
  ASSERT_EQ(
      run(input_.string() + " " + output.string() + " --ground --noise --report " + report.string(),
          &text),
      0)
      << text;
  expectClassified(output);
  const nlohmann::json json = test::readJsonReport(report);
  EXPECT_EQ(json.value("/classify/points"_json_pointer, uint64_t(0)), terrain_.points.size());
  EXPECT_GT(json.value("/classify/ground"_json_pointer, uint64_t(0)), terrain_.points.size() / 2);
  EXPECT_GE(json.value("/classify/noise"_json_pointer, uint64_t(0)), 24u);
}

TEST_F(ClassifyCli, LazOutputAndInPlaceGiveTheSameRecords) {
  const auto las = dir_.file("classified.las"), laz = dir_.file("classified.laz");
  const auto copy = dir_.file("copy.las");
  std::filesystem::copy_file(input_, copy);
  std::string text;
  ASSERT_EQ(run(input_.string() + " " + las.string() + " --ground --noise", &text), 0) << text;
  ASSERT_EQ(run(input_.string() + " " + laz.string() + " --ground --noise", &text), 0) << text;
  ASSERT_EQ(run(copy.string() + " --in-place --ground --noise", &text), 0) << text;
  EXPECT_EQ(fileRecords(laz), fileRecords(las));
  EXPECT_EQ(fileRecords(copy), fileRecords(las));
  // No temporary file is left beside the one rewritten.
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_.file(""))) {
    ++files;
    EXPECT_EQ(entry.path().string().find("partial"), std::string::npos) << entry.path();
  }
  EXPECT_EQ(files, 4u);
}

TEST_F(ClassifyCli, TheGpuWritesTheCpusRecordsAndTheReportSaysWhereTheFiltersRan) {
  const auto onCpu = dir_.file("cpu.las"), onGpu = dir_.file("gpu.las"),
             report = dir_.file("r.json");
  std::string text;
  ASSERT_EQ(run(input_.string() + " " + onCpu.string() +
                    " --ground --noise --device cpu --report " + report.string(),
                &text),
            0)
      << text;
  EXPECT_EQ(test::readJsonReport(report)["classify"]["device"], "cpu");
  std::string whyNot;
  if (!cudaAvailable(&whyNot)) {
    // Asked for, the GPU is a clear error; auto takes the CPU.
    EXPECT_NE(run(input_.string() + " " + onGpu.string() + " --ground --noise --device cuda"), 0);
    EXPECT_FALSE(std::filesystem::exists(onGpu));
    ASSERT_EQ(run(input_.string() + " " + onGpu.string() + " --ground --noise --report " +
                  report.string()),
              0);
    EXPECT_EQ(test::readJsonReport(report)["classify"]["device"], "cpu");
  } else {
    ASSERT_EQ(run(input_.string() + " " + onGpu.string() +
                      " --ground --noise --device cuda --report " + report.string(),
                  &text),
              0)
        << text;
    const std::string device = test::readJsonReport(report)["classify"]["device"];
    EXPECT_EQ(device.rfind("cuda", 0), 0u) << device;
  }
  EXPECT_EQ(fileRecords(onGpu), fileRecords(onCpu));
}

TEST_F(ClassifyCli, TilesClassifiedTogetherMatchTheWholeFile) {
  // The terrain cut in two tiles at x = 70 m, through the 30 x 40 m building: the west tile
  // alone holds 25 x 40 m of roof against its edge, more than the window removes (each tile
  // classified alone leaves much of it as ground). Classified together in place, each point
  // gets the class the whole file gives.
  std::vector<test::SyntheticPoint> west, east;
  std::vector<size_t> westIndex, eastIndex;
  for (size_t i = 0; i < terrain_.points.size(); ++i) {
    const glm::dvec3& p = terrain_.points[i];
    const bool isWest = p.x < 300070.0;
    (isWest ? west : east).push_back({.x = p.x, .y = p.y, .z = p.z, .classification = 5});
    (isWest ? westIndex : eastIndex).push_back(i);
  }
  const test::LasOptions format{.pointFormat = 3, .scale = 0.001, .offset = {300000, 4000000, 0}};
  const auto westLas = dir_.file("west.las"), eastLas = dir_.file("east.las");
  test::writeBytes(westLas, test::makeLas(west, format));
  test::writeBytes(eastLas, test::makeLas(east, format));
  const auto whole = dir_.file("whole.las");
  std::string text;
  ASSERT_EQ(run(input_.string() + " " + whole.string() + " --ground --noise", &text), 0) << text;
  ASSERT_EQ(run(westLas.string() + " " + eastLas.string() + " --in-place --ground --noise", &text),
            0)
      << text;
  const std::vector<uint8_t> wholeRecords = fileRecords(whole);
  size_t differing = 0, stale = 0;
  for (const auto& [tile, indices] :
       {std::pair{westLas, westIndex}, std::pair{eastLas, eastIndex}}) {
    const std::vector<uint8_t> records = fileRecords(tile);
    ASSERT_EQ(records.size(), indices.size() * 34);
    for (size_t k = 0; k < indices.size(); ++k) {
      const uint8_t cls = records[k * 34 + kClassByte] & 0x1F;
      const uint8_t expected = wholeRecords[indices[k] * 34 + kClassByte] & 0x1F;
      // The whole file's stale classes were 2, 7 or 5; the tiles' all 5.
      if (expected == kClassGround || expected == kClassNoise) {
        differing += cls != expected;
      } else {
        stale += cls != 5;
      }
    }
  }
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(stale, 0u);
}

TEST_F(ClassifyCli, ParametersReachTheFilters) {
  // Noise only, with a radius larger than the planted noise's distance to the terrain: nothing
  // is isolated, and no class but stale noise changes.
  const auto output = dir_.file("classified.las"), report = dir_.file("report.json");
  std::string text;
  ASSERT_EQ(run(input_.string() + " " + output.string() + " --noise --noise-radius 100 --report " +
                    report.string(),
                &text),
            0)
      << text;
  EXPECT_EQ(test::readJsonReport(report).value("/classify/noise"_json_pointer, uint64_t(1)), 0u);
  EXPECT_EQ(test::readJsonReport(report).value("/classify/ground"_json_pointer, uint64_t(1)), 0u);
}

TEST_F(ClassifyCli, BadParametersAndOutputsAreErrors) {
  const auto output = dir_.file("classified.las");
  const std::string io = input_.string() + " " + output.string();
  for (const std::string& flags :
       {"--ground --cell 0", "--ground --cell -1", "--ground --window 0.5", "--ground --slope -1",
        "--ground --threshold -1", "--noise --noise-radius 0", "--noise --noise-neighbours 0",
        ""}) {
    EXPECT_EQ(run(io + " " + flags), 1) << flags;
    EXPECT_FALSE(std::filesystem::exists(output)) << flags;
  }
  // The output may not be the input, nor exist without --overwrite.
  EXPECT_EQ(run(input_.string() + " " + input_.string() + " --ground --overwrite"), 1);
  test::writeBytes(output, {1, 2, 3});
  EXPECT_EQ(run(io + " --ground"), 1);
  EXPECT_EQ(std::filesystem::file_size(output), 3u);
  EXPECT_EQ(run(io + " --ground --overwrite"), 0);
  // An input with no points, and no output at all.
  const auto empty = dir_.file("empty.las");
  test::writeBytes(empty, test::makeLas({}, {.pointFormat = 3}));
  EXPECT_EQ(run(empty.string() + " " + dir_.file("out.las").string() + " --ground"), 1);
  EXPECT_FALSE(std::filesystem::exists(dir_.file("out.las")));
  EXPECT_EQ(run(input_.string() + " --ground"), 1);
}

}  // namespace
}  // namespace pcv

namespace pcv {
namespace {

// Real airborne data in international feet (Autzen, Oregon State Plane): the defaults, given in
// metres, are turned into feet; a length given is kept as given.
TEST(ClassifyRealData, DefaultsFollowTheDeclaredUnit) {
  const auto file = test::testDataDir() / "las" / "autzen_trim.las";
  if (test::testDataDir().empty() || !std::filesystem::exists(file)) {
    GTEST_SKIP() << file << " is not there";
  }
  test::TempDir dir;
  const auto report = dir.file("report.json");
  std::string text;
  ASSERT_EQ(test::runCommand(test::pcvExecutable().string() + " classify " + file.string() + " " +
                                 dir.file("out.las").string() +
                                 " --ground --noise --report " + report.string(),
                             &text),
            0)
      << text;
  const nlohmann::json json = test::readJsonReport(report);
  const double points = json.value("/classify/points"_json_pointer, 0.0);
  EXPECT_EQ(json.value("/classify/unit"_json_pointer, std::string()), "ft");
  EXPECT_NEAR(json.value("/classify/cell"_json_pointer, 0.0), 1.0 / 0.3048, 1e-9);
  EXPECT_NEAR(json.value("/classify/window"_json_pointer, 0.0), 18.0 / 0.3048, 1e-9);
  // In metres the noise radius would be 2 ft, which leaves a third of these points alone.
  EXPECT_LT(json.value("/classify/noise"_json_pointer, points), 0.01 * points);
  EXPECT_GT(json.value("/classify/ground"_json_pointer, 0.0), 0.5 * points);
  ASSERT_EQ(test::runCommand(test::pcvExecutable().string() + " classify " + file.string() + " " +
                                 dir.file("out2.las").string() +
                                 " --ground --cell 2 --report " + report.string(),
                             &text),
            0)
      << text;
  const nlohmann::json given = test::readJsonReport(report);
  EXPECT_EQ(given.value("/classify/cell"_json_pointer, 0.0), 2.0);
  EXPECT_NEAR(given.value("/classify/window"_json_pointer, 0.0), 18.0 / 0.3048, 1e-9);
}

}  // namespace
}  // namespace pcv
