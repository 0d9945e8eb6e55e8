/// @brief Writes images as baseline JPEG (libturbojpeg), for `pcv render --out x.jpg`: a tenth
/// of a PNG's size for photographs of dense clouds.
#pragma once

#include <filesystem>

#include "pcv/core/image.hpp"

namespace pcv {

/// JPEG quality `pcv render` writes (libjpeg's 1-100 scale): no visible loss on point colours.
constexpr int kJpegQuality = 92;

/// Writes `image` as an RGB JPEG (alpha dropped), flipping it (JPEG rows run top-down, Image
/// rows bottom-up). Throws Error naming the path when it cannot be written, UnavailableError in
/// a build without libturbojpeg.
void writeJpeg(const std::filesystem::path& path, const Image& image, int quality = kJpegQuality);

}  // namespace pcv
