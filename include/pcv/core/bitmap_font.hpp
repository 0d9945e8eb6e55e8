/// @brief A tiny 5 x 7 bitmap font for labelling images (digits, signs, a few letters).
#pragma once

#include <cstdint>
#include <string_view>

#include "pcv/core/image.hpp"

namespace pcv {

inline constexpr int kGlyphWidth = 5;    ///< glyph cells, before scaling
inline constexpr int kGlyphHeight = 7;   ///< glyph cells, before scaling
inline constexpr int kGlyphAdvance = 6;  ///< one blank column between glyphs

/// Whether the font has a glyph for `c` (digits, ". , - + ( ) > : /", space, and the lower-case
/// letters and "U S" that axis titles, unit symbols and a line's coordinates need); others are
/// drawn blank.
bool hasGlyph(char c);

/// Width in pixels of `text` drawn at `scale` (each glyph cell is scale x scale pixels).
int textWidthPx(std::string_view text, int scale = 1);

/// Draws `text` with its bottom-left corner at (x, y): row 0 of the image is the bottom, as in
/// Image. Pixels outside the image are skipped.
void drawText(Image& image, int x, int y, std::string_view text, uint32_t rgba, int scale = 1);

}  // namespace pcv
