/// @brief What the row-order tests of both backends share: the flipped image, a top-row-first
/// render into a poisoned host image, the cylinders and the odd sizes.
#pragma once

#include <algorithm>
#include "pcv/core/error.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinder_viewpoints.hpp"
#include "test_support.hpp"

namespace pcv::row_order_test {

/// The image with its rows in the other order.
inline Image flipped(const Image& image) {
  Image out(image.width, image.height);
  for (int y = 0; y < image.height; ++y) {
    std::copy_n(&image.pixels[size_t(y) * image.width], image.width,
                &out.pixels[size_t(image.height - 1 - y) * image.width]);
  }
  return out;
}

/// Renders top row first into a poisoned host image.
inline Image renderTopRowFirst(Renderer& renderer, const ViewTransform& view,
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

inline std::unique_ptr<Renderer> cylinders(const char* backend) {
  std::unique_ptr<Renderer> renderer = createRenderer(backend);
  renderer->addSet(CylinderProducer(makeCylinderSet(5), 200'000));
  return renderer;
}

// Odd sizes: the middle row stays where it is and widths are not multiples of 4.
inline const test::ImageSizeCase kSizes[] = {{160, 90}, {333, 217}};

}  // namespace pcv::row_order_test
