// No command loses a file: an output that exists is replaced only with --overwrite, an input
// never, and a command line that names no output (`pcv convert *.las`) writes nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "io_test_util.hpp"
#include "json_report.hpp"
#include "test_support.hpp"

namespace pcv::test {
namespace {

int pcv(const std::string& arguments, std::string* output = nullptr) {
  std::string text;
  const int status = runCommand(pcvExecutable().string() + " " + arguments, &text);
  if (output) *output = text;
  return status;
}

std::string bytesOf(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::set<std::string> namesIn(const std::filesystem::path& folder) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

/// Two tiles, a.las and b.las, of different points.
class OverwriteCli : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(pcv("convert -q --points 3000 --seed 1 " + path("a.las")), 0);
    ASSERT_EQ(pcv("convert -q --points 2000 --seed 2 " + path("b.las")), 0);
    a_ = bytesOf(dir_.file("a.las"));
    b_ = bytesOf(dir_.file("b.las"));
  }
  std::string path(const std::string& name) const { return dir_.file(name).string(); }
  void expectTilesUntouched() const {
    EXPECT_EQ(bytesOf(dir_.file("a.las")), a_);
    EXPECT_EQ(bytesOf(dir_.file("b.las")), b_);
  }
  uint64_t pointsOf(const std::string& name) {
    EXPECT_EQ(pcv("info " + path(name) + " --report " + path("info.json")), 0);
    const nlohmann::json report = readJsonReport(dir_.file("info.json"));
    std::filesystem::remove(dir_.file("info.json"));
    return report.value("/files/0/points"_json_pointer, uint64_t(0));
  }

  TempDir dir_;
  std::string a_, b_;
};

TEST_F(OverwriteCli, AGlobWithoutAnOutputReplacesNoTile) {
  // `pcv convert *.las`: the shell gives the tiles, the last of which would be the output.
  std::string output;
  EXPECT_NE(pcv("convert -q " + path("a.las") + " " + path("b.las"), &output), 0) << output;
  expectTilesUntouched();
  EXPECT_EQ(namesIn(dir_.file("")), (std::set<std::string>{"a.las", "b.las"}));
}

TEST_F(OverwriteCli, ASingleFileIsNotAConversion) {
  std::string output;
  EXPECT_NE(pcv("convert -q " + path("a.las"), &output), 0) << output;
  expectTilesUntouched();
  EXPECT_EQ(namesIn(dir_.file("")), (std::set<std::string>{"a.las", "b.las"}));
}

TEST_F(OverwriteCli, AnExistingOutputIsReplacedOnlyWhenAsked) {
  ASSERT_EQ(pcv("convert -q " + path("a.las") + " " + path("m.laz")), 0);
  const std::string merged = bytesOf(dir_.file("m.laz"));
  // Again, from other inputs: refused, the file as it was.
  EXPECT_NE(pcv("convert -q " + path("a.las") + " " + path("b.las") + " " + path("m.laz")), 0);
  EXPECT_EQ(bytesOf(dir_.file("m.laz")), merged);
  EXPECT_NE(pcv("convert -q --points 10 " + path("m.laz")), 0);
  EXPECT_EQ(bytesOf(dir_.file("m.laz")), merged);
  // Asked: replaced by the merge.
  ASSERT_EQ(
      pcv("convert -q --overwrite " + path("a.las") + " " + path("b.las") + " " + path("m.laz")),
      0);
  EXPECT_EQ(pointsOf("m.laz"), 5000u);
  expectTilesUntouched();
  EXPECT_EQ(namesIn(dir_.file("")), (std::set<std::string>{"a.las", "b.las", "m.laz"}));
}

TEST_F(OverwriteCli, AnInputIsNeverTheOutputEvenWithOverwrite) {
  for (const std::string output : {path("a.las"), dir_.file(".").string() + "/a.las"}) {
    for (const std::string& kind : {std::string(""), std::string(" --classes 1")}) {
      std::string text;
      EXPECT_NE(
          pcv("convert -q --overwrite " + path("b.las") + " " + path("a.las") + " " + output + kind,
              &text),
          0)
          << text;
    }
  }
  expectTilesUntouched();
}

TEST_F(OverwriteCli, CopcOutputsFollowTheSameRules) {
  ASSERT_EQ(pcv("convert -q " + path("a.las") + " " + path("a.copc.laz")), 0);
  const std::string copc = bytesOf(dir_.file("a.copc.laz"));
  EXPECT_NE(pcv("convert -q " + path("b.las") + " " + path("a.copc.laz")), 0);
  EXPECT_EQ(bytesOf(dir_.file("a.copc.laz")), copc);
  ASSERT_EQ(pcv("convert -q --overwrite " + path("b.las") + " " + path("a.copc.laz")), 0);
  EXPECT_EQ(pointsOf("a.copc.laz"), 2000u);
}

TEST_F(OverwriteCli, AMissingOutputFolderFailsWithoutWritingAnything) {
  std::string output;
  const std::string target = path("missing") + "/out.laz";
  EXPECT_NE(pcv("convert -q " + path("a.las") + " " + target, &output), 0);
  // The path as typed, not a temporary name beside it.
  EXPECT_NE(output.find(target), std::string::npos) << output;
  EXPECT_EQ(output.find(".partial"), std::string::npos) << output;
  EXPECT_EQ(namesIn(dir_.file("")), (std::set<std::string>{"a.las", "b.las"}));
}

TEST_F(OverwriteCli, TilesAreNotReplacedUnlessAsked) {
  const std::string out = path("tiles");
  ASSERT_EQ(pcv("convert -q --tiles " + path("a.las") + " " + path("b.las") + " " + out), 0);
  const std::set<std::string> written = namesIn(out);
  const std::string tile = bytesOf(dir_.file("tiles/a.copc.laz"));
  EXPECT_NE(pcv("convert -q --tiles " + path("b.las") + " " + path("a.las") + " " + out), 0);
  EXPECT_EQ(namesIn(out), written);
  EXPECT_EQ(bytesOf(dir_.file("tiles/a.copc.laz")), tile);
  EXPECT_EQ(
      pcv("convert -q --tiles --overwrite " + path("a.las") + " " + path("b.las") + " " + out), 0);
  EXPECT_EQ(namesIn(out), written);
}

TEST_F(OverwriteCli, VpcNeedsAVpcNameAndReplacesOnlyWhenAsked) {
  // The output comes first in `pcv vpc`: a tile there is refused, not replaced.
  EXPECT_NE(pcv("vpc " + path("a.las") + " " + path("b.las")), 0);
  expectTilesUntouched();
  ASSERT_EQ(pcv("vpc " + path("d.vpc") + " " + path("a.las")), 0);
  const std::string vpc = bytesOf(dir_.file("d.vpc"));
  EXPECT_NE(pcv("vpc " + path("d.vpc") + " " + path("a.las") + " " + path("b.las")), 0);
  EXPECT_EQ(bytesOf(dir_.file("d.vpc")), vpc);
  EXPECT_EQ(pcv("vpc --overwrite " + path("d.vpc") + " " + path("a.las") + " " + path("b.las")), 0);
  EXPECT_NE(bytesOf(dir_.file("d.vpc")), vpc);
}

}  // namespace
}  // namespace pcv::test
