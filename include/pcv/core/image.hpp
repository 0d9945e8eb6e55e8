/// @brief An RGBA8 image in host memory, as the renderers produce it.
#pragma once

#include <cstdint>
#include <vector>

namespace pcv {

/// Pixels are packed RGBA8 (see core/point.hpp). Row 0 is the BOTTOM row, as in OpenGL, so the
/// image can be blitted as it is; writers to top-down formats (PNG) flip it.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint32_t> pixels;  ///< width * height packed RGBA8 values

  Image() = default;
  Image(int w, int h, uint32_t fill = 0) : width(w), height(h), pixels(size_t(w) * h, fill) {}
  uint32_t& at(int x, int y) { return pixels[size_t(y) * width + x]; }
  uint32_t at(int x, int y) const { return pixels[size_t(y) * width + x]; }
};

}  // namespace pcv
