// The filter flags end to end: `pcv render` draws what passes, `pcv convert` writes it, and bad
// flags end with the error status before anything is written.
#include <gtest/gtest.h>

#include <filesystem>

#include "grid_las_cli.hpp"
#include "json_report.hpp"
#include "pcv/io/png_writer.hpp"

namespace pcv {
namespace {

constexpr int kErrorStatus = 1;  // pcv::Error: a bad flag value, said on stderr

class FilterCli : public test::GridLasCli {
 protected:
  void SetUp() override {
    // Class 2 on the left half, 6 on the right; returns 1 and 2.
    makeGrid("pcv_filter_cli", [](int i, int j, test::SyntheticPoint& point) {
      point.intensity = uint16_t(i * 10);
      point.classification = uint8_t(i < 30 ? 2 : 6);
      point.returnNumber = uint8_t(1 + j % 2);
    });
  }
  std::string renderArgs(const std::string& out) {
    return "render --backend cpu " + las_.string() + " --size 200x150 --edl off --out " + out;
  }
};

TEST_F(FilterCli, RenderDrawsOnlyThePassingPoints) {
  const auto all = dir_ / "all.png", ground = dir_ / "ground.png", none = dir_ / "none.png";
  std::string text;
  ASSERT_EQ(run(renderArgs(all.string()), &text), 0) << text;
  ASSERT_EQ(run(renderArgs(ground.string()) + " --classes 2", &text), 0) << text;
  ASSERT_EQ(run(renderArgs(none.string()) + " --classes 2 --range intensity=1000:", &text), 0)
      << text;
  const uint64_t allLit = test::countLitPixels(readPng(all), kOpaqueBlack);
  const uint64_t groundLit = test::countLitPixels(readPng(ground), kOpaqueBlack);
  EXPECT_GT(groundLit, allLit / 4);
  EXPECT_LT(groundLit, allLit * 3 / 4);
  EXPECT_EQ(test::countLitPixels(readPng(none), kOpaqueBlack), 0u);  // class 2 is below 300
}

TEST_F(FilterCli, ConvertWritesTheSelection) {
  const auto out = dir_ / "out.las", report = dir_ / "report.json";
  std::string text;
  ASSERT_EQ(run("convert -q " + las_.string() + " " + out.string() +
                    " --clip-box 1010,2000,0,1040,2019,100 --exclude-classes 6 --returns 1"
                    " --report " +
                    report.string(),
                &text),
            0)
      << text;
  // x 1010-1029 (class 2 ends at 1029), y 2000-2019 with return 1 (even j): 20 x 10 points.
  EXPECT_EQ(test::readJsonReport(report)["convert"].value("points", 0ull), 200u);
}

TEST_F(FilterCli, BadFlagsEndWithTheErrorStatus) {
  const auto out = dir_ / "bad.png";
  for (const char* flags :
       {"--classes 2,x", "--classes 300", "--exclude-classes 5-1", "--returns second",
        "--returns 0", "--range intensity", "--range intensity=5:1",
        "--range intensity=1:2 --range gps_time=1:2", "--range colour=1:2"}) {
    std::string text;
    EXPECT_EQ(run(renderArgs(out.string()) + " " + flags, &text), kErrorStatus) << flags << text;
    EXPECT_FALSE(std::filesystem::exists(out)) << flags;
  }
  std::string text;
  EXPECT_EQ(run("render --backend cpu --points 1000 --classes 2 --out " + out.string(), &text),
            kErrorStatus)
      << text;
  EXPECT_EQ(run("convert --points 1000 " + (dir_ / "c.las").string() + " --classes 2", &text),
            kErrorStatus)
      << text;
  EXPECT_EQ(run("convert " + las_.string() + " " + (dir_ / "c.las").string() +
                    " --range colour=1:2",
                &text),
            kErrorStatus)
      << text;
}

}  // namespace
}  // namespace pcv
