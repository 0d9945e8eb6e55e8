// Points per second of readPointCloud on large synthetic E57 files (one terrestrial-style scan
// with a pose far from the origin): Float single xyz + 8-bit RGB, and 23-bit ScaledInteger xyz
// + 8-bit RGB. The files are written once by the test writer, then read from the page cache.
//   PCV_E57_BENCH_POINTS  points per file (default 30000000)
//   PCV_THREADS           threads of the parallel decoder (default: all cores)
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "load_timing.hpp"
#include "e57_writer.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace {

namespace e57 = pcv::test::e57;

uint64_t benchPointCount() {
  if (const char* text = std::getenv("PCV_E57_BENCH_POINTS")) {
    return std::strtoull(text, nullptr, 10);
  }
  return 30'000'000;
}

/// A scanner's view of a room: rows of points over azimuth and elevation at a wavy range,
/// in metres around the scanner.
glm::dvec3 scanPoint(uint64_t i) {
  constexpr uint64_t kColumns = 8192;
  const double azimuth = double(i % kColumns) * (6.283185307179586 / kColumns);
  const double elevation = -1.0 + double((i / kColumns) % 4096) * (2.0 / 4096);
  const double range = 5.0 + 2.0 * std::sin(3.0 * azimuth) * std::cos(2.0 * elevation);
  return glm::dvec3(range * std::cos(elevation) * std::cos(azimuth),
                    range * std::cos(elevation) * std::sin(azimuth), range * std::sin(elevation));
}

void addColor(e57::Scan& scan) {
  const char* names[] = {"colorRed", "colorGreen", "colorBlue"};
  for (int c = 0; c < 3; ++c) {
    scan.fields.push_back(e57::integerField(names[c], 0, 255, [c](uint64_t i) {
      return int64_t((i * (2654435761u >> (8 * c))) & 0xff);
    }));
  }
}

e57::Scan floatScan(uint64_t points) {
  e57::Scan scan;
  scan.name = "float xyz + rgb";
  scan.records = points;
  for (int axis = 0; axis < 3; ++axis) {
    scan.fields.push_back(e57::floatField(std::string("cartesian") + char('X' + axis),
                                          [axis](uint64_t i) { return scanPoint(i)[axis]; }));
  }
  addColor(scan);
  scan.translation = {500000.0, 5000000.0, 100.0};
  return scan;
}

e57::Scan scaledScan(uint64_t points) {
  constexpr double kScale = 0.0005;  // half a millimetre
  e57::Scan scan;
  scan.name = "scaled integer xyz + rgb";
  scan.records = points;
  for (int axis = 0; axis < 3; ++axis) {
    scan.fields.push_back(e57::scaledField(
        std::string("cartesian") + char('X' + axis), -(1 << 22), (1 << 22) - 1, kScale, 0.0,
        [axis](uint64_t i) { return int64_t(std::llround(scanPoint(i)[axis] / kScale)); }));
  }
  addColor(scan);
  scan.translation = {500000.0, 5000000.0, 100.0};
  return scan;
}

/// Writes the files once per process.
struct BenchFiles {
  std::filesystem::path dir, floats, scaled;
  uint64_t points = benchPointCount();
  BenchFiles() {
    dir = std::filesystem::temp_directory_path() / ("pcv-e57-bench-" + std::to_string(points));
    std::filesystem::create_directories(dir);
    floats = dir / "float.e57";
    scaled = dir / "scaled.e57";
    e57::writeE57File(floats, {floatScan(points)});
    e57::writeE57File(scaled, {scaledScan(points)});
  }
  ~BenchFiles() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
};

BenchFiles& files() {
  static BenchFiles instance;
  return instance;
}

void BM_LoadE57FloatRgb(benchmark::State& state) {
  pcv::bench::timeLoading(state, files().floats);
}
void BM_LoadE57ScaledIntegerRgb(benchmark::State& state) {
  pcv::bench::timeLoading(state, files().scaled);
}

BENCHMARK(BM_LoadE57FloatRgb)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LoadE57ScaledIntegerRgb)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
