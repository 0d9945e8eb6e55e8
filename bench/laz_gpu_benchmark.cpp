// GPU LAZ decoding speed on one file (LAZ or COPC) read from the page cache, against the CPU
// decoder on all cores and on one thread. Prints M points/s of the decode alone (CUDA events
// around the kernel), of upload + decode (pinned staging, CUDA events), and of the whole call
// (host tables included, wall clock); medians of --runs runs after --warmup. The CPU figures
// decode the same chunks into per-thread buffers (no points made), as the GPU figures do.
//   pcv_laz_gpu_benchmark FILE [--runs 5] [--fields all|xyz|xyzrgb] [--verify]
//   --chunks N: only the file's first N chunks, one batch as a streaming frame would hand over
//   (the decode of a batch takes as long as its longest chunk's serial chain, however few).
//   --once: one upload and one decode, no warm-up and no CPU run, for Nsight Compute (layered
//   files: decodeReturnsXYLayers is the first pass, decodeFieldLayers the second):
//     ncu --set full -k regex:decode --launch-count 2 pcv_laz_gpu_benchmark FILE --once
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/mapped_file.hpp"
#include "cuda_laz_decoder.hpp"
#include "las/las_header.hpp"
#include "laz/laz_records.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/core/stopwatch.hpp"
#include "pcv/cuda/cuda_check.hpp"

namespace {

using Clock = pcv::SteadyClock;
using pcv::secondsSince;

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

pcv::laz::FieldSelection fieldsNamed(const std::string& name) {
  pcv::laz::FieldSelection f;
  if (name == "all") return f;
  f.classification = f.flags = f.intensity = f.scanAngle = f.userData = f.pointSource = f.gpsTime =
      f.nir = f.wavePacket = f.extraBytes = false;
  f.rgb = name == "xyzrgb";
  return f;
}

/// Decodes chunks [0, count) on `threads` CPU threads into per-thread buffers; returns seconds.
double decodeOnCpu(pcv::io::LazPointRecords& records, const pcv::laz::FieldSelection& fields,
                   size_t count, unsigned threads, std::vector<uint8_t>* all) {
  constexpr uint64_t kPiece = 1 << 14;
  const uint64_t length = records.recordLength();
  std::atomic<size_t> next{0};
  const auto start = Clock::now();
  pcv::parallelFor(
      threads,
      [&](uint64_t, uint64_t) {
        auto decoder = records.makeDecoder(fields);
        std::vector<uint8_t> buffer(kPiece * length);
        for (size_t c; (c = next.fetch_add(1)) < count;) {
          records.decodeChunk(c, *decoder, buffer.data(), kPiece,
                              [&](const uint8_t* data, uint64_t first, uint64_t n) {
                                if (all)
                                  std::memcpy(all->data() + first * length, data, n * length);
                              });
        }
      },
      1);
  return secondsSince(start);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"GPU LAZ decoding speed against the CPU decoder"};
  std::string path, fieldsName = "all";
  int runs = 5, warmup = 1;
  bool once = false, verify = false, noCpu = false;
  size_t oneThreadChunks = 100, batchChunks = 0;
  pcv::laz::cuda::CudaLazSettings settings;
  app.add_option("file", path, "LAZ or COPC file")->required();
  app.add_option("--runs", runs, "timed runs (median reported)");
  app.add_option("--warmup", warmup, "untimed runs first");
  app.add_option("--fields", fieldsName, "all, xyz or xyzrgb (layered files skip the rest)");
  app.add_option("--threads", settings.maxThreads, "GPU chunks at once (0: as memory allows)");
  app.add_option("--block", settings.blockSize, "GPU threads per block");
  app.add_option("--state-memory", settings.stateMemoryFraction,
                 "fraction of free GPU memory for decoder state");
  app.add_option("--one-thread-chunks", oneThreadChunks,
                 "chunks the one-thread CPU run decodes (its speed is per point)");
  app.add_option("--chunks", batchChunks, "decode only the first N chunks (0: all)");
  app.add_option("--chunks-per-warp", settings.chunksPerWarp,
                 "chunks a warp decodes at once, one per lane of evenly spread lanes (0: the "
                 "decoder chooses per launch)")
      ->check(CLI::IsMember({0, 1, 2, 4, 8, 16, 32}));
  bool threadPerChunk = false;
  app.add_flag("--thread-per-chunk", threadPerChunk, "the same as --chunks-per-warp 32");
  app.add_flag("--once", once, "one upload and one decode (for Nsight Compute)");
  app.add_flag("--verify", verify, "compare the GPU records with the CPU's, byte for byte");
  app.add_flag("--no-cpu", noCpu, "skip the CPU runs");
  CLI11_PARSE(app, argc, argv);
  if (threadPerChunk) settings.chunksPerWarp = 32;

