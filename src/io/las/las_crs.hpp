/// @brief The coordinate system a LAS/LAZ/COPC file declares in its VLRs: the OGC WKT record
/// (LAS 1.4) and the GeoTIFF key directory (the older way), read from the header alone.
#pragma once

#include <cstdint>
#include <span>

#include "las_header.hpp"
#include "pcv/io/coordinate_system.hpp"

namespace pcv::io {

/// The WKT record ("LASF_Projection" 2112) where present, with the name, EPSG codes and units it
/// states; then what the GeoTIFF keys add: the EPSG codes (ProjectedCSTypeGeoKey or
/// GeographicTypeGeoKey, VerticalCSTypeGeoKey) and units (ProjLinearUnitsGeoKey,
/// GeogAngularUnitsGeoKey, VerticalUnitsGeoKey). A malformed key directory is ignored, as the
/// points do not depend on it. Units implied by an EPSG code alone: completeFromDatabase.
CoordinateSystem lasCoordinateSystem(const LasHeader& header, std::span<const uint8_t> file);
CoordinateSystem lasCoordinateSystem(const LasHeader& header, const ByteSource& source);

}  // namespace pcv::io
