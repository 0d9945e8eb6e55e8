// CRS labels and comparisons, and the WGS84 footprint through PROJ when pcv is built with it
// (PCV_WITH_PROJ). Without PROJ only geographic coordinates pass through.
#include "pcv/io/coordinate_system.hpp"

#include <memory>

#include "common/wkt_facts.hpp"

#if PCV_WITH_PROJ
#include <proj.h>
#endif

namespace pcv {
namespace {

/// The first quoted string of a WKT: the CRS's name in WKT1 and WKT2 alike.
std::string wktName(const std::string& wkt) {
  const size_t open = wkt.find('"');
  if (open == std::string::npos) return {};
  const size_t close = wkt.find('"', open + 1);
  if (close == std::string::npos) return {};
  return wkt.substr(open + 1, close - open - 1);
}

/// A WKT whose outermost keyword is a geographic CRS, so its x and y are already degrees.
[[maybe_unused]] bool isGeographicWkt(const std::string& wkt) {
  const size_t start = wkt.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return false;
  for (const char* keyword : {"GEOGCS[", "GEOGCRS[", "GEOGRAPHICCRS["}) {
    if (wkt.compare(start, std::char_traits<char>::length(keyword), keyword) == 0) return true;
  }
  return false;
}

/// "EPSG:2154" or "EPSG:2154+5720" (PROJ reads both); empty without a code.
std::string epsgLabel(const CoordinateSystem& crs) {
  if (crs.epsg == 0) return {};
  std::string label = "EPSG:";
  label += std::to_string(crs.epsg);
  if (crs.verticalEpsg != 0) {
    label += '+';
    label += std::to_string(crs.verticalEpsg);
  }
  return label;
}

[[maybe_unused]] bool isGeographicEpsg(int code) {
  return code == 4326 || code == 4979;  // WGS84 2D and 3D
}

#if PCV_WITH_PROJ
struct ContextDeleter {
  void operator()(PJ_CONTEXT* context) const { proj_context_destroy(context); }
};
struct ObjectDeleter {
  void operator()(PJ* object) const { proj_destroy(object); }
};
using ProjContext = std::unique_ptr<PJ_CONTEXT, ContextDeleter>;
using ProjObject = std::unique_ptr<PJ, ObjectDeleter>;

/// A context per call: PROJ contexts are not shared between threads, and a call is rare.
ProjContext quietContext() {
  ProjContext context(proj_context_create());
  if (context) proj_log_level(context.get(), PJ_LOG_NONE);
  return context;
}

ProjObject crsObject(PJ_CONTEXT* context, const CoordinateSystem& crs) {
  const std::string definition = crs.wkt.empty() ? epsgLabel(crs) : crs.wkt;
  if (definition.empty()) return nullptr;
  return ProjObject(proj_create(context, definition.c_str()));
}

/// The units of a CRS's axes as PROJ's database has them: x and y into `horizontal`, a vertical
/// CRS's axis or a 3D CRS's third axis into `vertical`; slots already known stay.
void unitsFromDatabase(PJ_CONTEXT* context, const PJ* crs, LengthUnit& horizontal,
                       LengthUnit& vertical, int depth = 0) {
  const PJ_TYPE type = proj_get_type(crs);
  if (depth < 2 && type == PJ_TYPE_COMPOUND_CRS) {
    for (const int part : {0, 1}) {
      const ProjObject sub(proj_crs_get_sub_crs(context, crs, part));
      if (sub) unitsFromDatabase(context, sub.get(), horizontal, vertical, depth + 1);
    }
    return;
  }
  if (depth < 2 && type == PJ_TYPE_BOUND_CRS) {
    const ProjObject source(proj_get_source_crs(context, crs));
    if (source) unitsFromDatabase(context, source.get(), horizontal, vertical, depth + 1);
    return;
  }
  const ProjObject axes(proj_crs_get_coordinate_system(context, crs));
  if (!axes) return;
  const bool geographic = type == PJ_TYPE_GEOGRAPHIC_2D_CRS || type == PJ_TYPE_GEOGRAPHIC_3D_CRS;
  const int count = proj_cs_get_axis_count(context, axes.get());
  for (int axis = 0; axis < count; ++axis) {
    double factor = 0.0;
    const char* unitName = nullptr;
    if (!proj_cs_get_axis_info(context, axes.get(), axis, nullptr, nullptr, nullptr, &factor,
                               &unitName, nullptr, nullptr)) {
      continue;
    }
    const bool isVertical = type == PJ_TYPE_VERTICAL_CRS || axis == 2;
    LengthUnit& slot = isVertical ? vertical : horizontal;
    if (!slot.known()) {
      slot = lengthUnitFromWkt(unitName ? unitName : "", factor, geographic && !isVertical);
    }
  }
}
#endif

}  // namespace

std::string CoordinateSystem::label() const {
  if (!name.empty()) return name;
  if (!wkt.empty()) {
    const std::string name = wktName(wkt);
    if (!name.empty()) return name;
  }
  if (epsg != 0) return epsgLabel(*this);
  if (!wkt.empty()) return "unnamed WKT";
  return known() ? "user-defined" : "unknown";  // GeoTIFF keys with units or heights alone
}

LengthUnit CoordinateSystem::lengthUnit() const {
  if (horizontalUnit.known() && !horizontalUnit.angular()) return horizontalUnit;
  return verticalUnit.angular() ? LengthUnit{} : verticalUnit;
}

CoordinateSystem coordinateSystemFromWkt(std::string wkt) {
  const io::WktFacts facts = io::readWktFacts(wkt);
  CoordinateSystem crs;
  crs.wkt = std::move(wkt);
  crs.name = facts.name;
  crs.epsg = facts.epsg;
  crs.verticalEpsg = facts.verticalEpsg;
  crs.horizontalUnit = facts.horizontalUnit;
  crs.verticalUnit = facts.verticalUnit;
  return crs;
}

void completeFromDatabase([[maybe_unused]] CoordinateSystem& crs) {
#if PCV_WITH_PROJ
  const bool horizontalMissing =
      crs.epsg != 0 && (!crs.horizontalUnit.known() || (crs.name.empty() && crs.wkt.empty()));
  const bool verticalMissing = crs.verticalEpsg != 0 && !crs.verticalUnit.known();
  if (!horizontalMissing && !verticalMissing) return;
  const ProjContext context = quietContext();
  if (!context) return;
  const auto fromCode = [&](int code) {
    return ProjObject(proj_create(context.get(), ("EPSG:" + std::to_string(code)).c_str()));
  };
  if (horizontalMissing) {
    if (const ProjObject object = fromCode(crs.epsg)) {
      if (crs.name.empty() && crs.wkt.empty()) {
        if (const char* name = proj_get_name(object.get())) crs.name = name;
      }
      unitsFromDatabase(context.get(), object.get(), crs.horizontalUnit, crs.verticalUnit);
    }
  }
  if (verticalMissing) {
    if (const ProjObject object = fromCode(crs.verticalEpsg)) {
      LengthUnit horizontal;  // a vertical CRS has none
      unitsFromDatabase(context.get(), object.get(), horizontal, crs.verticalUnit);
    }
  }
#endif
}

bool CoordinateSystem::sameAs(const CoordinateSystem& other) const {
  if (!wkt.empty() || !other.wkt.empty()) return wkt == other.wkt;
  return epsg == other.epsg && verticalEpsg == other.verticalEpsg;
}

#if PCV_WITH_PROJ
struct GeographicTransform::State {
  ProjContext context = quietContext();
  ProjObject lonLat;  ///< the operation, longitude first; null when the CRS cannot transform
  std::string wkt2;