  try {
    const pcv::io::MappedFile file(path);
    const pcv::io::ReadContext context{.file = path};
    const pcv::io::LasHeader header = pcv::io::parseLasHeader(file.bytes(), context);
    pcv::io::LazPointRecords records(file.bytes(), header, context);
    const pcv::laz::FieldSelection fields = fieldsNamed(fieldsName);
    const auto& chunks = records.layout().chunks;
    uint64_t points = 0, dataEnd = 0;
    std::vector<pcv::laz::BatchChunk> batch;
    for (const auto& c : chunks) {
      if (batchChunks > 0 && batch.size() == batchChunks) break;
      batch.push_back({c.offset, c.byteCount, c.pointCount});
      points += c.pointCount;
      dataEnd = std::max<uint64_t>(dataEnd, c.offset + c.byteCount);
    }
    // The batch's bytes: the file up to its last chunk's end (all of it without --chunks).
    const std::span<const uint8_t> data =
        file.bytes().first(batchChunks > 0 ? dataEnd : file.size());
    // Into the page cache: every page read once.
    uint64_t sum = 0;
    for (size_t i = 0; i < file.size(); i += 4096) sum += file.data()[i];
    std::printf("%s: %llu points, %zu chunks, %.1f MB, %s (page sum %llu)\n", path.c_str(),
                static_cast<unsigned long long>(points), batch.size(), data.size() / 1e6,
                pcv::laz::describeItems(records.vlr().items).c_str(),
                static_cast<unsigned long long>(sum & 0xff));

    pcv::laz::cuda::CudaLazDecoder gpu(settings);
    if (records.layout().sequential || !gpu.supports(records.vlr())) {
      std::printf("the GPU decoder does not take this file (items or a missing chunk table)\n");
      return 2;
    }
    const double mpoints = double(points) / 1e6;
    if (once) {
      gpu.upload(data);
      const auto broken = gpu.decodeUploaded(records.vlr(), fields, data, batch);
      const pcv::laz::cuda::CudaLazTimings& t = gpu.timings();
      std::printf(
          "once: %u threads (%u per warp; other layers %u), %.1f MB state each, upload %.2f ms, "
          "decode %.2f ms (%.1f M points/s; layered: returns/XY %.2f ms, other layers %.2f ms in "
          "%llu threads), %zu broken chunks\n",
          t.threads, t.chunksPerWarp, t.fieldChunksPerWarp, t.stateBytesPerThread / 1e6,
          t.uploadMs, t.decodeMs,
          mpoints / (t.decodeMs / 1e3), t.firstPassMs, t.secondPassMs,
          static_cast<unsigned long long>(t.fieldItems), broken.size());
      return 0;
    }
    std::vector<double> decodeMs, uploadMs, wallMs, firstMs, secondMs;
    size_t broken = 0;
    for (int r = 0; r < warmup + runs; ++r) {
      const auto start = Clock::now();
      broken = gpu.decodeToDevice(records.vlr(), fields, data, batch).size();
      const double wall = secondsSince(start) * 1e3;
      if (r < warmup) continue;
      const pcv::laz::cuda::CudaLazTimings& t = gpu.timings();
      decodeMs.push_back(t.decodeMs);
      uploadMs.push_back(t.uploadMs);
      firstMs.push_back(t.firstPassMs);
      secondMs.push_back(t.secondPassMs);
      wallMs.push_back(wall);
    }
    const double decode = median(decodeMs), upload = median(uploadMs), wall = median(wallMs);
    const pcv::laz::cuda::CudaLazTimings& t = gpu.timings();
    std::printf(
        "GPU: %u chunks at once, %.1f MB state each, %u per warp of %u resident warps (other "
        "layers: %u of %u), %zu broken chunks\n",
        t.threads, t.stateBytesPerThread / 1e6, t.chunksPerWarp, t.residentWarps,
        t.fieldChunksPerWarp, t.fieldResidentWarps, broken);
    std::printf("GPU decode alone:      %9.2f ms  %9.1f M points/s\n", decode,
                mpoints / (decode / 1e3));
    if (t.fieldLaunches > 0 || t.firstPassMs > 0.0) {
      std::printf(
          "  layered: returns/XY pass %.2f ms, other layers %.2f ms (%llu threads, %u launches, "
          "%.1f MB state), planning between them %.2f ms\n",
          median(firstMs), median(secondMs), static_cast<unsigned long long>(t.fieldItems),
          t.fieldLaunches, t.fieldStateBytes / 1e6, decode - median(firstMs) - median(secondMs));
    }
    std::printf("GPU upload + decode:   %9.2f ms  %9.1f M points/s (upload %.2f ms, %.1f GB/s)\n",
                upload + decode, mpoints / ((upload + decode) / 1e3), upload,
                data.size() / 1e6 / upload);
    std::printf("GPU whole call (wall): %9.2f ms  %9.1f M points/s\n", wall,
                mpoints / (wall / 1e3));
    if (noCpu && !verify) return 0;

    std::vector<uint8_t> cpuRecords;
    if (verify) cpuRecords.resize(points * records.recordLength());
    const unsigned cores = pcv::workerCount();
    const double all =
        decodeOnCpu(records, fields, batch.size(), cores, verify ? &cpuRecords : nullptr);
    std::printf("CPU %2u threads:        %9.2f ms  %9.1f M points/s\n", cores, all * 1e3,
                mpoints / all);
    if (verify) {
      std::vector<uint8_t> gpuRecords(gpu.deviceRecordBytes());
      CUDA_CHECK(cudaMemcpy(gpuRecords.data(), gpu.deviceRecords(), gpuRecords.size(),
                            cudaMemcpyDeviceToHost));
      const bool same = gpuRecords == cpuRecords;
      std::printf("verify: GPU and CPU records %s\n", same ? "identical" : "DIFFER");
      if (!same) return 1;
    }
    if (!noCpu) {
      const size_t count = std::min(oneThreadChunks, batch.size());
      uint64_t onePoints = 0;
      for (size_t c = 0; c < count; ++c) onePoints += chunks[c].pointCount;
      const double one = decodeOnCpu(records, fields, count, 1, nullptr);
      std::printf("CPU  1 thread:         %9.2f ms  %9.1f M points/s (%zu chunks)\n", one * 1e3,
                  onePoints / 1e6 / one, count);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pcv_laz_gpu_benchmark: %s\n", e.what());
    return 1;
  }
  return 0;
}
