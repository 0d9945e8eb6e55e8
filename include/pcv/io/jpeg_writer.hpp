/// @brief Writes images as baseline JPEG (libturbojpeg), for `pcv render --out x.jpg`: a tenth
/// of a PNG's size for photographs of dense clouds.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "pcv/core/image.hpp"

namespace pcv {

/// JPEG quality `pcv render` writes (libjpeg's 1-100 scale): no visible loss on point colours.
constexpr int kJpegQuality = 92;

/// `image` as an RGB JPEG file's bytes (4:2:0, `quality` 1-100, alpha dropped), flipped (JPEG
/// rows run top-down, Image rows bottom-up): for a file or a network frame. Throws
/// UnavailableError in a build without libturbojpeg.
std::vector<uint8_t> encodeJpeg(const Image& image, int quality);

/// Writes encodeJpeg(image, quality) to `path`. Throws Error naming the path when it cannot be
/// written, UnavailableError in a build without libturbojpeg.
void writeJpeg(const std::filesystem::path& path, const Image& image, int quality = kJpegQuality);

}  // namespace pcv
