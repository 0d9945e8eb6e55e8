/// @brief What the CLI tests of filters and polygons share: a 60 x 60 LAS grid (points one unit
/// apart at x 1000-1059, y 2000-2059, rising 0.1 per column, one colour) in a folder of the
/// test's own, and pcv run with arguments.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "synthetic_point_files.hpp"
#include "test_support.hpp"

namespace pcv::test {

class GridLasCli : public ::testing::Test {
 protected:
  /// Makes the folder (`name` and the process id) and the grid; `fill(i, j, point)` sets what
  /// the test varies (class, returns, intensity) of the point in column i, row j.
  void makeGrid(const std::string& name,
                const std::function<void(int i, int j, SyntheticPoint& point)>& fill) {
    dir_ = std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    std::vector<SyntheticPoint> points;
    for (int i = 0; i < 60; ++i) {
      for (int j = 0; j < 60; ++j) {
        SyntheticPoint point{.x = 1000.0 + i, .y = 2000.0 + j, .z = 10.0 + 0.1 * i,
                             .red = 50000, .green = 40000, .blue = 30000};
        fill(i, j, point);
        points.push_back(point);
      }
    }
    las_ = dir_ / "grid.las";
    writeBytes(las_, makeLas(points, {.pointFormat = 3}));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  int run(const std::string& arguments, std::string* text = nullptr) {
    std::string ignored;
    return runCommand(pcvExecutable().string() + " " + arguments, text ? text : &ignored);
  }
  std::filesystem::path dir_, las_;
};

}  // namespace pcv::test
