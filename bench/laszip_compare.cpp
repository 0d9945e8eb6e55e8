// pcv's LAZ decoder against LASzip's, on the same files in the same run (issue 25). Built only
// when CMake is given a LASzip install (-DPCV_LASZIP_DIR=DIR, made by bench/build-laszip.sh):
// LASzip is a peer for measurement, never a dependency of pcv.
//
//   pcv_laszip_compare [--runs N] [--threads T] [--cases LIST] [--cpu-time] [--no-check] FILE...
//
// Per file, the median of N runs (default 5) of each case, in M points/s of the file's points:
//   laszip 1t   laszip_open_reader + laszip_read_point over every point, one reader.
//   laszip Tt   T threads, each with its own reader (its own FILE*) over a contiguous range of
//               whole chunks: laszip_seek_point to the range's first chunk, then read_point.
//   pcv rec 1t  pcv's chunk decoder over every chunk into LAS records (every field decoded, as
//               LASzip does), one thread: the decoder's own speed.
//   pcv rec Tt  the same, T threads taking chunks one at a time.
//   pcv cloud 1t / Tt  pcv's in-core read (readPointCloud: the LAZ reader into the renderer's
//               cloud, with its default fields), PCV_THREADS=1 and PCV_THREADS=T: what an
//               in-core open costs, file mapping and cloud allocation included.
// --cases picks some of them (comma-separated: laszip1, laszipT, rec1, recT, cloud1, cloudT; the
// others print "-"). --cpu-time times the one-thread cases by the process's CPU time instead of
// the wall clock: on a machine others share, it leaves out the time spent waiting for a core.
// Each run of each case is reported on stderr as it finishes, and each file's row as soon as its
// runs are done, so a long run shows its progress and a cut-off one keeps what it measured.
// Before timing, unless --no-check, every point's X, Y, Z, intensity, returns, class and class
// flags (withheld among them), GPS time and RGB from both decoders are compared (the first
// difference is printed, and the program exits 1): files pcv wrote or edited are read by LASzip
// as pcv reads them.
#include <laszip/laszip_api.h>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/mapped_file.hpp"
#include "las/las_header.hpp"
#include "laz/laz_records.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace {

using Clock = std::chrono::steady_clock;

bool useCpuTime = false;  ///< --cpu-time: one-thread cases by process CPU time

/// A stopwatch on the wall clock, or on the process's CPU time for one-thread cases with
/// --cpu-time.
class Stopwatch {
 public:
  explicit Stopwatch(unsigned threads) : cpu_(useCpuTime && threads == 1) {
    start_ = now();
  }
  double seconds() const { return now() - start_; }

 private:
  double now() const {
    if (cpu_) {
      timespec t;
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
      return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
    }
    return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
  }
  bool cpu_;
  double start_;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "pcv_laszip_compare: %s\n", what.c_str());
  std::exit(1);
}

/// One LASzip reader (RAII over laszip_create / open_reader / close_reader / destroy).
class LaszipReader {
 public:
  explicit LaszipReader(const std::string& path) {
    if (laszip_create(&handle_)) fail("laszip_create failed");
    laszip_BOOL compressed = 0;
    if (laszip_open_reader(handle_, path.c_str(), &compressed)) fail(error(path));
    if (laszip_get_point_pointer(handle_, &point_)) fail(error(path));
    laszip_header* header = nullptr;
    laszip_get_header_pointer(handle_, &header);
    count_ = header->extended_number_of_point_records ? header->extended_number_of_point_records
                                                      : header->number_of_point_records;
  }
  ~LaszipReader() {
    laszip_close_reader(handle_);
    laszip_destroy(handle_);
  }
  LaszipReader(const LaszipReader&) = delete;
  LaszipReader& operator=(const LaszipReader&) = delete;

  uint64_t count() const { return count_; }
  const laszip_point& point() const { return *point_; }
  void seek(uint64_t index) {
    if (laszip_seek_point(handle_, int64_t(index))) fail(error("seek"));
  }
  void read() {
    if (laszip_read_point(handle_)) fail(error("read"));
  }

 private:
  std::string error(const std::string& where) {
    laszip_CHAR* text = nullptr;
    laszip_get_error(handle_, &text);
    return where + ": LASzip: " + (text ? text : "?");
  }
  laszip_POINTER handle_ = nullptr;
  laszip_point* point_ = nullptr;
  uint64_t count_ = 0;
};

/// A file's LAZ records as pcv sees them: the mapping, header and chunk layout.
struct PcvFile {
  pcv::io::MappedFile file;
  pcv::io::ReadContext context;
  pcv::io::LasHeader header;
  pcv::io::LazPointRecords records;

  explicit PcvFile(const std::string& path)
      : file(path),
        context{.file = path},
        header(pcv::io::parseLasHeader(file.bytes(), context)),
        records(file.bytes(), header, context) {}
};

constexpr uint64_t kPiecePoints = 1 << 14;  // as the in-core LAZ reader's buffer

