/// @brief Small tiles of a dataset written for the tests: LAS tiles whose headers state their
/// bounds (as real tiles' do), COPC tiles made from them by pcv's COPC writer, and a LAS file's
/// bytes with a WKT record, each tile a grid over one cell of a plane at UTM-like coordinates.
#pragma once

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "synthetic_point_files.hpp"

namespace pcv::test {

inline constexpr double kTileSize = 100.0;  // world units a tile spans in x and y
inline constexpr double kEast = 500000.0, kNorth = 5000000.0;

/// The points of an n x n grid covering tile (column, row) of the dataset, z rising with x.
inline std::vector<SyntheticPoint> gridTile(int column, int row, int n) {
  std::vector<SyntheticPoint> points;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const double x = kTileSize * (column + (i + 0.5) / n);
      points.push_back({.x = kEast + x,
                        .y = kNorth + kTileSize * (row + (j + 0.5) / n),
                        .z = 100.0 + 0.01 * x,
                        .red = 50000,
                        .green = 20000,
                        .blue = 9000});
    }
  }
  return points;
}

/// A LAS 1.2 file of `points` whose header states their bounds, as real tiles' headers do (the
/// synthetic writer leaves them zero).
inline std::vector<uint8_t> lasWithBounds(const std::vector<SyntheticPoint>& points,
                                          const LasOptions& options = {.pointFormat = 2}) {
  std::vector<uint8_t> las = makeLas(points, options);
  Box3d box;
  for (const SyntheticPoint& p : points) box.extend(glm::dvec3(p.x, p.y, p.z));
  const double stated[6] = {box.max.x, box.min.x, box.max.y, box.min.y, box.max.z, box.min.z};
  std::memcpy(&las[179], stated, sizeof(stated));  // max x, min x, max y, ... (LAS 1.2 header)
  return las;
}

inline std::filesystem::path writeLasTile(const std::filesystem::path& path, int column, int row,
                                          int n) {
  writeBytes(path, lasWithBounds(gridTile(column, row, n)));
  return path;
}

inline std::filesystem::path writeCopcTile(const std::filesystem::path& path, int column, int row,
                                           int n) {
  const std::filesystem::path las = std::filesystem::path(path).replace_extension(".source.las");
  writeLasTile(las, column, row, n);
  writeCopcFile([las] { return openLasRecords(las); }, path, {.maxPointsPerNode = 500});
  std::filesystem::remove(las);
  return path;
}

/// A LAZ tile through pcv's writer, in chunks of `chunkPoints`.
inline std::filesystem::path writeLazTile(const std::filesystem::path& path, int column, int row,
                                          int n, uint32_t chunkPoints) {
  const std::filesystem::path las = std::filesystem::path(path).replace_extension(".source.las");
  writeLasTile(las, column, row, n);
  {
    auto records = openLasRecords(las);
    LasFileWriter writer(path, records->format(), LasCompression::Laz, chunkPoints);
    const uint8_t* data = nullptr;
    while (const uint64_t count = records->next(1 << 20, data)) writer.write(data, count);
    writer.finish();
  }
  std::filesystem::remove(las);
  return path;
}

/// A LAS 1.2 file's bytes with an OGC WKT record (LASF_Projection 2112) put before its points.
inline std::vector<uint8_t> withWkt(std::vector<uint8_t> las, const std::string& wkt) {
  constexpr size_t kHeaderBytes = 227, kVlrHeaderBytes = 54;
  ByteWriter vlr;
  vlr.put<uint16_t>(0);
  vlr.putText("LASF_Projection", 16);
  vlr.put<uint16_t>(2112);
  vlr.put<uint16_t>(uint16_t(wkt.size() + 1));
  vlr.putText("wkt", 32);
  vlr.putText(wkt, wkt.size() + 1);
  uint32_t pointsOffset = 0, vlrCount = 0;
  std::memcpy(&pointsOffset, &las[96], 4);
  std::memcpy(&vlrCount, &las[100], 4);
  pointsOffset += uint32_t(kVlrHeaderBytes + wkt.size() + 1);
  vlrCount += 1;
  std::memcpy(&las[96], &pointsOffset, 4);
  std::memcpy(&las[100], &vlrCount, 4);
  las.insert(las.begin() + kHeaderBytes, vlr.bytes.begin(), vlr.bytes.end());
  return las;
}

}  // namespace pcv::test
