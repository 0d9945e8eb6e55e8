/// @brief Writes images as PNG (libpng), for `pcv render` and screenshots.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "pcv/core/image.hpp"

namespace pcv {

/// Writes `image` as an 8-bit RGBA PNG, flipping it (PNG rows run top-down, Image rows
/// bottom-up). Throws Error naming the path when the file cannot be written.
void writePng(const std::filesystem::path& path, const Image& image);

/// `image` as an 8-bit RGBA PNG file's bytes, compressed at zlib `level` (1: fastest, for
/// frames sent over a network; 9: smallest).
std::vector<uint8_t> encodePng(const Image& image, int level);

/// Reads an 8-bit RGB or RGBA PNG back (for tests); rows bottom-up as in Image.
Image readPng(const std::filesystem::path& path);

}  // namespace pcv
