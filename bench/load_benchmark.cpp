// Points per second of readPointCloud on large synthetic binary PLY and LAS files, read from the
// page cache (the files are written once, then read repeatedly).
//   PCV_LOAD_BENCH_POINTS  points per file (default 20000000)
//   PCV_THREADS            threads of the parallel decoder (default: all cores)
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "load_timing.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "synthetic_point_files.hpp"

namespace {

using pcv::test::SyntheticPoint;

uint64_t benchPointCount() {
  if (const char* text = std::getenv("PCV_LOAD_BENCH_POINTS"))
    return std::strtoull(text, nullptr, 10);
  return 20'000'000;
}

std::vector<SyntheticPoint> chunkOfPoints(uint64_t first, uint64_t count) {
  std::vector<SyntheticPoint> points(count);
  for (uint64_t k = 0; k < count; ++k) {
    const uint64_t i = first + k;
    // A 2 km x 2 km UTM tile, a wavy surface, varied colours and classes.
    SyntheticPoint& p = points[k];
    p.x = 500000.0 + double(i % 4093) * 0.5;
    p.y = 5000000.0 + double((i / 4093) % 4099) * 0.5;
    p.z = 100.0 + double(i % 97) * 0.1;
    p.red = uint16_t(i * 2654435761u), p.green = uint16_t(i * 40503u), p.blue = uint16_t(i);
    p.intensity = uint16_t(i % 4096), p.classification = uint8_t(i % 19);
  }
  return points;
}

/// Writes the files once per process; streamed in chunks so memory stays small.
struct BenchFiles {
  std::filesystem::path dir, las, ply;
  uint64_t points = benchPointCount();
  BenchFiles() {
    dir = std::filesystem::temp_directory_path() / ("pcv-load-bench-" + std::to_string(points));
    std::filesystem::create_directories(dir);
    las = dir / "bench.las";
    ply = dir / "bench.ply";
    constexpr uint64_t kChunk = 1 << 20;
    std::ofstream lasOut(las, std::ios::binary), plyOut(ply, std::ios::binary);
    pcv::test::LasOptions options;
    options.declaredCount = points;
    options.offset[0] = 500000, options.offset[1] = 5000000;
    const std::string plyHeader =
        "ply\nformat binary_little_endian 1.0\nelement vertex " + std::to_string(points) +
        "\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\n"
        "property uchar green\nproperty uchar blue\nproperty float intensity\n"
        "element face 0\nproperty list uchar int vertex_indices\nend_header\n";
    plyOut << plyHeader;
    for (uint64_t first = 0; first < points; first += kChunk) {
      const auto chunk = chunkOfPoints(first, std::min(kChunk, points - first));
      const auto lasBytes = pcv::test::makeLas(chunk, options);
      const size_t skip = first == 0 ? 0 : 227;  // the header goes in once
      lasOut.write(reinterpret_cast<const char*>(lasBytes.data() + skip),
                   std::streamsize(lasBytes.size() - skip));
      auto plyBytes = pcv::test::makeBinaryPly(chunk);
      const std::string_view text(reinterpret_cast<const char*>(plyBytes.data()), plyBytes.size());
      const size_t body = text.find("end_header\n") + 11;
      plyOut.write(reinterpret_cast<const char*>(plyBytes.data() + body),
                   std::streamsize(plyBytes.size() - body));
    }
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

void BM_LoadLas(benchmark::State& state) {
  pcv::bench::timeLoading(state, files().las);
}
void BM_LoadPly(benchmark::State& state) {
  pcv::bench::timeLoading(state, files().ply);
}

BENCHMARK(BM_LoadLas)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LoadPly)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
