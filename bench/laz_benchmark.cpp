// LAZ decode and encode throughput (points per second) on files the encoder makes itself: the
// demo cylinders as point format 3 (LAS 1.2, compressor 2) and 6, 7, 8 (compressor 3). To look
// like scanned data they are put on a 0.1 mm grid (points lie about 5 mm apart: the ratio of an
// airborne scan's 0.5 m spacing to its 1 cm grid), each block of 50 000 points in Morton order
// as a tiled or COPC file's are, with GPS times rising along that order. In generation order
// neighbouring points lie anywhere on a cylinder and the file is four times larger.
//   PCV_LAZ_BENCH_POINTS  points per file (default 20000000)
//   PCV_THREADS           worker threads (default: all cores); the one-thread case sets 1
// Run: pcv_laz_benchmark --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "pcv/core/parallel.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/demo/cylinder_producer.hpp"

namespace {

constexpr uint64_t kBlockPoints = 50000;
constexpr double kGridStep = 1e-4;

/// Interleaves the low 21 bits of x, y and z (x lowest).
uint64_t mortonKey(uint32_t x, uint32_t y, uint32_t z) {
  uint64_t key = 0;
  for (int bit = 0; bit < 21; ++bit) {
    key |= (uint64_t((x >> bit) & 1) << (3 * bit)) | (uint64_t((y >> bit) & 1) << (3 * bit + 1)) |
           (uint64_t((z >> bit) & 1) << (3 * bit + 2));
  }
  return key;
}

uint64_t benchPointCount() {
  if (const char* text = std::getenv("PCV_LAZ_BENCH_POINTS")) {
    return std::strtoull(text, nullptr, 10);
  }
  return 20'000'000;
}

/// The cylinder records of `format`, generated and Morton-ordered block by block.
class CylinderRecords {
 public:
  CylinderRecords(uint64_t count, int format) {
    pcv::Box3d bounds;
    bounds.extend(glm::dvec3(-3.0));
    bounds.extend(glm::dvec3(3.0));
    auto produced = pcv::producedRecords(
        std::make_shared<pcv::CylinderProducer>(pcv::makeCylinderSet(1), count), bounds,
        glm::dvec3(0.0), format);
    pcv::LasWriteFormat grid = produced->format();
    grid.scale = glm::dvec3(kGridStep);
    stream_ = pcv::reformatRecords(std::move(produced), grid);
    hasGps_ = format == 1 || format >= 3;
    gpsOffset_ = format >= 6 ? 22 : 20;
  }

  const pcv::LasWriteFormat& format() const { return stream_->format(); }

  /// The next block of records, sorted along a Morton curve of their grid coordinates.
  uint64_t next(const uint8_t*& records) {
    const uint8_t* raw = nullptr;
    const uint64_t n = stream_->next(kBlockPoints, raw);
    const uint64_t length = stream_->format().recordLength;
    std::vector<std::pair<uint64_t, uint64_t>> keys(n);
    for (uint64_t i = 0; i < n; ++i) {
      int32_t xyz[3];
      std::memcpy(xyz, raw + i * length, 12);
      // 2^16 cells per axis over the +-3 scene.
      uint32_t cell[3];
      for (int a = 0; a < 3; ++a) cell[a] = uint32_t((int64_t(xyz[a]) + 32768) >> 0);
      keys[i] = {mortonKey(cell[0], cell[1], cell[2]), i};
    }
    std::sort(keys.begin(), keys.end());
    block_.resize(n * length);
    for (uint64_t i = 0; i < n; ++i) {
      uint8_t* out = block_.data() + i * length;
      std::memcpy(out, raw + keys[i].second * length, length);
      // A scanner's pulse every 10 microseconds, in the order the points are stored.
      const double gps = double(done_ + i) * 1e-5;
      if (hasGps_) std::memcpy(out + gpsOffset_, &gps, 8);
    }
    done_ += n;
    records = block_.data();
    return n;
  }

