/// @brief What an OGC WKT coordinate system (version 1 or 2) says beyond its text: its name, the
/// EPSG codes of its horizontal and vertical parts and their units, read by a small tolerant
/// parser (no PROJ needed), so `pcv info` and the length labels know a tile's units.
#pragma once

#include <string>
#include <string_view>

#include "pcv/core/length_unit.hpp"

namespace pcv::io {

struct WktFacts {
  std::string name;           ///< the outermost CRS's name; empty when the text has none
  int epsg = 0;               ///< the horizontal part's EPSG code (AUTHORITY / ID); 0 when none
  int verticalEpsg = 0;       ///< the vertical part's EPSG code; 0 when none
  LengthUnit horizontalUnit;  ///< of x and y: a length, or degrees for geographic coordinates
  LengthUnit verticalUnit;    ///< of z, where a vertical CRS or a 3D axis states it
};

/// Never throws: a malformed or truncated text gives what could be read before the fault.
WktFacts readWktFacts(std::string_view wkt);

}  // namespace pcv::io
