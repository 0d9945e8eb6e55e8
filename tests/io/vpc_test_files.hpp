/// @brief Small LAS/LAZ tiles with a declared CRS, written in the VPC tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "pcv/io/las_writer.hpp"

namespace pcv::test {

/// WGS 84 / UTM zone 33N (EPSG:32633) in OGC WKT1, as LAS 1.4 files carry it.
inline const std::string kUtm33Wkt =
    "PROJCS[\"WGS 84 / UTM zone 33N\",GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS "
    "84\",6378137,298.257223563]],PRIMEM[\"Greenwich\",0],UNIT[\"degree\",0.0174532925199433]],"
    "PROJECTION[\"Transverse_Mercator\"],PARAMETER[\"latitude_of_origin\",0],PARAMETER["
    "\"central_meridian\",15],PARAMETER[\"scale_factor\",0.9996],PARAMETER[\"false_easting\","
    "500000],PARAMETER[\"false_northing\",0],UNIT[\"metre\",1],AUTHORITY[\"EPSG\",\"32633\"]]";

/// The LAS 1.4 OGC WKT record ("LASF_Projection" 2112), NUL-terminated.
inline LasVariableRecord wktRecord(const std::string& wkt) {
  LasVariableRecord record{.userId = "LASF_Projection", .recordId = 2112, .description = "OGC WKT"};
  record.payload.assign(wkt.begin(), wkt.end());
  record.payload.push_back(0);
  return record;
}

/// A GeoTIFF key directory ("LASF_Projection" 34735) with one key held in its entry.
inline LasVariableRecord geoKeyRecord(uint16_t keyId, uint16_t value) {
  const uint16_t words[8] = {1, 1, 0, 1, keyId, 0, 1, value};
  LasVariableRecord record{
      .userId = "LASF_Projection", .recordId = 34735, .description = "GeoKeyDirectoryTag"};
  record.payload.resize(sizeof words);
  std::memcpy(record.payload.data(), words, sizeof words);
  return record;
}

/// A LAS 1.4 point format 6 tile of `count` points on a diagonal from `min` to `max`
/// (millimetre scale), with `vlrs`; LAZ when `compressed`. The header bounds are the points'.
inline void writeTile(const std::filesystem::path& path, uint64_t count, glm::dvec3 min,
                      glm::dvec3 max, std::vector<LasVariableRecord> vlrs,
                      bool compressed = false) {
  LasWriteFormat format{.pointFormat = 6,
                        .recordLength = 30,
                        .versionMinor = 4,
                        .scale = glm::dvec3(0.001),
                        .offset = glm::floor(min)};
  format.globalEncoding = 1u << 4;  // CRS in WKT
  format.vlrs = std::move(vlrs);
  LasFileWriter writer(path, format, compressed ? LasCompression::Laz : LasCompression::None);
  std::vector<uint8_t> records(count * 30, 0);
  for (uint64_t i = 0; i < count; ++i) {
    const double t = count > 1 ? double(i) / double(count - 1) : 0.0;
    const glm::dvec3 p = min + (max - min) * t;
    for (int axis = 0; axis < 3; ++axis) {
      const int32_t stored = int32_t(std::llround((p[axis] - format.offset[axis]) / 0.001));
      std::memcpy(&records[i * 30 + 4 * axis], &stored, 4);
    }
    records[i * 30 + 14] = 0x11;  // return 1 of 1
  }
  writer.write(records.data(), count);
  writer.finish();
}

}  // namespace pcv::test
