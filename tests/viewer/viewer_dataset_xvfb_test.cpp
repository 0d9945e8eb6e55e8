// A dataset in the viewer under Xvfb: a folder of 2 000 tiles opens as one stream, its Data
// section lists them (the list draws only its visible rows, so the frames keep coming), a tile
// framed from the list (frame_tile, what a click does) is in front of the camera, and the tile
// boxes switch off.
#include <cmath>
#include <filesystem>

#include "pcv/core/parallel.hpp"
#include "pcv/io/png_writer.hpp"
#include "synthetic_tiles.hpp"
#include "xvfb_viewer_fixture.hpp"

namespace pcv {
namespace {

constexpr int kColumns = 50, kTiles = 2000;
constexpr uint32_t kAmber = 0xff3cd2ffu;  // TileBoxStyle's default colour, packRgba(255, 210, 60)

uint64_t countColor(const Image& image, uint32_t rgba) {
  return uint64_t(std::count(image.pixels.begin(), image.pixels.end(), rgba));
}

class DatasetXvfb : public test::ViewerXvfb {};

TEST_F(DatasetXvfb, TilesAreListedFramedAndOutlined) {
  const std::filesystem::path folder = path("tiles");
  std::filesystem::create_directories(folder);
  parallelForEachDynamic(kTiles, [&](size_t i) {
    test::writeLasTile(folder / ("t" + std::to_string(10000 + i) + ".las"), int(i) % kColumns,
                       int(i) / kColumns, 3);
  });
  std::string output;
  ASSERT_EQ(
      runViewer("0.02 wait_load\n0.1 ui_shot " + path("panels.png") + "\n0.2 screenshot " +
                    path("all.png") + "\n0.3 frame_tile 1234\n0.4 wait_load\n0.5 screenshot " +
                    path("tile.png") + "\n0.6 tile_boxes off\n0.7 screenshot " + path("plain.png") +
                    "\n0.8 quit\n",
                &output, folder.string()),
      0)
      << output;
  EXPECT_NE(output.find("streaming 2000 tiles"), std::string::npos) << output;
  EXPECT_NE(output.find("framing tile 1234"), std::string::npos) << output;
  // Tile 1234 is column 34, row 24: the camera looks at its centre from nearby.
  const std::vector<double> camera = finalCamera(output);
  ASSERT_EQ(camera.size(), 5u) << output;
  const glm::dvec3 centre(test::kEast + test::kTileSize * 34.5,
                          test::kNorth + test::kTileSize * 24.5, 100.0);
  const glm::dvec3 eye(camera[0], camera[1], camera[2]);
  const double distance = glm::length(centre - eye);
  EXPECT_LT(distance, 5 * test::kTileSize) << "framed: close to the tile, not the whole dataset";
  const float yaw = float(camera[3]), pitch = float(camera[4]);
  const glm::dvec3 forward(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw),
                           std::sin(pitch));
  EXPECT_GT(glm::dot(forward, (centre - eye) / distance), 0.95) << "looking at it";
  // The boxes are drawn over the whole dataset and around the framed tile, and switch off.
  EXPECT_GT(countColor(readPng(path("all.png")), kAmber), 1000u);
  EXPECT_GT(countColor(readPng(path("tile.png")), kAmber), 100u);
  EXPECT_EQ(countColor(readPng(path("plain.png")), kAmber), 0u);
  // The window with its panels was drawn (the list's frame came).
  const Image panels = readPng(path("panels.png"));
  EXPECT_GT(test::countLitPixels(panels, kOpaqueBlack), 10000u);
}

}  // namespace
}  // namespace pcv
