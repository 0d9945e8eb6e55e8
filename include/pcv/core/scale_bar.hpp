/// @brief The scale bar of a plan view: a round length (1, 2 or 5 times a power of ten world
/// units) and how many pixels it spans, for the viewer's overlay and `pcv render --scale-bar`,
/// which also draws it into the image (a bar with end ticks and its length in a small built-in
/// digit font with the letters of the unit symbols, so no font library is needed).
#pragma once

#include <string>

#include "pcv/core/image.hpp"
#include "pcv/core/length_unit.hpp"

namespace pcv {

struct ScaleBar {
  double lengthUnits = 0.0;  ///< world units the bar stands for
  double lengthPx = 0.0;     ///< pixels it spans
  std::string label;         ///< the length as text, with the unit where known ("50 m", "0.2")
  LengthUnit unit;           ///< of the world coordinates; unknown when the data states none
};

/// The longest round length whose bar spans at most `maxPx` pixels at `unitsPerPixel`, labelled
/// with `unit`'s symbol where known.
ScaleBar scaleBarFor(double unitsPerPixel, double maxPx, const LengthUnit& unit = {});

/// Draws `bar` into the image's bottom-left corner (row 0 is the bottom), with a dark outline so
/// it reads on any background.
void drawScaleBar(Image& image, const ScaleBar& bar, uint32_t rgba);

}  // namespace pcv
