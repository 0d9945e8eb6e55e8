// The `pcv render` command line of a view: angles that come back to the same float bits, paths
// quoted for the shell, and every setting that changes the image written out.
#include <cstdlib>
#include <random>

#include <glm/gtc/constants.hpp>

#include "options/render_arguments.hpp"
#include "test_support.hpp"

namespace pcv::app {
namespace {

TEST(RenderArguments, AnglesReproduceEveryFloatBit) {
  std::mt19937 random(5);
  std::uniform_real_distribution<float> angle(-glm::pi<float>(), glm::pi<float>());
  for (int i = 0; i < 200000; ++i) {
    const float radians = angle(random);
    ASSERT_EQ(float(glm::radians(degreesReproducing(radians))), radians) << radians;
  }
  EXPECT_EQ(float(glm::radians(degreesReproducing(glm::half_pi<float>()))), glm::half_pi<float>());
}

TEST(RenderArguments, AnglesPrintAsTheShortestDegreesThatReproduceThem) {
  EXPECT_EQ(degreesText(float(glm::radians(-30.0))), "-30");
  EXPECT_EQ(degreesText(float(glm::radians(12.5))), "12.5");
  EXPECT_EQ(degreesText(0.0f), "0");
  std::mt19937 random(6);
  std::uniform_real_distribution<float> angle(-glm::pi<float>(), glm::pi<float>());
  for (int i = 0; i < 20000; ++i) {
    const float radians = angle(random);
    ASSERT_EQ(float(glm::radians(std::strtod(degreesText(radians).c_str(), nullptr))), radians);
  }
  ViewDescription view;
  // As --yaw 90 --pitch -30 set them.
  view.camera.yawRadians = float(glm::radians(90.0));
  view.camera.pitchRadians = float(glm::radians(-30.0));
  const std::string command = renderCommand(view);
  EXPECT_NE(command.find("--yaw 90 --pitch -30 "), std::string::npos) << command;
}

TEST(RenderArguments, PathsAreQuotedForTheShell) {
  EXPECT_EQ(shellQuoted("/data/a-b_c.las"), "/data/a-b_c.las");
  EXPECT_EQ(shellQuoted("/data/my scan.e57"), "'/data/my scan.e57'");
  EXPECT_EQ(shellQuoted("it's"), "'it'\\''s'");
}

TEST(RenderArguments, TheCommandSaysEverythingThatChangesTheImage) {
  ViewDescription view{.files = {"/d/a.las", "/d/b c.ply"}, .widthPx = 640, .heightPx = 360};
  view.camera = Camera::lookingFrom({637000.5, 4849000.25, 12.0}, 0.0f, 0.0f, UpAxis::Y);
  view.camera.yawRadians = 0.7f;
  view.camera.nearPlane = 0.5f;
  view.camera.farPlane = 2000.0f;
  view.settings.method = RasterMethod::Compact;
  view.settings.quality.pointSizePx = 3;
  view.settings.quality.edl = EdlMode::On;
  view.settings.clip.box = ClipBox{{1, 2, 3}, {4, 5, 6.5}};
  view.coloring.mode = ColorMode::Attribute;
  view.coloring.attribute = "intensity";
  view.coloring.range = ValueRange{0.25, 0.75};
  view.read.scan = 2;
  const std::string command = renderCommand(view);
  for (const char* part :
       {"pcv render /d/a.las '/d/b c.ply' --size 640x360", "--eye 637000.5,4849000.25,12 --yaw ",
        "--near 0.5 --far 2000 --up y", "--method compact", "--point-size 3", "--edl on",
        "--clip-box 1,2,3,4,5,6.5", "--color-attribute intensity", "--color-range 0.25,0.75",
        "--scan 2", "--out pcv-view.png"}) {
    EXPECT_NE(command.find(part), std::string::npos) << part << " in " << command;
  }
  const ViewDescription cylinders{.demoPoints = 200000, .demoSeed = 3};
  EXPECT_NE(renderCommand(cylinders).find("pcv render --points 200000 --seed 3 --size 1280x720"),
            std::string::npos);
}

}  // namespace
}  // namespace pcv::app
