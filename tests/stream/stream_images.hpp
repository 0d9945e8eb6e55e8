/// @brief What the stream tests draw: a stream's sets as a 320 x 180 image, and how many of its
/// pixels are one colour.
#pragma once

#include <algorithm>
#include <span>

#include "pcv/raster/renderer.hpp"
#include "pcv/raster/view_setup.hpp"
#include "test_support.hpp"

namespace pcv::test {

inline Image render(Renderer& renderer, std::span<const PointSetId> sets, const Camera& camera,
                    const glm::dvec3& origin) {
  Image image(320, 180, kPoisonPixel);
  renderer.render(sets, makeViewTransform(camera, 320, 180, origin), {},
                  {image.pixels.data(), 320, 180, MemorySpace::Host});
  return image;
}

inline long countColor(const Image& image, uint32_t rgba) {
  return long(std::count(image.pixels.begin(), image.pixels.end(), rgba));
}

}  // namespace pcv::test
