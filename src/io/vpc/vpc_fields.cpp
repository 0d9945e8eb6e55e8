#include "vpc_fields.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include <nlohmann/json.hpp>

#include "pcv/core/error.hpp"

namespace pcv {
namespace {

using nlohmann::json;

/// A field of one feature: where it is, for messages.
struct Field {
  const json& value;
  std::string pointer;
  const std::string& name;

  [[noreturn]] void fail(const std::string& expected) const {
    throw InputError(name + ": " + pointer + ": expected " + expected + ", found " +
                     describe(value));
  }
  [[noreturn]] void failMissing(const std::string& expected) const {
    throw InputError(name + ": " + pointer + ": missing, expected " + expected);
  }
  /// The member `key`, or nullopt when absent or null (optional fields).
  std::optional<Field> member(const std::string& key) const {
    const auto found = value.find(key);
    if (found == value.end() || found->is_null()) return std::nullopt;
    return Field{*found, pointer + "/" + escaped(key), name};
  }
  Field required(const std::string& key, const std::string& expected) const {
    std::optional<Field> found = member(key);
    if (!found) Field{value, pointer + "/" + escaped(key), name}.failMissing(expected);
    return *found;
  }
  const std::string& string(const std::string& expected) const {
    if (!value.is_string()) fail(expected);
    return value.get_ref<const std::string&>();
  }
  double finiteNumber() const {
    if (!value.is_number()) fail("a number");
    const double number = value.get<double>();
    if (!std::isfinite(number)) fail("a finite number");
    return number;
  }

