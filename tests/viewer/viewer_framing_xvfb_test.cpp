// Framing beside the sidebar: Home and new data are fitted into the part of the window the
// sidebar leaves free, centred there, and in the whole window once the sidebar is collapsed.
// Checked by projecting the reported scene bounds and orbit target with the reported camera.

#include <gtest/gtest.h>

#include <cmath>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "json_report.hpp"
#include "pcv/core/camera.hpp"
#include "synthetic_tiles.hpp"
#include "xvfb_viewer_fixture.hpp"

namespace pcv {
namespace {

glm::dvec3 vec3(const nlohmann::json& array) {
  return {array[0].get<double>(), array[1].get<double>(), array[2].get<double>()};
}

/// The horizontal window position (pixels from the left) `world` projects to with the
/// reported perspective camera.
double projectedX(const nlohmann::json& report, const glm::dvec3& world) {
  Camera camera;
  camera.eye = vec3(report["camera"]["eye"]);
  camera.yawRadians = report["camera"]["yaw"].get<float>();
  camera.pitchRadians = report["camera"]["pitch"].get<float>();
  camera.fovYRadians = report["camera"]["fovY"].get<float>();
  camera.upAxis = parseUpAxis(report["camera"]["upAxis"].get<std::string>());
  const double width = report["window"]["width"].get<double>();
  const double aspect = width / report["window"]["height"].get<double>();
  const glm::dvec3 offset = world - camera.eye;
  const double x = glm::dot(offset, camera.right()), z = glm::dot(offset, camera.forward());
  const double ndcX = x / (z * std::tan(0.5 * double(camera.fovYRadians)) * aspect);
  return 0.5 * (ndcX + 1.0) * width;
}

glm::dvec3 boundsCentre(const nlohmann::json& report) {
  return 0.5 * (vec3(report["sceneBounds"]["min"]) + vec3(report["sceneBounds"]["max"]));
}

using ViewerFraming = test::ViewerXvfb;

TEST_F(ViewerFraming, DataIsCentredRightOfTheSidebarAndStaysThereWhileOrbiting) {
  const std::string las = test::writeLasTile(path("tile.las"), 0, 0, 300).string();
  std::string output;
  ASSERT_EQ(runViewer("0.02 wait_load\n0.3 mode orbit\n0.4 mouse_move 800 400\n"
                      "0.42 mouse_down left\n0.5 mouse_move 860 420\n0.6 mouse_up left\n0.7 quit\n",
                      &output, "--report " + path("orbit.json") + " " + las),
            0)
      << output;
  const nlohmann::json report = test::readJsonReport(path("orbit.json"));
  ASSERT_TRUE(report.contains("sceneBounds")) << output;
  const double width = report["window"]["width"].get<double>();
  const double share = report["window"]["sidebarShare"].get<double>();
  ASSERT_GT(share, 0.1) << "the sidebar is open at the start";
  const double freeCentre = width * (1.0 + share) / 2.0;
  // The data's centre is in the middle of the free part (frameBounds centres the extremes of
  // the data's projection, not its centre: a few pixels apart), and the orbit turns around it,
  // so it is still there after the drag: orbiting does not pull it to the window's middle.
  EXPECT_LT(glm::length(vec3(report["orbitTarget"]) - boundsCentre(report)), 1e-6)
      << "the pivot is the data's centre";
  EXPECT_NEAR(projectedX(report, boundsCentre(report)), freeCentre, 6.0) << output;
  EXPECT_GT(std::abs(report["camera"]["yaw"].get<double>() - 0.7854), 0.1) << "it did orbit";
}

TEST_F(ViewerFraming, HomeFramesRightOfTheSidebar) {
  const std::string las = test::writeLasTile(path("tile.las"), 0, 0, 300).string();
  std::string output;
  // Turned away first (a pan drag moves the data across the window), then Home.
  ASSERT_EQ(runViewer("0.02 wait_load\n0.1 mode orbit\n0.12 mouse_move 800 400\n"
                      "0.14 mouse_down right\n0.2 mouse_move 500 300\n0.22 mouse_up right\n"
                      "0.4 key_press Home\n0.6 quit\n",
                      &output, "--report " + path("home.json") + " " + las),
            0)
      << output;
  const nlohmann::json report = test::readJsonReport(path("home.json"));
  ASSERT_TRUE(report.contains("sceneBounds")) << output;
  const double width = report["window"]["width"].get<double>();
  const double share = report["window"]["sidebarShare"].get<double>();
  ASSERT_GT(share, 0.1) << "the sidebar is open";
  EXPECT_NEAR(projectedX(report, boundsCentre(report)), width * (1.0 + share) / 2.0, 6.0) << output;
}

TEST_F(ViewerFraming, CollapsedSidebarFramesInTheWholeWindow) {
  const std::string las = test::writeLasTile(path("tile.las"), 0, 0, 300).string();
  std::string output;
  // Collapsed, the sidebar leaves the whole window free: the scene, not yet moved, is framed
  // again there; Home frames it there too.
  ASSERT_EQ(runViewer("0.02 wait_load\n0.3 sidebar collapsed\n0.5 key_press Home\n0.7 quit\n",
                      &output, "--report " + path("collapsed.json") + " " + las),
            0)
      << output;
  const nlohmann::json report = test::readJsonReport(path("collapsed.json"));
  ASSERT_TRUE(report.contains("sceneBounds")) << output;
  EXPECT_EQ(report["window"]["sidebarShare"].get<double>(), 0.0) << output;
  const double width = report["window"]["width"].get<double>();
  EXPECT_NEAR(projectedX(report, boundsCentre(report)), width / 2.0, 6.0) << output;
}

}  // namespace
}  // namespace pcv
