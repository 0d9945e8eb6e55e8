/// @brief The unit of a cloud's coordinates (metre, US survey foot, international foot), as its
/// coordinate system declares it, so that lengths are shown with their unit and a tile in US
/// feet does not read like metres.
#pragma once

#include <string>

namespace pcv {

/// A unit of length, or the angular unit of geographic coordinates. Empty (known() false) when
/// the file declares none.
struct LengthUnit {
  /// "metre", "US survey foot", "foot" (the international foot), "degree", or the name the file
  /// gives any other unit; empty when not declared.
  std::string name;
  double metres = 0.0;  ///< metres per unit; 0 for an angular unit or an undeclared one

  bool known() const { return !name.empty(); }
  bool angular() const { return known() && metres == 0.0; }
  /// "m", "ft", "ftUS", "deg"; the name for any other unit; empty when unknown.
  std::string symbol() const;
  bool operator==(const LengthUnit&) const = default;
};

/// The EPSG unit codes GeoTIFF keys carry: 9001 metre, 9002 foot, 9003 US survey foot, 9102
/// degree (and a few rarer ones); unknown for any other code.
LengthUnit lengthUnitFromEpsg(int code);

/// A unit as a WKT UNIT / LENGTHUNIT / ANGLEUNIT states it: its name and its size (metres per
/// unit, or radians per unit when `angular`). The sizes of metre, foot and US survey foot give
/// their usual names whatever the file calls them ("US survey foot", "Foot_US", "foot_survey_us").
LengthUnit lengthUnitFromWkt(const std::string& name, double size, bool angular);

/// "12.345 m": `value` with `digits` decimals, then the unit's symbol; the number alone when the
/// unit is unknown.
std::string formatLength(double value, const LengthUnit& unit, int digits = 3);

}  // namespace pcv
