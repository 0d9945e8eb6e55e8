// Images drawn top row first (RenderTarget::topRowFirst, what NumPy arrays and image files hold)
// are the bottom-up images with their rows reversed, pixel for pixel (the CUDA backend's cases:
// row_order_cuda_test.cpp).
#include <algorithm>

#include "pcv/core/error.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinder_viewpoints.hpp"
#include "row_order_support.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

using namespace row_order_test;


TEST(RowOrder, CpuTopRowFirstIsTheBottomUpImageFlipped) {
  const auto renderer = cylinders("cpu");
  for (const auto& size : kSizes) {
    const ViewTransform view =
        test::makeView(kCylinderViewpoints[0].camera(), size.width, size.height);
    for (const bool quality : {false, true}) {
      RenderSettings settings;
      settings.background = packRgba(7, 8, 9);
      if (quality) settings.quality.pointSizePx = 3;  // the quality pipeline's resolve too
      const Image bottomUp = test::renderToImage(*renderer, view, settings);
      ASSERT_GT(test::countLitPixels(bottomUp, settings.background), 0u);
      const Image topDown = renderTopRowFirst(*renderer, view, settings);
      EXPECT_EQ(test::countDifferentPixels(topDown, flipped(bottomUp)), 0u)
          << size.width << "x" << size.height << (quality ? " quality" : "");
    }
  }
}

TEST(RowOrder, SurfaceTargetsAreNeverTopRowFirst) {
  const auto renderer = cylinders("cpu");
  const ViewTransform view = test::makeView(kCylinderViewpoints[0].camera(), 64, 32);
  EXPECT_THROW(
      renderer->render(
          view, {},
          RenderTarget{
              .width = 64, .height = 32, .memory = MemorySpace::CudaSurface, .topRowFirst = true}),
      InputError);
}

}  // namespace
}  // namespace pcv