  /// JSON pointer escaping (RFC 6901): "~" and "/" in keys.
  static std::string escaped(const std::string& key) {
    std::string out;
    for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return out;
  }
  /// A short picture of a value for messages: its type, and the value when it is small.
  static std::string describe(const json& value) {
    if (value.is_object()) return "an object";
    if (value.is_array()) return "an array of " + std::to_string(value.size());
    std::string text = value.dump(-1, ' ', true, json::error_handler_t::replace);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return std::string(value.type_name()) + " " + text;
  }
};

/// 4 numbers (2D: min x, min y, max x, max y) or 6 (3D: min x, y, z, max x, y, z).
std::array<double, 6> boxNumbers(const Field& field) {
  if (!field.value.is_array() || (field.value.size() != 4 && field.value.size() != 6)) {
    field.fail("an array of 4 or 6 numbers");
  }
  std::array<double, 6> n{};
  const bool is3d = field.value.size() == 6;
  for (size_t i = 0; i < field.value.size(); ++i) {
    const double number =
        Field{field.value[i], field.pointer + "/" + std::to_string(i), field.name}.finiteNumber();
    // Stored as min x, y, z, max x, y, z; a 2D box has z 0.
    n[is3d ? i : (i < 2 ? i : i + 1)] = number;
  }
  return n;
}

Box3d nativeBox(const Field& field) {
  const std::array<double, 6> n = boxNumbers(field);
  Box3d box;
  box.min = {n[0], n[1], n[2]};
  box.max = {n[3], n[4], n[5]};
  if (box.empty()) field.fail("minimum coordinates not above the maximum ones");
  return box;
}

GeographicBox geographicBox(const Field& field) {
  const std::array<double, 6> n = boxNumbers(field);
  const GeographicBox box{n[0], n[1], n[3], n[4], n[2], n[5]};
  // West above east is allowed: the box crosses the antimeridian (GeoJSON RFC 7946 5.2).
  const auto isLongitude = [](double d) { return d >= -180.0 && d <= 180.0; };
  const auto isLatitude = [](double d) { return d >= -90.0 && d <= 90.0; };
  if (!isLongitude(box.west) || !isLongitude(box.east) || !isLatitude(box.south) ||
      !isLatitude(box.north) || box.south > box.north || box.minZ > box.maxZ) {
    field.fail("a WGS84 box in degrees (longitudes in [-180, 180], south <= north)");
  }
  return box;
}

uint64_t pointCount(const Field& field) {
  const json& value = field.value;
  if (value.is_number_unsigned()) return value.get<uint64_t>();
  if (value.is_number_float()) {
    const double number = value.get<double>();
    if (std::isfinite(number) && number >= 0 && number < 0x1p64 && std::floor(number) == number) {
      return uint64_t(number);
    }
  }
  field.fail("a point count (a whole number, 0 or more)");
}

/// True when the asset's "roles" lists `role`.
bool hasRole(const Field& asset, const std::string& role) {
  const std::optional<Field> roles = asset.member("roles");
  if (!roles) return false;
  if (!roles->value.is_array()) roles->fail("an array of role names");
  return std::any_of(roles->value.begin(), roles->value.end(),
                     [&](const json& r) { return r.is_string() && r.get<std::string>() == role; });
}

std::string location(const Field& asset, const std::string& base, const VpcHrefRules& rules) {
  const Field href = asset.required("href", "the file's location (a string)");
  const std::string& text = href.string("the file's location (a string)");
  if (text.empty() || text.find('\0') != std::string::npos) {
    href.fail("a non-empty location without NUL characters");
  }
  try {
    return resolveVpcHref(base, text, rules);
  } catch (const InputError& error) {
    throw InputError(href.name + ": " + href.pointer + ": " + error.what());
  }
}

void readAssets(const Field& assets, const std::string& base, const VpcHrefRules& rules,
                VpcTile& tile) {
  if (!assets.value.is_object()) assets.fail("an object of assets");
  const Field data = assets.required("data", "the tile's data asset (an object with \"href\")");
  if (!data.value.is_object()) data.fail("an asset object with \"href\"");
  tile.location = location(data, base, rules);
  for (const auto& [key, value] : assets.value.items()) {
    if (key == "data" || value.is_null()) continue;
    const Field asset{value, assets.pointer + "/" + Field::escaped(key), assets.name};
    if (!asset.value.is_object()) asset.fail("an asset object");
    if (hasRole(asset, "overview")) tile.overviews.push_back(location(asset, base, rules));
  }
}

void readProperties(const Field& properties, VpcTile& tile, CoordinateSystem& crs) {
  if (!properties.value.is_object()) properties.fail("an object of item properties");
  if (const auto count = properties.member("pc:count")) tile.pointCount = pointCount(*count);
  if (const auto bbox = properties.member("proj:bbox")) tile.nativeBounds = nativeBox(*bbox);
  if (const auto wkt = properties.member("proj:wkt2")) {
    crs = coordinateSystemFromWkt(wkt->string("the CRS as WKT2 (a string)"));
  }
  if (const auto epsg = properties.member("proj:epsg")) {
    if (!epsg->value.is_number_integer() || epsg->value.get<int64_t>() <= 0 ||
        epsg->value.get<int64_t>() > 0x7fffffff) {
      epsg->fail("an EPSG code (a positive whole number)");
    }
    crs.epsg = int(epsg->value.get<int64_t>());
  }
}

}  // namespace

FeatureFields readFeature(const json& feature, const std::string& pointer, const std::string& name,
                          const std::string& base, const VpcHrefRules& rules) {
  const Field item{feature, pointer, name};
  FeatureFields fields;
  VpcTile& tile = fields.tile;
  if (const auto type = item.member("type")) {
    if (type->string("\"Feature\"") != "Feature") type->fail("\"Feature\"");
  }
  if (const auto id = item.member("id")) {
    if (id->value.is_string()) {
      tile.id = id->value.get<std::string>();
    } else if (id->value.is_number_integer()) {
      tile.id = id->value.dump();
    } else {
      id->fail("the item's id (a string)");
    }
  }
  readAssets(item.required("assets", "the item's assets (an object with \"data\")"), base, rules,
             tile);
  if (const auto properties = item.member("properties")) {
    readProperties(*properties, tile, fields.crs);
  }
  if (const auto bbox = item.member("bbox")) tile.geographicBounds = geographicBox(*bbox);
  return fields;
}

}  // namespace pcv