/// Decodes chunks [first, end) of `file` into LAS records, every field.
void pcvDecodeChunks(PcvFile& f, size_t first, size_t end, uint64_t& sink) {
  auto decoder = f.records.makeDecoder(pcv::laz::FieldSelection{});
  std::vector<uint8_t> buffer(kPiecePoints * f.records.recordLength());
  for (size_t c = first; c < end; ++c) {
    f.records.decodeChunk(c, *decoder, buffer.data(), kPiecePoints,
                          [&](const uint8_t* records, uint64_t, uint64_t count) {
                            sink += records[(count - 1) * f.records.recordLength()];
                          });
  }
}

double pcvRecords(PcvFile& f, unsigned threads) {
  const Stopwatch watch(threads);
  const size_t chunks = f.records.chunkCount();
  if (threads == 1 || f.records.sequential()) {
    uint64_t sink = 0;
    pcvDecodeChunks(f, 0, chunks, sink);
    if (sink == 1) std::puts("");
  } else {
    std::atomic<size_t> next{0};
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&] {
        uint64_t sink = 0;
        for (size_t c; (c = next.fetch_add(1)) < chunks;) pcvDecodeChunks(f, c, c + 1, sink);
        if (sink == 1) std::puts("");
      });
    }
    for (auto& thread : pool) thread.join();
  }
  return watch.seconds();
}

/// Points [first, end) through one LASzip reader.
void laszipRange(const std::string& path, uint64_t first, uint64_t end) {
  LaszipReader reader(path);
  if (first > 0) reader.seek(first);
  for (uint64_t i = first; i < end; ++i) reader.read();
}

double laszipTime(const std::string& path, const PcvFile& f, unsigned threads) {
  const Stopwatch watch(threads);
  const auto& chunks = f.records.layout().chunks;
  if (threads == 1 || chunks.size() < 2) {
    LaszipReader reader(path);
    for (uint64_t i = 0; i < reader.count(); ++i) reader.read();
    return watch.seconds();
  }
  // Contiguous ranges of whole chunks, about the same point count each.
  const uint64_t total = f.header.pointCount;
  std::vector<uint64_t> bounds = {0};
  for (unsigned t = 1; t < threads; ++t) {
    const uint64_t target = total * t / threads;
    uint64_t at = bounds.back();
    for (const auto& chunk : chunks) {
      if (chunk.firstPoint >= target) {
        at = chunk.firstPoint;
        break;
      }
    }
    bounds.push_back(std::max(at, bounds.back()));
  }
  bounds.push_back(total);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    if (bounds[t + 1] > bounds[t]) pool.emplace_back(laszipRange, path, bounds[t], bounds[t + 1]);
  }
  for (auto& thread : pool) thread.join();
  return watch.seconds();
}

double pcvCloud(const std::string& path, unsigned threads) {
  setenv("PCV_THREADS", std::to_string(threads).c_str(), 1);
  const Stopwatch watch(threads);
  pcv::PointCloud cloud = pcv::readPointCloud(path);
  const double seconds = watch.seconds();
  if (cloud.size() == 1) std::puts("");
  return seconds;
}

