// The host layout of one slice of points, timed: Morton order alone, then the whole layOutSlice
// (order, gather, compact layout) as the CPU and Vulkan backends and the sets laid out ahead run
// it, without and with the 16-byte points kept. The points are the demo cylinders (generated
// once, not timed). Prints the median and range of the times over the runs.
//   pcv_layout_benchmark [--points 33554432] [--runs 5]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "cpu/point_layout.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/demo/cylinders.hpp"

namespace {

using namespace pcv;
using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// Median, min and max of the times.
void print(const char* what, std::vector<double> times) {
  std::sort(times.begin(), times.end());
  std::printf("%-34s median %9.1f ms  (min %.1f, max %.1f, %zu runs)\n", what,
              times[times.size() / 2], times.front(), times.back(), times.size());
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
  CLI11_PARSE(app, argc, argv);

  std::vector<Point> points(pointCount);
  generateCylinderPoints(makeCylinderSet(1), points);
  std::printf("%llu points, %u threads\n", static_cast<unsigned long long>(pointCount),
              workerCount());

  std::vector<double> orderTimes, layoutTimes, keptTimes;
  for (int run = 0; run < runs; ++run) {
    Clock::time_point start = Clock::now();
    const std::vector<uint32_t> order = mortonOrder(points);
    orderTimes.push_back(millisecondsSince(start));

    HostPointPool pool = slicePool(pointCount, false);
    start = Clock::now();
    layOutSlice(points, pool, 0, 0, true, false, nullptr);
    layoutTimes.push_back(millisecondsSince(start));

    HostPointPool kept = slicePool(pointCount, true);
    start = Clock::now();
    layOutSlice(points, kept, 0, 0, true, true, nullptr);
    keptTimes.push_back(millisecondsSince(start));
  }
  print("mortonOrder", orderTimes);
  print("layOutSlice", layoutTimes);
  print("layOutSlice, points kept", keptTimes);
  return 0;
}
