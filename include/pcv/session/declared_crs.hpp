/// @brief The coordinate system a scene's files declare, found once so that the lengths the
/// front ends show (measurements, the scale bar, profiles) say their unit.
#pragma once

#include <string>
#include <vector>

#include "pcv/io/coordinate_system.hpp"

namespace pcv {

/// The CRS the first of `files` declares (folders and .vpc files stand for their first tile; the
/// tiles of a dataset and files merged in core are taken to share it), completed from PROJ's
/// database where the file gives an EPSG code alone. Unknown for no file, a format that declares
/// none, a remote file (no request is made for a label) and a file that cannot be read (its
/// error comes where it is opened). Reads one header; never throws.
CoordinateSystem declaredCoordinateSystem(const std::vector<std::string>& files);

}  // namespace pcv
