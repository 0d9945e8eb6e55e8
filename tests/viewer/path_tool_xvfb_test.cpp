// The Path tool end to end under Xvfb: a path file loaded and played once ends on its last key,
// paused half way the camera is between the keys having turned the short way (350 -> 10
// degrees), and keys taken from bookmarks and the current view are saved as the file pcv render
// --path reads.
#include <cmath>
#include <filesystem>
#include <fstream>

#include "pcv/session/camera_path_file.hpp"
#include "xvfb_viewer_fixture.hpp"

namespace pcv {
namespace {

class PathToolXvfb : public test::ViewerXvfb {
 protected:
  std::string writePath() {
    std::ofstream(path("in.json")) << R"([{"eye": [-3, 0, 0], "yaw": 350, "pitch": 0},
                                          {"eye": [-2, 1, 0.5], "yaw": 10, "pitch": -10}])";
    return path("in.json");
  }
};

TEST_F(PathToolXvfb, PlaysALoadedPathOnceToItsLastKey) {
  std::string output;
  // Two keys: the path lasts CameraPath::kDefaultSecondsPerSegment (2 s) from 0.1 s.
  ASSERT_EQ(runViewer("0.02 path_load " + writePath() +
                          "\n0.05 path_loop off\n0.1 path_play\n2.6 path_save " + path("out.json") +
                          "\n2.7 quit\n",
                      &output),
            0)
      << output;
  const std::vector<double> camera = finalCamera(output);
  ASSERT_EQ(camera.size(), 5u) << output;
  EXPECT_NEAR(camera[0], -2.0, 1e-4);
  EXPECT_NEAR(camera[1], 1.0, 1e-4);
  EXPECT_NEAR(camera[2], 0.5, 1e-4);
  EXPECT_NEAR(std::remainder(camera[3] - glm::radians(10.0), 2 * M_PI), 0.0, 1e-4);
  EXPECT_NEAR(camera[4], glm::radians(-10.0), 1e-4);
  // Saved as loaded.
  EXPECT_EQ(readCameraPath(path("out.json")), readCameraPath(path("in.json")));
}

TEST_F(PathToolXvfb, PausedHalfWayTheCameraIsBetweenTheKeysTurnedTheShortWay) {
  std::string output;
  ASSERT_EQ(
      runViewer("0.02 path_load " + writePath() + "\n0.1 path_play\n1.1 path_pause\n1.5 quit\n",
                &output),
      0)
      << output;
  const std::vector<double> camera = finalCamera(output);
  ASSERT_EQ(camera.size(), 5u) << output;
  // About half way (one second of two, to a frame or two).
  EXPECT_NEAR(camera[0], -2.5, 0.05) << output;
  EXPECT_NEAR(camera[1], 0.5, 0.05) << output;
  // Looking along +x (yaw about 0 or 360 degrees), never the long way round through 180.
  EXPECT_GT(std::cos(camera[3]), 0.99) << output;
}

TEST_F(PathToolXvfb, KeysFromBookmarksAndTheViewAreSaved) {
  std::string output;
  // Bookmark the start, fly forward 0.4 s at 3 units/s and bookmark again; the path from the
  // bookmarks, then the view after flying on as a third key.
  ASSERT_EQ(runViewer("0.02 bookmark_save a\n0.05 key_down W\n0.45 key_up W\n"
                      "0.5 bookmark_save b\n0.55 path_from_bookmarks\n0.6 key_down W\n"
                      "0.8 key_up W\n0.85 path_add\n0.9 path_save " +
                          path("keys.json") + "\n1.0 quit\n",
                      &output),
            0)
      << output;
  const std::vector<CameraKey> keys = readCameraPath(path("keys.json"));
  ASSERT_EQ(keys.size(), 3u) << output;
  EXPECT_EQ(keys[0].eye, glm::dvec3(-3, 0, 0));
  EXPECT_NEAR(keys[1].eye.x, -3.0 + 1.2, 0.07);
  EXPECT_NEAR(keys[2].eye.x, keys[1].eye.x + 0.6, 0.07);
  for (const CameraKey& key : keys) EXPECT_NEAR(key.yawDegrees, 0.0, 1e-9);
}

}  // namespace
}  // namespace pcv
