/// @brief Writes images as PNG (libpng), for `pcv render` and screenshots.
#pragma once

#include <filesystem>

#include "pcv/core/image.hpp"

namespace pcv {

/// Writes `image` as an 8-bit RGBA PNG, flipping it (PNG rows run top-down, Image rows
/// bottom-up). Throws Error naming the path when the file cannot be written.
void writePng(const std::filesystem::path& path, const Image& image);

/// Reads an 8-bit RGB or RGBA PNG back (for tests); rows bottom-up as in Image.
Image readPng(const std::filesystem::path& path);

}  // namespace pcv