  explicit State(const CoordinateSystem& crs) : wkt2(crs.wkt) {
    if (!context) return;
    ProjObject source = crsObject(context.get(), crs);
    if (!source) return;
    const char* const oneLine[] = {"MULTILINE=NO", nullptr};
    if (const char* converted = proj_as_wkt(context.get(), source.get(), PJ_WKT2_2019, oneLine)) {
      wkt2 = converted;
    }
    // A compound CRS (horizontal + vertical) maps to 2D WGS84 through its horizontal part.
    if (proj_get_type(source.get()) == PJ_TYPE_COMPOUND_CRS) {
      source = ProjObject(proj_crs_get_sub_crs(context.get(), source.get(), 0));
      if (!source) return;
    }
    const ProjObject wgs84(proj_create(context.get(), "EPSG:4326"));
    if (!wgs84) return;
    const ProjObject transform(
        proj_create_crs_to_crs_from_pj(context.get(), source.get(), wgs84.get(), nullptr, nullptr));
    if (!transform) return;
    // EPSG:4326 is latitude first; GeoJSON and STAC are longitude first.
    lonLat = ProjObject(proj_normalize_for_visualization(context.get(), transform.get()));
  }

  bool valid() const { return lonLat != nullptr; }

  std::optional<GeographicBox> box(const Box3d& native) const {
    GeographicBox result{.minZ = native.min.z, .maxZ = native.max.z};
    constexpr int kPointsPerEdge = 21;
    if (!proj_trans_bounds(context.get(), lonLat.get(), PJ_FWD, native.min.x, native.min.y,
                           native.max.x, native.max.y, &result.west, &result.south, &result.east,
                           &result.north, kPointsPerEdge)) {
      return std::nullopt;
    }
    return result;
  }
};
#else
struct GeographicTransform::State {
  bool geographic = false;  ///< the coordinates are degrees already
  std::string wkt2;

  explicit State(const CoordinateSystem& crs)
      : geographic(isGeographicEpsg(crs.epsg) || isGeographicWkt(crs.wkt)), wkt2(crs.wkt) {}

  bool valid() const { return geographic; }

  std::optional<GeographicBox> box(const Box3d& native) const {
    return GeographicBox{native.min.x, native.min.y, native.max.x,
                         native.max.y, native.min.z, native.max.z};
  }
};
#endif

GeographicTransform::GeographicTransform(const CoordinateSystem& crs)
    : state_(std::make_unique<State>(crs)) {}
GeographicTransform::~GeographicTransform() = default;
GeographicTransform::GeographicTransform(GeographicTransform&&) noexcept = default;
GeographicTransform& GeographicTransform::operator=(GeographicTransform&&) noexcept = default;

bool GeographicTransform::valid() const {
  return state_->valid();
}

std::optional<GeographicBox> GeographicTransform::box(const Box3d& box) const {
  if (!valid() || box.empty()) return std::nullopt;
  return state_->box(box);
}

const std::string& GeographicTransform::wkt2() const {
  return state_->wkt2;
}

bool coordinateTransformsAvailable() {
#if PCV_WITH_PROJ
  // PROJ needs its database (proj.db, Debian's proj-data) to know any CRS: a library without it
  // transforms nothing, so ask once whether WGS84 can be made.
  static const bool usable = [] {
    const ProjContext context = quietContext();
    return ProjObject(proj_create(context.get(), "EPSG:4326")) != nullptr;
  }();
  return usable;
#else
  return false;
#endif
}

std::optional<GeographicBox> geographicBoxOf(const CoordinateSystem& crs, const Box3d& box) {
  if (!crs.known()) return std::nullopt;
  return GeographicTransform(crs).box(box);
}

}  // namespace pcv
