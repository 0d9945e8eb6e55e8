/// @brief A point file's coordinate reference system as the file declares it (LAS OGC WKT
/// record, GeoTIFF keys), and the WGS84 footprint of a box in it, which GeoJSON and STAC ask for.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "pcv/core/bounds.hpp"
#include "pcv/core/length_unit.hpp"

namespace pcv {

/// What a file says about its coordinates. Empty (known() false) when it says nothing.
struct CoordinateSystem {
  std::string wkt;  ///< OGC WKT (version 1 or 2) as stored; empty when none
  /// Horizontal EPSG code (projected or geographic): from GeoTIFF keys, else the WKT's
  /// AUTHORITY / ID; 0 when neither states one.
  int epsg = 0;
  int verticalEpsg = 0;  ///< vertical EPSG code, the same way; 0 when none
  /// The CRS's name: the WKT's, or PROJ's for an EPSG code (completeFromDatabase); may be empty.
  std::string name;
  /// Of x and y: a length unit, or degrees for geographic coordinates; unknown when undeclared.
  LengthUnit horizontalUnit;
  /// Of z, where a vertical CRS (or GeoTIFF's VerticalUnitsGeoKey) states it.
  LengthUnit verticalUnit;

  /// Something is declared: a WKT, an EPSG code or a unit (GeoTIFF keys of a user-defined
  /// projection may give its units alone).
  bool known() const {
    return !wkt.empty() || epsg != 0 || verticalEpsg != 0 || horizontalUnit.known() ||
           verticalUnit.known();
  }
  /// The name where known ("RGF93 v1 / Lambert-93"), else "EPSG:2154" or "EPSG:2154+5720";
  /// "user-defined" for units or a vertical code alone; "unknown".
  std::string label() const;
  /// The unit lengths in the data are in: the horizontal unit where it is a length, else the
  /// vertical one; unknown for geographic coordinates without heights and undeclared units.
  LengthUnit lengthUnit() const;
  /// Same declaration: the same WKT text, or the same EPSG codes where neither has WKT.
  bool sameAs(const CoordinateSystem& other) const;
};

/// The CRS a WKT text declares (version 1 or 2): the text, and its name, EPSG codes and units as
/// the text states them, read without PROJ. Never throws; a malformed text keeps what it gave.
CoordinateSystem coordinateSystemFromWkt(std::string wkt);

/// Fills in from PROJ's database what a declaration by EPSG code leaves out: the CRS's name and
/// its horizontal and vertical units. Does nothing without PROJ or for codes it does not know.
/// Tens of milliseconds (PROJ opens its database): once per file shown, not once per tile.
void completeFromDatabase(CoordinateSystem& crs);

/// A box in longitude/latitude degrees (WGS84, GeoJSON's axis order) and the native heights.
struct GeographicBox {
  double west = 0, south = 0, east = 0, north = 0;  ///< degrees
  double minZ = 0, maxZ = 0;                        ///< native heights, not transformed
};

/// From one CRS to WGS84 longitude/latitude, set up once (PROJ's search for the operation takes
/// tens of milliseconds) and then applied to the box of every tile. One thread at a time.
class GeographicTransform {
 public:
  /// Never throws: valid() says whether the CRS could be set up.
  explicit GeographicTransform(const CoordinateSystem& crs);
  ~GeographicTransform();
  GeographicTransform(GeographicTransform&&) noexcept;
  GeographicTransform& operator=(GeographicTransform&&) noexcept;

  /// False when the CRS is unknown or cannot be transformed (no PROJ: only EPSG 4326 / 4979 or a
  /// WKT GEOGCS in degrees passes through unchanged).
  bool valid() const;
  /// The WGS84 box that holds `box`: its edges densified, so a projected tile's curved outline
  /// is covered. Empty when !valid() or the box is empty or cannot be transformed.
  std::optional<GeographicBox> box(const Box3d& box) const;
  /// The CRS as OGC WKT2:2019 for `proj:wkt2`: converted by PROJ where available (from WKT1 or
  /// the EPSG codes), else the file's WKT as stored; empty when unknown.
  const std::string& wkt2() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// True when pcv was built with PROJ (libproj-dev) and PROJ finds its database, so that it can
/// transform coordinates.
bool coordinateTransformsAvailable();

/// GeographicTransform(crs).box(box), for a single box.
std::optional<GeographicBox> geographicBoxOf(const CoordinateSystem& crs, const Box3d& box);

}  // namespace pcv
