// A polygon drawn on the screen selects the points whose projection in that view falls inside
// it (or outside), whatever the camera does afterwards; boxes it cannot reach are refused.
#include "pcv/core/polygon_selection.hpp"

#include <gtest/gtest.h>

#include <random>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/error.hpp"
#include "plan_camera.hpp"

namespace pcv {
namespace {

using test::planCamera;

TEST(PolygonSelection, PlanViewTriangleSelectsExactlyItsInside) {
  // Window (500, 250) is world (0, 0); y grows downwards in the window, +y upwards in the world.
  // The triangle's world corners: (-10, -10), (20, -10), (-10, 20).
  const PolygonSelection triangle(planCamera(), 1000.0, 500.0,
                                  {{400.0, 350.0}, {700.0, 350.0}, {400.0, 50.0}});
  std::mt19937 random(4);
  std::uniform_real_distribution<double> coordinate(-30.0, 30.0), height(-50.0, 50.0);
  uint64_t selected = 0;
  for (int i = 0; i < 20000; ++i) {
    const glm::dvec3 p(coordinate(random), coordinate(random), height(random));
    const double margin = 1e-4;  // the float yaw and pitch turn the view by ~1e-7
    const bool inside = p.x >= -10.0 && p.y >= -10.0 && p.x + p.y <= 10.0;
    const bool clear = p.x > -10.0 + margin && p.y > -10.0 + margin && p.x + p.y < 10.0 - margin;
    if (inside == clear) EXPECT_EQ(triangle.selects(p), inside) << p.x << "," << p.y;
    selected += triangle.selects(p);
  }
  EXPECT_GT(selected, 1000u);
  const PolygonSelection outside(planCamera(), 1000.0, 500.0,
                                 {{400.0, 350.0}, {700.0, 350.0}, {400.0, 50.0}}, false);
  EXPECT_FALSE(outside.selects({0.0, 0.0, 0.0}));
  EXPECT_TRUE(outside.selects({25.0, 25.0, 0.0}));
}

TEST(PolygonSelection, PerspectiveViewsSelectAlongTheirRays) {
  // The seed's camera at (-3, 0, 0) looking along +x: a square around the window's centre
  // selects a cone around the axis, and nothing behind the camera.
  const Camera camera;
  const PolygonSelection square(camera, 1280.0, 720.0,
                                {{540.0, 260.0}, {740.0, 260.0}, {740.0, 460.0}, {540.0, 460.0}});
  EXPECT_TRUE(square.selects({0.0, 0.0, 0.0}));
  EXPECT_TRUE(square.selects({50.0, 0.0, 0.0}));
  EXPECT_FALSE(square.selects({-6.0, 0.0, 0.0}));  // behind the eye
  EXPECT_FALSE(square.selects({0.0, 2.0, 0.0}));
  EXPECT_TRUE(square.mayMeet(Box3d{{-0.1, -0.1, -0.1}, {0.1, 0.1, 0.1}}));
  EXPECT_FALSE(square.mayMeet(Box3d{{0.0, 2.0, -0.1}, {0.1, 2.5, 0.1}}));
}

TEST(PolygonSelection, PlanPolygonsSelectAPrismUnboundedInZ) {
  // An L shape at UTM-like coordinates.
  const PolygonSelection l = PolygonSelection::plan(
      {{500000, 5000000}, {500010, 5000000}, {500010, 5000004}, {500004, 5000004},
       {500004, 5000010}, {500000, 5000010}});
  EXPECT_TRUE(l.selects({500002, 5000008, -1e6}));
  EXPECT_TRUE(l.selects({500008, 5000002, 1e6}));
  EXPECT_FALSE(l.selects({500008, 5000008, 0}));  // the notch
  EXPECT_TRUE(l.selects({500010, 5000002, 0}));   // edges are inside
  EXPECT_TRUE(l.mayMeet(Box3d{{500001, 5000001, 50}, {500002, 5000002, 60}}));
  EXPECT_FALSE(l.mayMeet(Box3d{{500011, 5000001, 50}, {500012, 5000002, 60}}));
  EXPECT_EQ(l.planVertices().size(), 6u);
}

TEST(PolygonSelection, VertexListsAreParsedOrRefused) {
  EXPECT_EQ(parsePolygonVertices("1,2,3.5,4,-5,6e1", "--clip-polygon"),
            (std::vector<glm::dvec2>{{1, 2}, {3.5, 4}, {-5, 60}}));
  for (const char* bad : {"1,2,3,4", "1,2,3,4,5", "1,2,3,x,5,6", "1,2,3,4,5,6,", ",1,2,3,4,5,6",
                          "inf,1,2,3,4,5", "1 2 3 4 5 6", ""}) {
    EXPECT_THROW(parsePolygonVertices(bad, "--clip-polygon"), InputError) << bad;
  }
  std::string many;
  for (size_t i = 0; i <= PolygonSelection::kMaxVertices; ++i) {
    many += (i ? "," : "") + std::to_string(i) + "," + std::to_string(i % 2);
  }
  EXPECT_THROW(parsePolygonVertices(many, "--clip-polygon"), InputError);
}

TEST(PolygonSelection, TooFewPointsAreRefused) {
  EXPECT_THROW(PolygonSelection(Camera{}, 100.0, 100.0, {{1.0, 1.0}, {2.0, 2.0}}), InputError);
}

}  // namespace
}  // namespace pcv
