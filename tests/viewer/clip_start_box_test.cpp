// The box the Clip tool starts from: the middle half of the scene, except along the axis an
// orthographic view looks down (plan view: the height), which keeps the whole scene; and the
// Clip section's fields, which show UTM coordinates to the millimetre.
#include <string>

#include "test_support.hpp"
#include "viewer/tools/clip/clip_field_text.hpp"
#include "viewer/tools/clip/clip_start_box.hpp"

namespace pcv::app {
namespace {

// A UTM tile: 1 km across, 40 m of height above 100 m.
const Box3d kTile{{636000.0, 848000.0, 100.0}, {637000.0, 849000.0, 140.0}};

Camera planView() {
  Camera camera = Camera::lookingFrom(kTile.center() + glm::dvec3(0, 0, 500), 0.0f, -90.0f);
  camera.projection = Projection::Orthographic;
  camera.orthoWidth = 1200.0;
  return camera;
}

TEST(ClipStartBox, APerspectiveViewGetsTheMiddleHalfOnEveryAxis) {
  const Camera camera = Camera::lookingFrom({-3.0, 0.0, 0.0}, 0.0f, 0.0f);
  const ClipBox box = startingClipBox(kTile, camera);
  EXPECT_DOUBLE_EQ(box.min.x, 636250.0);
  EXPECT_DOUBLE_EQ(box.max.y, 848750.0);
  EXPECT_DOUBLE_EQ(box.min.z, 110.0);
  EXPECT_DOUBLE_EQ(box.max.z, 130.0);
}

TEST(ClipStartBox, APlanViewKeepsTheWholeHeight) {
  const Camera camera = planView();
  EXPECT_EQ(viewAxisOf(camera), 2);
  const ClipBox box = startingClipBox(kTile, camera);
  EXPECT_DOUBLE_EQ(box.min.x, 636250.0);
  EXPECT_DOUBLE_EQ(box.max.x, 636750.0);
  EXPECT_DOUBLE_EQ(box.min.y, 848250.0);
  // The ground and the tops stay: the box reaches past the scene below and above.
  EXPECT_LT(box.min.z, kTile.min.z);
  EXPECT_GT(box.max.z, kTile.max.z);
}

TEST(ClipStartBox, AFrontViewKeepsTheWholeDepth) {
  Camera camera = Camera::lookingFrom(kTile.center() - glm::dvec3(0, 900, 0), 90.0f, 0.0f);
  camera.projection = Projection::Orthographic;
  EXPECT_EQ(viewAxisOf(camera), 1);
  const ClipBox box = startingClipBox(kTile, camera);
  EXPECT_LT(box.min.y, kTile.min.y);
  EXPECT_GT(box.max.y, kTile.max.y);
  EXPECT_DOUBLE_EQ(box.min.z, 110.0);
}

TEST(ClipStartBox, AnObliqueOrthographicViewIsNoAxisView) {
  Camera camera = Camera::lookingFrom({0.0, 0.0, 10.0}, 30.0f, -45.0f);
  camera.projection = Projection::Orthographic;
  EXPECT_EQ(viewAxisOf(camera), -1);
}

TEST(ClipFieldText, UtmCoordinatesKeepTheirCentimetres) {
  EXPECT_EQ(clipFieldText(636407.01), "636407.010");
  EXPECT_EQ(clipFieldText(-6363407.25), "-6363407.250");
  EXPECT_NEAR(std::stod(clipFieldText(9999999.99)), 9999999.99, 0.005);
}

TEST(ClipFieldText, TheFieldsAreSizedForTheWidestCoordinate) {
  const ClipBox box{{636407.01, 5848000.5, 100.0}, {637000.0, 5849000.0, -1.0}};
  EXPECT_EQ(widestClipFieldText(box), "5848000.500");
}

}  // namespace
}  // namespace pcv::app
