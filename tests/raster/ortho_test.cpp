// Orthographic views on the CPU backend, against expectations worked out by hand: a known point
// lands on a known pixel in plan, front and side views (every method), the closest point along
// parallel rays wins, distance does not shrink anything, and picking finds the drawn point.
#include "pcv/core/camera_framing.hpp"
#include "pcv/raster/view_setup.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr int kWidth = 100, kHeight = 50;
constexpr uint32_t kBackground = packRgba(1, 2, 3);

/// An orthographic `view` camera at `eye`, 10 world units across: 10 pixels per unit.
Camera orthoCamera(OrthoView view, const glm::dvec3& eye) {
  Camera camera;
  camera.projection = Projection::Orthographic;
  turnToOrthoView(camera, view);
  camera.eye = eye;
  camera.orthoWidth = 10.0;
  camera.nearPlane = 1.0f;
  camera.farPlane = 100.0f;
  return camera;
}

/// The only lit pixel of an image, or (-1, -1).
std::pair<int, int> onlyLitPixel(const Image& image) {
  std::pair<int, int> found{-1, -1};
  int lit = 0;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      if (image.at(x, y) == kBackground) continue;
      found = {x, y};
      ++lit;
    }
  }
  return lit == 1 ? found : std::pair{-2, -2};
}

class OrthoCpu : public ::testing::TestWithParam<RasterMethod> {
 protected:
  Image draw(const std::vector<Point>& points, const Camera& camera,
             const glm::dvec3& origin = glm::dvec3(0.0)) {
    renderer_->clear();
    renderer_->addSet(points);
    RenderSettings settings;
    settings.method = GetParam();
    settings.background = kBackground;
    return test::renderToImage(*renderer_, makeViewTransform(camera, kWidth, kHeight, origin),
                               settings);
  }
  std::unique_ptr<Renderer> renderer_ = createRenderer("cpu");
};

TEST_P(OrthoCpu, PlanViewPutsAKnownPointOnItsPixel) {
  // 10 px per unit, the view centred on (0, 0): x = 2.05 is column (2.05 + 5) * 10 = 70.5,
  // y = 1.05 is row (1.05 + 2.5) * 10 = 35.5 (row 0 at the bottom).
  const Image image = draw({{2.05f, 1.05f, 0.0f, packRgba(200, 0, 0)}},
                           orthoCamera(OrthoView::Plan, {0.0, 0.0, 10.0}));
  EXPECT_EQ(onlyLitPixel(image), std::pair(70, 35));
  EXPECT_EQ(image.at(70, 35), packRgba(200, 0, 0));
}

TEST_P(OrthoCpu, FrontAndSideViewsPutHeightUp) {
  // Front: +x right, z up; the eye's own height is the middle row.
  const Point point{-3.05f, 7.0f, 1.55f, packRgba(0, 200, 0)};
  EXPECT_EQ(onlyLitPixel(draw({point}, orthoCamera(OrthoView::Front, {0.0, -20.0, 0.0}))),
            std::pair(19, 40));
  // Side: looking along -x from the east, +y right.
  const Point side{3.0f, 2.05f, -1.05f, packRgba(0, 200, 0)};
  EXPECT_EQ(onlyLitPixel(draw({side}, orthoCamera(OrthoView::Side, {20.0, 0.0, 0.0}))),
            std::pair(70, 14));
}

TEST_P(OrthoCpu, DistanceChangesNoPixelAndTheNearestPointWins) {
  // Parallel rays: the same x, y at any height lands on the same pixel; the top one is seen.
  const Image image = draw({{1.05f, 0.05f, -30.0f, packRgba(0, 0, 200)},
                            {1.05f, 0.05f, 5.0f, packRgba(250, 250, 0)},
                            {1.05f, 0.05f, -70.0f, packRgba(0, 250, 250)}},
                           orthoCamera(OrthoView::Plan, {0.0, 0.0, 10.0}));
  EXPECT_EQ(onlyLitPixel(image), std::pair(60, 25));
  EXPECT_EQ(image.at(60, 25), packRgba(250, 250, 0));
}

TEST_P(OrthoCpu, NearAndFarPlanesStillClip) {
  // Eye at z 10 looking down: near 1 and far 100 keep 9 > z > -90.
  const Image image = draw({{0.05f, 0.05f, 9.5f, packRgba(9, 9, 9)},
                            {1.05f, 0.05f, -95.0f, packRgba(9, 9, 9)},
                            {2.05f, 0.05f, 0.0f, packRgba(200, 9, 9)}},
                           orthoCamera(OrthoView::Plan, {0.0, 0.0, 10.0}));
  EXPECT_EQ(onlyLitPixel(image), std::pair(70, 25));
}

