// The Clip tool's handles: found under the cursor, and dragged so a face follows the cursor
// along its axis on screen, the centre moves in the view plane, faces never cross.
#include "test_support.hpp"
#include "viewer/tools/clip/clip_handles.hpp"

namespace pcv::app {
namespace {

// Looking along +x from (-10, 0, 0) at a 2 x 2 x 2 box at the origin: y runs left on screen,
// z up.
const Camera kCamera = Camera::lookingFrom({-10.0, 0.0, 0.0}, 0.0f, 0.0f);

ClipSettings unitBox() {
  return {.box = ClipBox{{-1.0, -1.0, -1.0}, {1.0, 1.0, 1.0}}};
}

TEST(ClipHandles, TheHandleUnderTheCursorIsFound) {
  const ScreenProjector projector(kCamera, 1280, 720);
  const ClipSettings clip = unitBox();
  const auto maxZ = projector.toWindow({0.0, 0.0, 1.0});
  ASSERT_TRUE(maxZ);
  EXPECT_NEAR(maxZ->x, 640.0, 1e-9);
  EXPECT_LT(maxZ->y, 360.0);  // above the centre
  EXPECT_EQ(handleAt(clip, projector, *maxZ + glm::dvec2(3, 2), 8.0), ClipHandle::BoxMaxZ);
  EXPECT_EQ(handleAt(clip, projector, {10, 10}, 8.0), ClipHandle::None);
  // The x faces and the centre lie on one line of sight: the face in front is taken.
  EXPECT_EQ(handleAt(clip, projector, {640, 360}, 8.0), ClipHandle::BoxMinX);
}

TEST(ClipHandles, AFaceFollowsTheCursorAlongItsAxis) {
  const ScreenProjector projector(kCamera, 1280, 720);
  ClipSettings clip = unitBox();
  const auto top = *projector.toWindow({0.0, 0.0, 1.0});
  // Dragging the top face 40 px up (window y down) and 25 px sideways, which does not count.
  const double perPixel = projector.unitsPerPixelAt({0.0, 0.0, 1.0});
  dragHandle(clip, ClipHandle::BoxMaxZ, projector, top, top + glm::dvec2(25.0, -40.0));
  EXPECT_NEAR(clip.box->max.z, 1.0 + 40.0 * perPixel, 1e-3);
  EXPECT_EQ(clip.box->min.z, -1.0);
  EXPECT_EQ(clip.box->max.y, 1.0);
  // A face dragged past the opposite one stops there.
  dragHandle(clip, ClipHandle::BoxMinY, projector, {0, 0}, {-5000.0, 0.0});
  EXPECT_EQ(clip.box->min.y, clip.box->max.y);
}

TEST(ClipHandles, CentreMovesTheBoxInTheViewPlaneAndTheSlabAlongItsNormal) {
  const ScreenProjector projector(kCamera, 1280, 720);
  ClipSettings clip = unitBox();
  clip.slab = ClipSlab{.normal = {0.0, 0.0, 2.0}, .centre = {0.0, 0.0, 0.0}, .thickness = 0.5};
  const double perPixel = projector.unitsPerPixelAt({0.0, 0.0, 0.0});
  dragHandle(clip, ClipHandle::BoxCentre, projector, {640, 360}, {660, 350});
  // Right on screen is -y here, up is +z; the size is kept.
  EXPECT_NEAR(clip.box->min.y, -1.0 - 20.0 * perPixel, 1e-9);
  EXPECT_NEAR(clip.box->max.z, 1.0 + 10.0 * perPixel, 1e-9);
  EXPECT_NEAR(clip.box->max.x - clip.box->min.x, 2.0, 1e-12);
  dragHandle(clip, ClipHandle::SlabCentre, projector, {640, 360}, {640, 300});
  EXPECT_NEAR(clip.slab->centre.z, 60.0 * perPixel, 1e-3);
  EXPECT_EQ(clip.slab->centre.x, 0.0);
}

}  // namespace
}  // namespace pcv::app
