#include "las_crs.hpp"

#include <cstring>
#include <string>

namespace pcv::io {
namespace {

constexpr uint16_t kWktRecord = 2112;
constexpr uint16_t kGeoKeyDirectory = 34735;
// GeoTIFF 1.0 key ids; a value of 32767 means "user-defined", i.e. no EPSG code.
constexpr uint16_t kGeographicTypeKey = 2048, kProjectedCsTypeKey = 3072, kVerticalCsTypeKey = 4096;
// The units keys: EPSG unit codes (9001 metre, 9002 foot, 9003 US survey foot, 9102 degree).
constexpr uint16_t kGeogAngularUnitsKey = 2054, kProjLinearUnitsKey = 3076,
                   kVerticalUnitsKey = 4099;
constexpr uint16_t kUserDefined = 32767;

uint16_t wordAt(const uint8_t* bytes, size_t index) {
  uint16_t word;
  std::memcpy(&word, bytes + 2 * index, 2);
  return word;
}

/// The directory: a 4-word header (version, revision, minor, key count), then 4 words per key
/// (id, tag location, count, value); location 0 keeps the value in the entry itself. Fills only
/// what the WKT record, read first, left unknown.
void readGeoKeys(std::span<const uint8_t> payload, CoordinateSystem& crs) {
  const size_t words = payload.size() / 2;
  if (words < 4) return;
  const size_t keys = wordAt(payload.data(), 3);
  int projected = 0, geographic = 0, vertical = 0;
  LengthUnit linear, angular, heights;
  for (size_t k = 0; k < keys && 4 + 4 * k + 4 <= words; ++k) {
    const size_t entry = 4 + 4 * k;
    const uint16_t id = wordAt(payload.data(), entry);
    const uint16_t location = wordAt(payload.data(), entry + 1);
    const uint16_t value = wordAt(payload.data(), entry + 3);
    if (location != 0 || value == 0 || value >= kUserDefined) continue;
    if (id == kProjectedCsTypeKey) projected = value;
    if (id == kGeographicTypeKey) geographic = value;
    if (id == kVerticalCsTypeKey) vertical = value;
    if (id == kProjLinearUnitsKey) linear = lengthUnitFromEpsg(value);
    if (id == kGeogAngularUnitsKey) angular = lengthUnitFromEpsg(value);
    if (id == kVerticalUnitsKey) heights = lengthUnitFromEpsg(value);
  }
  if (crs.epsg == 0) crs.epsg = projected != 0 ? projected : geographic;
  if (crs.verticalEpsg == 0) crs.verticalEpsg = vertical;
  // A projected CRS's x and y are in its linear unit; geographic ones in its angular unit.
  const bool isGeographic = projected == 0 && geographic != 0;
  if (!crs.horizontalUnit.known()) crs.horizontalUnit = isGeographic ? angular : linear;
  if (!crs.verticalUnit.known()) crs.verticalUnit = heights;
}

}  // namespace

CoordinateSystem lasCoordinateSystem(const LasHeader& header, std::span<const uint8_t> file) {
  return lasCoordinateSystem(header, SpanByteSource(file, "LAS file"));
}

CoordinateSystem lasCoordinateSystem(const LasHeader& header, const ByteSource& source) {
  CoordinateSystem crs;
  std::vector<uint8_t> storage;
  auto payloadOf = [&](const LasVlr& vlr) {
    return source.read(vlr.payloadOffset, vlr.payloadBytes, storage);
  };
  if (const LasVlr* wkt = header.findVlr("LASF_Projection", kWktRecord)) {
    const std::span<const uint8_t> text = payloadOf(*wkt);
    std::string declared(text.begin(), text.end());
    declared.resize(std::strlen(declared.c_str()));  // the record ends in one or more NULs
    crs = coordinateSystemFromWkt(std::move(declared));
  }
  if (const LasVlr* keys = header.findVlr("LASF_Projection", kGeoKeyDirectory)) {
    readGeoKeys(payloadOf(*keys), crs);
  }
  return crs;
}

}  // namespace pcv::io
