/// @brief The size of an image a front end asks for, and its limit, so the command line, Python
/// and the viewer's window accept the same sizes and refuse the others with the same message.
#pragma once

#include <string_view>

namespace pcv {

/// Pixels per side of the largest image: the texture size every GL implementation pcv targets
/// allows, and far beyond any screen.
inline constexpr int kMaxImageSidePx = 16384;

struct ImageSize {
  int width = 1280;  ///< pixels
  int height = 720;  ///< pixels
};

/// Throws InputError unless both sides are 1 .. kMaxImageSidePx pixels.
void checkImageSize(const ImageSize& size);

/// "WIDTHxHEIGHT" ("1920x1080"; an upper-case X too), checked as checkImageSize does; throws
/// InputError otherwise.
ImageSize parseImageSize(std::string_view text);

}  // namespace pcv
