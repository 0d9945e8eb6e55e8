// The host layout of one slice of points, timed: Morton order alone, then the whole layOutSlice
// (order, gather, compact layout) as the CPU and Vulkan backends and the sets laid out ahead run
// it, without and with the 16-byte points kept. The points are the demo cylinders (generated
// once, not timed). Prints the median and range of the wall times over the runs, and the median
// CPU time of the process (all threads, user and system: the page faults of fresh buffers count),
// which other load on the machine disturbs less.
//   pcv_layout_benchmark [--points 33554432] [--runs 5]
// With --file, the points of a file instead, and --node-points N lays them out as a stream's node
// loader does: sets of N points (compact storage), one after another on one core, each from
// fresh buffers; --node-points alone does the same with the cylinders.
//   pcv_layout_benchmark --file tile.copc.laz --node-points 100000 [--runs 5]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "cpu/point_layout.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/demo/cylinders.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/raster/laid_out_set.hpp"

namespace {

using namespace pcv;
using Clock = std::chrono::steady_clock;

/// The wall and CPU times of a step's runs, in milliseconds.
struct Times {
  std::vector<double> wall, cpu;
};

/// CPU time of the process so far, all threads, in milliseconds.
double cpuMilliseconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return double(now.tv_sec) * 1e3 + double(now.tv_nsec) * 1e-6;
}

/// Runs step() once and adds its times.
template <typename Step>
void timeStep(Times& times, const Step& step) {
  const Clock::time_point start = Clock::now();
  const double cpuStart = cpuMilliseconds();
  step();
  times.cpu.push_back(cpuMilliseconds() - cpuStart);
  times.wall.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

/// Median, min and max of the wall times, median of the CPU times.
void print(const char* what, const Times& times) {
  const auto [min, max] = std::minmax_element(times.wall.begin(), times.wall.end());
  std::printf("%-26s median %8.1f ms  (min %.1f, max %.1f, %zu runs), CPU %8.1f ms\n", what,
              median(times.wall), *min, *max, times.wall.size(), median(times.cpu));
}

/// A pool sized for one slice, as the Vulkan backend makes it for each slice it stores.
HostPointPool slicePool(uint64_t count, bool keepPoints) {
  HostPointPool pool;
  pool.positions.resize(count);
  pool.colors.resize(count);
  pool.batches.resize((count + kBatchSize - 1) / kBatchSize);
  if (keepPoints) pool.points.resize(count);
  return pool;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Time the host layout (Morton order and compact layout) of one slice of points"};
  uint64_t pointCount = uint64_t(1) << 25;
  int runs = 5;
  app.add_option("--points", pointCount, "Points in the slice")->capture_default_str();
  app.add_option("--runs", runs, "Runs of each step timed")->capture_default_str();
  std::string file;
  app.add_option("--file", file, "Points of this file instead of the cylinders");
  uint64_t nodePoints = 0;
  app.add_option("--node-points", nodePoints,
                 "Lay out sets of this many points on one core, as a stream's node loader does");
  CLI11_PARSE(app, argc, argv);

  std::vector<Point> points;
  if (file.empty()) {
    points.resize(pointCount);
    generateCylinderPoints(makeCylinderSet(1), points);
  } else {
    const PointCloud cloud = readPointCloud(file);
    UninitializedVector<Point> colored;
    Times colorTimes;
    for (int run = 0; run < runs; ++run) {
      const WorkerLimit oneCore(1);
      timeStep(colorTimes, [&] { coloredPoints(cloud, ColoringOptions{}, colored); });
    }
    print("coloredPoints, one core", colorTimes);
    points.assign(colored.begin(), colored.end());
    pointCount = points.size();
  }
  if (nodePoints > 0) {
    std::printf("%llu points in sets of %llu, one core\n",
                static_cast<unsigned long long>(pointCount),
                static_cast<unsigned long long>(nodePoints));
    const LayoutSpec spec{.storage = PointStorage::Compact, .slicePoints = uint64_t(1) << 26};
    Times setTimes;
    for (int run = 0; run < runs; ++run) {
      timeStep(setTimes, [&] {
        for (uint64_t first = 0; first < pointCount; first += nodePoints) {
          const uint64_t count = std::min(nodePoints, pointCount - first);
          const LaidOutSet set = layOutSet(std::span(points).subspan(first, count), spec);
        }
      });
    }
    print("layOutSet, all sets", setTimes);
    std::printf("layOutSet: %.1f ns a point\n", median(setTimes.wall) * 1e6 / double(pointCount));
    return 0;
  }
  std::printf("%llu points, %u threads\n", static_cast<unsigned long long>(pointCount),
              workerCount());

  Times orderTimes, layoutTimes, keptTimes;
  for (int run = 0; run < runs; ++run) {
    timeStep(orderTimes, [&] { mortonOrder(points); });
    HostPointPool pool = slicePool(pointCount, false);
    timeStep(layoutTimes, [&] { layOutSlice(points, pool, 0, 0, true, false, nullptr); });
    HostPointPool kept = slicePool(pointCount, true);
    timeStep(keptTimes, [&] { layOutSlice(points, kept, 0, 0, true, true, nullptr); });
  }
  print("mortonOrder", orderTimes);
  print("layOutSlice", layoutTimes);
  print("layOutSlice, points kept", keptTimes);
  return 0;
}
