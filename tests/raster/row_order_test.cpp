// Images drawn top row first (RenderTarget::topRowFirst, what NumPy arrays and image files hold)
// are the bottom-up images with their rows reversed, pixel for pixel (the CUDA backend's cases:
// row_order_cuda_test.cpp).
#include <algorithm>

#include "pcv/core/error.hpp"
#include "pcv/scene/cylinder_producer.hpp"
#include "pcv/scene/cylinder_viewpoints.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

/// The image with its rows in the other order.
Image flipped(const Image& image) {
  Image out(image.width, image.height);
  for (int y = 0; y < image.height; ++y) {
    std::copy_n(&image.pixels[size_t(y) * image.width], image.width,
                &out.pixels[size_t(image.height - 1 - y) * image.width]);
  }
  return out;
}

/// Renders top row first into a poisoned host image.
Image renderTopRowFirst(Renderer& renderer, const ViewTransform& view,
                        const RenderSettings& settings) {
  Image image(view.width, view.height, test::kPoisonPixel);
  renderer.render(view, settings,
                  RenderTarget{.rgba = image.pixels.data(),
                               .width = view.width,
                               .height = view.height,
                               .memory = MemorySpace::Host,
                               .topRowFirst = true});
  return image;
}

std::unique_ptr<Renderer> cylinders(const char* backend) {
  std::unique_ptr<Renderer> renderer = createRenderer(backend);
  renderer->addSet(CylinderProducer(makeCylinderScene(5), 200'000));
  return renderer;
}

// Odd sizes: the middle row stays where it is and widths are not multiples of 4.
const test::ImageSizeCase kSizes[] = {{160, 90}, {333, 217}};

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
