/// @brief The timing loop the file-reading benchmarks share: read one file over and over (after
/// a read that warms the page cache) and report points and bytes per second.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>

#include "pcv/core/parallel.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv::bench {

inline void timeLoading(benchmark::State& state, const std::filesystem::path& path) {
  uint64_t points = 0;
  readPointCloud(path);  // warm the page cache
  for (auto _ : state) {
    const PointCloud cloud = readPointCloud(path);
    points = cloud.size();
    benchmark::DoNotOptimize(cloud.points.data());
  }
  state.SetItemsProcessed(int64_t(points) * state.iterations());
  state.SetBytesProcessed(int64_t(std::filesystem::file_size(path)) * state.iterations());
  state.counters["threads"] = workerCount();
  state.counters["Mpoints"] = double(points) / 1e6;
}

}  // namespace pcv::bench
