// A brush stroke painted on the screen selects the points within its radius of a dab in the
// view it was painted in, through the depth, whatever the camera does afterwards; boxes it
// cannot reach are refused; bad strokes are InputErrors.
#include "pcv/core/brush_selection.hpp"

#include <gtest/gtest.h>

#include <random>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/error.hpp"
#include "plan_camera.hpp"

namespace pcv {
namespace {

using test::planCamera;

TEST(BrushSelection, PlanStrokeSelectsExactlyTheDiscsAroundItsDabs) {
  // Window (500, 250) is world (0, 0); dabs at world (0, 0) and (20, 10), radius 5 units.
  const BrushSelection stroke(planCamera(), 1000.0, 500.0, {{500.0, 250.0}, {700.0, 150.0}}, 50.0);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> coordinate(-30.0, 30.0), height(-500.0, 50.0);
  uint64_t selected = 0;
  for (int i = 0; i < 20000; ++i) {
    const glm::dvec3 p(coordinate(random), coordinate(random), height(random));
    const double d = std::min(glm::length(glm::dvec2(p) - glm::dvec2(0.0, 0.0)),
                              glm::length(glm::dvec2(p) - glm::dvec2(20.0, 10.0)));
    if (std::abs(d - 5.0) > 1e-4) EXPECT_EQ(stroke.selects(p), d < 5.0) << p.x << "," << p.y;
    selected += stroke.selects(p);
  }
  EXPECT_GT(selected, 500u);
}

TEST(BrushSelection, ManyDabsAndMayMeet) {
  // A long stroke along the window's middle row: the grid finds every dab's disc.
  std::vector<glm::dvec2> dabs;
  for (int x = 100; x <= 900; x += 5) dabs.push_back({double(x), 250.0});
  const BrushSelection stroke(planCamera(), 1000.0, 500.0, dabs, 8.0);
  for (double x = -40.0; x <= 40.0; x += 0.37) {
    EXPECT_TRUE(stroke.selects({x, 0.7, 3.0})) << x;
    EXPECT_FALSE(stroke.selects({x, 0.9, 3.0})) << x;  // 9 px from the row
  }
  EXPECT_TRUE(stroke.mayMeet(Box3d{{-1.0, -1.0, -5.0}, {1.0, 1.0, 5.0}}));
  EXPECT_FALSE(stroke.mayMeet(Box3d{{-5.0, 5.0, -5.0}, {5.0, 9.0, 5.0}}));
  EXPECT_FALSE(stroke.mayMeet(Box3d{}));
}

TEST(BrushSelection, PerspectiveStrokesSelectInFrontOnly) {
  const Camera camera;  // at (-3, 0, 0) looking along +x
  const BrushSelection stroke(camera, 1280.0, 720.0, {{640.0, 360.0}}, 20.0);
  EXPECT_TRUE(stroke.selects({0.0, 0.0, 0.0}));
  EXPECT_TRUE(stroke.selects({50.0, 0.0, 0.0}));
  EXPECT_FALSE(stroke.selects({-6.0, 0.0, 0.0}));  // behind the eye
  EXPECT_FALSE(stroke.selects({0.0, 1.0, 0.0}));
  EXPECT_TRUE(stroke.mayMeet(Box3d{{-10.0, -1.0, -1.0}, {1.0, 1.0, 1.0}}));  // crosses the eye
  // Kept in its view: the same points whatever view is kept beside.
  const BrushSelection again(stroke.view(), 1280.0, 720.0, stroke.dabs(), 20.0);
  EXPECT_TRUE(again.selects({0.0, 0.0, 0.0}));
  EXPECT_FALSE(again.selects({0.0, 1.0, 0.0}));
}

TEST(BrushSelection, BadStrokesAreRefused) {
  const Camera camera;
  EXPECT_THROW(BrushSelection(camera, 100.0, 100.0, {}, 5.0), InputError);
  EXPECT_THROW(BrushSelection(camera, 100.0, 100.0, {{1.0, 1.0}}, 0.0), InputError);
  EXPECT_THROW(BrushSelection(camera, 100.0, 100.0, {{1.0, 1.0}}, 1e9), InputError);
  EXPECT_THROW(BrushSelection(camera, 0.0, 100.0, {{1.0, 1.0}}, 5.0), InputError);
  EXPECT_THROW(BrushSelection(camera, 100.0, 100.0, {{NAN, 1.0}}, 5.0), InputError);
  EXPECT_THROW(BrushSelection(camera, 100.0, 100.0, {{1e300, 1.0}}, 5.0), InputError);
  std::vector<glm::dvec2> tooMany(BrushSelection::kMaxDabs + 1, glm::dvec2(1.0));
  EXPECT_THROW(BrushSelection(camera, 100.0, 100.0, tooMany, 5.0), InputError);
  SelectionView bad = SelectionView::of(camera, 100.0, 100.0);
  bad.viewProjection[1][1] = INFINITY;
  EXPECT_THROW(BrushSelection(bad, 100.0, 100.0, {{1.0, 1.0}}, 5.0), InputError);
}

}  // namespace
}  // namespace pcv
