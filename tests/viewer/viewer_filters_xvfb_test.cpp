// The Filters tool under Xvfb: the legend's classes and returns change what is drawn (counted
// in lit pixels: each point of the grid has a pixel of its own), and "Export selection" writes
// exactly the points the clip box and the filters keep.
#include <filesystem>

#include "pcv/io/png_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "synthetic_point_files.hpp"
#include "xvfb_viewer_fixture.hpp"

namespace pcv {
namespace {

class ViewerFiltersXvfb : public test::ViewerXvfb {
 protected:
  /// 64 x 64 points in the plane x = 0 seen face on from x = -3: class 2 where y < 0, class 6
  /// elsewhere; return 1 or 2 by column.
  std::string writeClassedGrid() {
    std::vector<test::SyntheticPoint> points;
    for (int i = 0; i < 64; ++i) {
      for (int j = 0; j < 64; ++j) {
        points.push_back({.x = 0.0, .y = (i - 31.5) / 40, .z = (j - 31.5) / 40,
                          .red = 50000, .green = 30000, .blue = 10000,
                          .intensity = uint16_t(j * 100),
                          .classification = uint8_t(i < 32 ? 2 : 6),
                          .returnNumber = uint8_t(1 + j % 2)});
      }
    }
    test::writeBytes(path("grid.las"),
                     test::makeLas(points, {.pointFormat = 3, .scale = 0.0001}));
    return path("grid.las");
  }
  uint64_t lit(const std::string& png) {
    return test::countLitPixels(readPng(path(png)), kOpaqueBlack);
  }
};

TEST_F(ViewerFiltersXvfb, LegendTogglesAndExportWriteTheSelection) {
  const std::string grid = writeClassedGrid();
  std::string output;
  ASSERT_EQ(runViewer("0.02 wait_load\n0.1 screenshot " + path("all.png") +
                          "\n0.15 filter_classes 2\n0.2 screenshot " + path("ground.png") +
                          "\n0.25 filter_returns first\n0.3 screenshot " + path("first.png") +
                          "\n0.35 filter_off\n0.4 filter_range intensity 3200 10000\n"
                          "0.45 screenshot " +
                          path("range.png") +
                          "\n0.5 filter_off\n0.55 filter_classes 6\n"
                          "0.6 clip_box -1 -1 -1 1 1 0\n0.65 export_selection " +
                          path("out.las") + "\n0.7 quit\n",
                      &output, grid + " --eye -3,0,0"),
            0)
      << output;
  EXPECT_EQ(lit("all.png"), 64u * 64u) << output;
  EXPECT_EQ(lit("ground.png"), 32u * 64u) << output;
  EXPECT_EQ(lit("first.png"), 32u * 32u) << output;
  EXPECT_EQ(lit("range.png"), 64u * 32u) << output;  // intensity 3200-6300: j >= 32
  // Class 6 (i >= 32) below z = 0 (j < 32): 32 x 32 points, written at full resolution.
  ASSERT_TRUE(std::filesystem::exists(path("out.las"))) << output;
  std::unique_ptr<PointRecordStream> written = openLasRecords(path("out.las"));
  uint64_t count = 0;
  const uint8_t* records = nullptr;
  while (const uint64_t n = written->next(4096, records)) {
    for (uint64_t r = 0; r < n; ++r) {
      const uint8_t* record = records + r * written->format().recordLength;
      EXPECT_EQ(record[15] & 0x1f, 6);
    }
    count += n;
  }
  EXPECT_EQ(count, 32u * 32u) << output;
  EXPECT_NE(output.find("exported 1024 points"), std::string::npos) << output;
}

}  // namespace
}  // namespace pcv