/// Every point's X, Y, Z, intensity, returns, class and its flags, GPS time and RGB, pcv against
/// LASzip.
void check(const std::string& path, PcvFile& f) {
  const uint64_t length = f.records.recordLength();
  const int format = f.header.pointFormat;
  const bool extended = format >= 6;
  const bool hasGps = format == 1 || format >= 3;
  const uint32_t rgbOffset = format == 2 ? 20 : format == 3 || format == 5 ? 28 : extended && format != 6 && format != 9 ? 30 : 0;
  LaszipReader reader(path);
  auto decoder = f.records.makeDecoder(pcv::laz::FieldSelection{});
  std::vector<uint8_t> buffer(kPiecePoints * length);
  for (size_t c = 0; c < f.records.chunkCount(); ++c) {
    f.records.decodeChunk(c, *decoder, buffer.data(), kPiecePoints,
                          [&](const uint8_t* records, uint64_t first, uint64_t count) {
                            for (uint64_t i = 0; i < count; ++i) {
                              reader.read();
                              const laszip_point& p = reader.point();
                              const uint8_t* r = records + i * length;
                              int32_t xyz[3];
                              uint16_t intensity, rgb[3] = {0, 0, 0};
                              double gps = 0.0;
                              std::memcpy(xyz, r, 12);
                              std::memcpy(&intensity, r + 12, 2);
                              if (hasGps) std::memcpy(&gps, r + (extended ? 22 : 20), 8);
                              if (rgbOffset) std::memcpy(rgb, r + rgbOffset, 6);
                              // Returns, class and flags: bytes 14 and 15 of every format,
                              // and byte 16 (the class) of formats 6 and up.
                              const bool sameClass =
                                  extended
                                      ? r[16] == p.extended_classification &&
                                            (r[15] & 0x0F) == p.extended_classification_flags &&
                                            (r[14] & 0x0F) == p.extended_return_number &&
                                            (r[14] >> 4) == p.extended_number_of_returns
                                      : (r[15] & 0x1F) == p.classification &&
                                            ((r[15] >> 5) & 1) == p.synthetic_flag &&
                                            ((r[15] >> 6) & 1) == p.keypoint_flag &&
                                            ((r[15] >> 7) & 1) == p.withheld_flag &&
                                            (r[14] & 0x07) == p.return_number &&
                                            ((r[14] >> 3) & 0x07) == p.number_of_returns;
                              const bool same =
                                  sameClass && xyz[0] == p.X && xyz[1] == p.Y && xyz[2] == p.Z &&
                                  intensity == p.intensity &&
                                  (!hasGps || std::memcmp(&gps, &p.gps_time, 8) == 0) &&
                                  (!rgbOffset || (rgb[0] == p.rgb[0] && rgb[1] == p.rgb[1] &&
                                                  rgb[2] == p.rgb[2]));
                              if (!same) {
                                fail(path + ": point " + std::to_string(first + i) +
                                     " differs between pcv and LASzip");
                              }
                            }
                          });
  }
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  bool checks = true;
  std::string cases = "laszip1,laszipT,rec1,recT,cloud1,cloudT";
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--threads" && i + 1 < argc) {
      threads = unsigned(std::max(1, std::atoi(argv[++i])));
    } else if (arg == "--cases" && i + 1 < argc) {
      cases = argv[++i];
    } else if (arg == "--cpu-time") {
      useCpuTime = true;
    } else if (arg == "--no-check") {
      checks = false;
    } else if (arg.rfind("--", 0) == 0) {
      fail("unknown option " + arg +
           " (usage: pcv_laszip_compare [--runs N] [--threads T] [--cases LIST] [--cpu-time] "
           "[--no-check] FILE...)");
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) fail("no files (usage: pcv_laszip_compare [--runs N] [--threads T] FILE...)");
  // Lines out at once, also through a pipe or a file.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const char* kCaseNames[6] = {"laszip1", "laszipT", "rec1", "recT", "cloud1", "cloudT"};
  bool wanted[6];
  for (int c = 0; c < 6; ++c) {
    wanted[c] = ("," + cases + ",").find("," + std::string(kCaseNames[c]) + ",") != std::string::npos;
  }
  std::printf("%u threads for the T cases, median of %d runs, M points/s%s\n", threads, runs,
              useCpuTime ? " (one-thread cases by CPU time)" : "");
  std::printf("%-36s %3s %10s %7s | %9s %9s | %9s %9s | %9s %9s | %6s\n", "file", "PF", "points",
              "chunks", "laszip 1t", "laszip Tt", "pcv rec1t", "pcv recTt", "pcv cld1t",
              "pcv cldTt", "rec/lz");
  for (const std::string& path : files) {
    // Files pcv cannot read (a corpus has broken ones on purpose) are named and skipped.
    std::unique_ptr<PcvFile> opened;
    try {
      opened = std::make_unique<PcvFile>(path);
      if (checks && opened->header.pointCount > 0) check(path, *opened);
    } catch (const std::exception& e) {
      std::printf("%-36s skipped: %s\n", std::filesystem::path(path).filename().string().c_str(),
                  e.what());
      continue;
    }
    PcvFile& f = *opened;
    const uint64_t points = f.header.pointCount;
    if (points == 0) continue;
    std::vector<double> times[6];
    const std::string name = std::filesystem::path(path).filename().string();
    // The cases alternate run by run, so a machine's slow spell hits them alike.
    for (int run = 0; run < runs; ++run) {
      for (int c = 0; c < 6; ++c) {
        if (!wanted[c]) continue;
        const unsigned caseThreads = c % 2 == 0 ? 1 : threads;
        const double seconds = c < 2   ? laszipTime(path, f, caseThreads)
                               : c < 4 ? pcvRecords(f, caseThreads)
                                       : pcvCloud(path, caseThreads);
        times[c].push_back(seconds);
        std::fprintf(stderr, "%s: %s run %d of %d: %.2f M points/s\n", name.c_str(),
                     kCaseNames[c], run + 1, runs, double(points) / seconds * 1e-6);
      }
    }
    std::string cells;
    double rate[6];
    for (int c = 0; c < 6; ++c) {
      rate[c] = wanted[c] ? double(points) / median(times[c]) * 1e-6 : 0.0;
      char cell[32];
      if (wanted[c]) {
        std::snprintf(cell, sizeof cell, " %9.2f", rate[c]);
      } else {
        std::snprintf(cell, sizeof cell, " %9s", "-");
      }
      cells += cell;
      if (c % 2 == 1) cells += " |";
    }
    char ratio[16] = "     -";
    if (wanted[0] && wanted[2]) std::snprintf(ratio, sizeof ratio, "%5.2fx", rate[2] / rate[0]);
    std::printf("%-36s %3d %10llu %7zu |%s %s\n", name.c_str(), int(f.header.pointFormat),
                (unsigned long long)points, f.records.chunkCount(), cells.c_str(), ratio);
    std::fflush(stdout);
  }
  return 0;
}