TEST_P(OrthoCpu, LargeCoordinatesKeepTheirPixel) {
  // UTM-sized world coordinates, offsets from an origin: the same pixel as near zero.
  const glm::dvec3 origin(500000.0, 5000000.0, 300.0);
  const Image image =
      draw({{2.05f, 1.05f, 0.0f, packRgba(200, 0, 0)}},
           orthoCamera(OrthoView::Plan, origin + glm::dvec3(0.0, 0.0, 10.0)), origin);
  EXPECT_EQ(onlyLitPixel(image), std::pair(70, 35));
}

INSTANTIATE_TEST_SUITE_P(Methods, OrthoCpu,
                         ::testing::Values(RasterMethod::Compact, RasterMethod::Packed,
                                           RasterMethod::Seed),
                         [](const auto& info) { return std::string(methodName(info.param)); });

TEST(OrthoView, PickFindsThePointAndItsDepthAlongTheView) {
  std::unique_ptr<Renderer> renderer = createRenderer("cpu");
  renderer->addSet(std::vector<Point>{{2.05f, 1.05f, 0.0f, packRgba(200, 0, 0)},
                                      {2.05f, 1.05f, -4.0f, packRgba(0, 200, 0)}});
  const ViewTransform view =
      makeViewTransform(orthoCamera(OrthoView::Plan, {0.0, 0.0, 10.0}), kWidth, kHeight);
  const std::optional<PickedPoint> picked = renderer->pick(view, {}, 71, 36);
  ASSERT_TRUE(picked.has_value());
  EXPECT_EQ(picked->pixelX, 70);
  EXPECT_EQ(picked->pixelY, 35);
  EXPECT_FLOAT_EQ(picked->viewDepth, 10.0f);
  EXPECT_FLOAT_EQ(picked->position[2], 0.0f);
}

TEST(OrthoView, WideWorldSizedPointsKeepTheirSizeAtAnyDistance) {
  std::unique_ptr<Renderer> renderer = createRenderer("cpu");
  // 0.5 world units at 10 px per unit: 5 px squares, near or far.
  renderer->addSet(std::vector<Point>{{-2.05f, 0.05f, 5.0f, packRgba(200, 0, 0)},
                                      {2.05f, 0.05f, -80.0f, packRgba(0, 200, 0)}});
  RenderSettings settings;
  settings.background = kBackground;
  settings.quality.sizeMode = PointSizeMode::World;
  settings.quality.worldSize = 0.5f;
  const Image image = test::renderToImage(
      *renderer, makeViewTransform(orthoCamera(OrthoView::Plan, {0.0, 0.0, 10.0}), kWidth, kHeight),
      settings);
  uint64_t red = 0, green = 0;
  for (uint32_t pixel : image.pixels) {
    red += pixel == packRgba(200, 0, 0);
    green += pixel == packRgba(0, 200, 0);
  }
  EXPECT_EQ(red, 25u);
  EXPECT_EQ(green, 25u);
}

TEST(OrthoView, FramingFitsTheBoundsAndNamesRoundTrip) {
  const Box3d box{{100.0, 200.0, 10.0}, {140.0, 210.0, 30.0}};
  const Camera plan = frameOrtho(OrthoView::Plan, box, 2.0f);
  EXPECT_TRUE(plan.orthographic());
  // 40 across, 10 tall at aspect 2 needs 20: the width decides, with the margin.
  // (The float yaw turns the view by ~1e-7 rad: the corners reach a little further.)
  EXPECT_NEAR(plan.orthoWidth, 40.0 * kFramingMargin, 1e-5);
  EXPECT_NEAR(glm::dot(plan.forward(), glm::dvec3(0, 0, -1)), 1.0, 1e-9);
  const Camera front = frameOrtho(OrthoView::Front, box, 1.0f, 55.0);
  EXPECT_EQ(front.orthoWidth, 55.0);
  EXPECT_NEAR(glm::dot(front.forward(), glm::dvec3(0, 1, 0)), 1.0, 1e-9);
  // Every corner between the planes.
  for (int c = 0; c < 8; ++c) {
    const glm::dvec3 corner((c & 1) ? box.max.x : box.min.x, (c & 2) ? box.max.y : box.min.y,
                            (c & 4) ? box.max.z : box.min.z);
    const double depth = glm::dot(corner - front.eye, front.forward());
    EXPECT_GT(depth, front.nearPlane);
    EXPECT_LT(depth, front.farPlane);
  }
  for (const char* name : {"plan", "front", "side"}) {
    ASSERT_TRUE(orthoViewNamed(name).has_value());
    EXPECT_STREQ(orthoViewName(*orthoViewNamed(name)), name);
  }
  EXPECT_FALSE(orthoViewNamed("top").has_value());
}

}  // namespace
}  // namespace pcv
