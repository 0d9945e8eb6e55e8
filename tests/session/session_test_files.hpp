/// @brief Small files the session tests open: a LAS file of a grid of points, and a COPC file of
/// the cylinders, written into a temporary folder.
#pragma once

#include <filesystem>
#include <vector>

#include "io_test_util.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinders.hpp"
#include "synthetic_point_files.hpp"

namespace pcv::test {

/// A LAS file of an n x n grid over 100 x 50 units at UTM-like coordinates, z rising with x.
inline std::filesystem::path writeGridLas(const std::filesystem::path& path, int n = 40) {
  std::vector<SyntheticPoint> points;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      points.push_back({.x = 500000.0 + 100.0 * i / (n - 1),
                        .y = 5000000.0 + 50.0 * j / (n - 1),
                        .z = 100.0 + 10.0 * i / (n - 1),
                        .red = 60000,
                        .green = 30000,
                        .blue = 1000});
    }
  }
  writeBytes(path, makeLas(points, {.pointFormat = 2}));
  return path;
}

/// A COPC file of `count` cylinder points, in nodes of at most 2 000, around `origin` (the
/// cylinders reach about 2 units from it).
inline std::filesystem::path writeCylinderCopc(const std::filesystem::path& path,
                                               uint64_t count = 40'000,
                                               const glm::dvec3& origin = glm::dvec3(0.0)) {
  const PointRecordSource source = [count, origin] {
    CylinderSet scene = makeCylinderSet(3);
    const Box3d bounds = cylinderSetReach(scene);
    return producedRecords(std::make_shared<CylinderProducer>(std::move(scene), count), bounds,
                           origin, 7);
  };
  writeCopcFile(source, path, {.maxPointsPerNode = 2000});
  return path;
}

}  // namespace pcv::test