 private:
  std::unique_ptr<pcv::PointRecordStream> stream_;
  std::vector<uint8_t> block_;
  bool hasGps_ = false;
  uint32_t gpsOffset_ = 0;
  uint64_t done_ = 0;
};

/// The files and the in-memory records of the encode case, made once per process.
struct BenchData {
  std::filesystem::path dir;
  uint64_t points = benchPointCount();
  std::map<int, std::filesystem::path> files;
  /// The records of the encode cases: point format 3 (pointwise) and 7 (layered, as COPC).
  std::map<int, std::vector<uint8_t>> encodeRecords;
  std::map<int, pcv::LasWriteFormat> formats;

  BenchData() {
    dir = std::filesystem::temp_directory_path() / ("pcv-laz-bench-" + std::to_string(points));
    std::filesystem::create_directories(dir);
    for (int format : {3, 6, 7, 8}) {
      CylinderRecords records(points, format);
      files[format] = dir / ("pf" + std::to_string(format) + ".laz");
      pcv::LasFileWriter writer(files[format], records.format(), pcv::LasCompression::Laz);
      const uint8_t* block = nullptr;
      const bool kept = format == 3 || format == 7;
      const uint64_t length = records.format().recordLength;
      while (const uint64_t n = records.next(block)) {
        writer.write(block, n);
        if (kept)
          encodeRecords[format].insert(encodeRecords[format].end(), block, block + n * length);
      }
      writer.finish();
      if (kept) formats[format] = records.format();
    }
  }
  ~BenchData() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
};

BenchData& data() {
  static BenchData instance;
  return instance;
}

void decode(benchmark::State& state, int format, const pcv::ReadOptions& options) {
  BenchData& d = data();
  for (auto _ : state) {
    pcv::PointCloud cloud = pcv::readPointCloud(d.files[format], options, nullptr, nullptr);
    benchmark::DoNotOptimize(cloud.points.data());
  }
  state.counters["points/s"] = benchmark::Counter(double(d.points) * double(state.iterations()),
                                                  benchmark::Counter::kIsRate);
  state.counters["threads"] = pcv::workerCount();
  state.counters["bytes/point"] =
      double(std::filesystem::file_size(d.files[format])) / double(d.points);
}

void BM_DecodePf3(benchmark::State& state) {
  decode(state, 3, {});
}

void BM_DecodePf3OneThread(benchmark::State& state) {
  const char* before = std::getenv("PCV_THREADS");
  const std::string saved = before ? before : "";
  setenv("PCV_THREADS", "1", 1);
  decode(state, 3, {});
  if (before) {
    setenv("PCV_THREADS", saved.c_str(), 1);
  } else {
    unsetenv("PCV_THREADS");
  }
}

/// Positions and colours only: the return numbers come with the positions' layer, so naming
/// them asks for no other layer.
void BM_DecodePositionRgb(benchmark::State& state) {
  decode(state, int(state.range(0)), pcv::ReadOptions{.attributes = {"return_number"}});
}

/// Point format 3 (compressor 2, pointwise) or 7 (compressor 3, layered: what COPC holds).
void BM_Encode(benchmark::State& state) {
  BenchData& d = data();
  const int format = int(state.range(0));
  const std::filesystem::path out = d.dir / "encoded.laz";
  for (auto _ : state) {
    pcv::LasFileWriter writer(out, d.formats[format], pcv::LasCompression::Laz);
    writer.write(d.encodeRecords[format].data(), d.points);
    writer.finish();
  }
  state.counters["points/s"] = benchmark::Counter(double(d.points) * double(state.iterations()),
                                                  benchmark::Counter::kIsRate);
  state.counters["threads"] = pcv::workerCount();
}

}  // namespace

BENCHMARK(BM_DecodePf3)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DecodePf3OneThread)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DecodePositionRgb)
    ->Arg(6)
    ->Arg(7)
    ->Arg(8)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_Encode)->Arg(3)->Arg(7)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
