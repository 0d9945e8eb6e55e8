// Double-click picking: the closest point drawn at the pixel, found with the renderer's projection.
#include <vector>

#include "test_support.hpp"
#include "viewer/point_picker.hpp"

namespace pcv::app {
namespace {

TEST(PointPicker, PicksTheClosestPointAtTheCentre) {
  Camera camera;  // at (-3,0,0) looking along +x
  const ViewTransform view = test::makeView(camera, 101, 101);
  std::vector<Point> points = {
      {2.0f, 0.0f, 0.0f, kOpaqueBlack},   // behind the next one
      {0.5f, 0.0f, 0.0f, kOpaqueBlack},   // closest on the axis
      {0.0f, 1.5f, 0.0f, kOpaqueBlack},   // far to the side
      {-4.0f, 0.0f, 0.0f, kOpaqueBlack},  // behind the camera
  };
  const auto picked = pickPoint(points, view, 50, 50);
  ASSERT_TRUE(picked.has_value());
  EXPECT_DOUBLE_EQ(picked->x, 0.5);
}

TEST(PointPicker, NothingUnderAnEmptyPixel) {
  Camera camera;
  const ViewTransform view = test::makeView(camera, 101, 101);
  std::vector<Point> points = {{0.0f, 1.5f, 0.0f, kOpaqueBlack}};
  EXPECT_FALSE(pickPoint(points, view, 50, 50).has_value());
}

TEST(PointPicker, AgreesWithTheCpuRendererOnTheCylinders) {
  auto renderer = createRenderer("cpu");
  const PointSetId set = renderer->addSet(CylinderProducer(makeCylinderScene(1), 100000));
  Camera camera;
  const ViewTransform view = test::makeView(camera, 160, 90);
  RenderSettings settings;
  const Image image = test::renderToImage(*renderer, view, settings);
  const std::vector<Point> points = renderer->downloadPoints(set);
  int checked = 0;
  for (int y = 0; y < view.height; y += 7) {
    for (int x = 0; x < view.width; x += 7) {
      const auto picked = pickPoint(points, view, x, y, 0);
      EXPECT_EQ(picked.has_value(), image.at(x, y) != settings.background) << x << "," << y;
      checked += picked.has_value();
    }
  }
  EXPECT_GT(checked, 20);
}

}  // namespace
}  // namespace pcv::app
