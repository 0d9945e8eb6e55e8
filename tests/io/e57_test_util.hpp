/// @brief Helpers for the E57 tests: scans with the usual fields, and reading the bytes the test
/// writer made through pcv's public reader.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "e57_writer.hpp"
#include "io_test_util.hpp"

namespace pcv::test {

/// A scan with Float cartesianX/Y/Z given by `position(record)`.
inline e57::Scan floatScan(uint64_t records, std::function<glm::dvec3(uint64_t)> position,
                           bool single = false) {
  e57::Scan scan;
  scan.name = "float scan";
  scan.records = records;
  for (int axis = 0; axis < 3; ++axis) {
    scan.fields.push_back(e57::floatField(
        std::string("cartesian") + char('X' + axis),
        [position, axis](uint64_t r) { return position(r)[axis]; }, single));
  }
  return scan;
}

/// The world position of point i.
inline glm::dvec3 worldOf(const PointCloud& cloud, size_t i) {
  const Point& p = cloud.points[i];
  return cloud.origin + glm::dvec3(p.x, p.y, p.z);
}

/// Writes `bytes` to a file in `dir` and reads it with `options`.
inline PointCloud readE57Bytes(const TempDir& dir, const std::vector<uint8_t>& bytes,
                               const ReadOptions& options = {}, FileSummary* summary = nullptr,
                               LoadProgress* progress = nullptr) {
  const std::filesystem::path path = dir.file("test.e57");
  writeBytes(path, bytes);
  return readPointCloud(path, options, progress, summary);
}

/// The InputError message of reading `bytes`, or a test failure when they load.
inline std::string e57ErrorOf(const TempDir& dir, const std::vector<uint8_t>& bytes,
                              const ReadOptions& options = {}) {
  const std::filesystem::path path = dir.file("broken.e57");
  writeBytes(path, bytes);
  try {
    readPointCloud(path, options, nullptr, nullptr);
  } catch (const InputError& error) {
    return error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "threw something other than InputError: " << error.what();
    return {};
  }
  ADD_FAILURE() << "loaded, expected an InputError";
  return {};
}

}  // namespace pcv::test
