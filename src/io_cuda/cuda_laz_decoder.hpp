/// @brief The GPU LAZ decoder: a file's compressed chunks uploaded once (through pinned
/// buffers, on the decoder's own stream), decoded on the device into LAS records in device
/// memory, the same records the CPU decoder writes (laz_chunk_kernels.hpp: one thread per
/// pointwise chunk; layered chunks in two passes, returns/XY first, then a thread per other
/// layer). decode() copies them back for the readers; decodeToDevice() leaves them on the device
/// for a renderer and for the benchmark.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "laz/chunk_batch_decoder.hpp"
#include "laz_chunk_kernels.hpp"
#include "pcv/cuda/device_buffer.hpp"

namespace pcv::laz::cuda {

struct CudaLazSettings {
  uint32_t maxThreads = 0;  ///< chunks decoded at once (one thread and state slot each); 0: auto
  uint32_t blockSize = 32;  ///< threads per block
  /// Chunks (or second-pass layers) a warp decodes at once, its lanes spread evenly: 1, 2, 4, 8,
  /// 16 or 32 (a thread per chunk), or 0 to choose per launch (autoChunksPerWarp). Lanes of one
  /// warp decoding different chunks take different branches, which the warp issues in turn; a
  /// lone lane per warp leaves the registers of 31 unused, which bounds the warps, and so the
  /// chunks, the device holds at once.
  uint32_t chunksPerWarp = 0;
  /// Fraction of the free device memory the state slots may take.
  double stateMemoryFraction = 0.4;
  /// decode() runs the kernels' per-chunk code on the host, one chunk after the other, without
  /// touching CUDA: for tests of that code on machines without a GPU.
  bool emulateOnHost = false;
  /// The readers decode on the CPU when the device fails (`--decode auto`).
  bool fallBackToCpu = false;
};

/// Device time of the last decode, from CUDA events (milliseconds).
struct CudaLazTimings {
  double uploadMs = 0.0;  ///< compressed bytes host to device, staging copies included
  /// The kernels, and for layered chunks the host's planning between the two passes.
  double decodeMs = 0.0;
  double firstPassMs = 0.0;   ///< layered: the returns/XY pass
  double secondPassMs = 0.0;  ///< layered: the pass over the other layers
  double downloadMs = 0.0;    ///< records back to the host (decode() only)
  uint32_t threads = 0;       ///< chunks decoded at once (pointwise; layered first pass)
  uint32_t chunksPerWarp = 0;  ///< pointwise; layered: the first pass
  uint32_t residentWarps = 0;  ///< of that kernel, which the device holds at once
  uint32_t fieldChunksPerWarp = 0;  ///< layered: the second pass (the most of its launches)
  uint32_t fieldResidentWarps = 0;
  uint64_t stateBytesPerThread = 0;
  uint64_t fieldItems = 0;      ///< layered: threads of the second pass (one layer of a chunk)
  uint32_t fieldLaunches = 0;   ///< layered: second-pass launches (their state fits the budget)
  uint64_t fieldStateBytes = 0; ///< layered: the largest second-pass launch's state
};

/// When a kernel's warps take more than one chunk each (automatic choice): lanes of one warp
/// decoding different chunks take different branches, which the warp issues in turn, so each
/// chain runs slower; the gain is more chains at once, which pays only where the batch holds
/// many times the chunks the device keeps warps for.
struct WarpSharing {
  uint32_t most;  ///< chunks per warp at most
  /// Chunks per warp double while the batch, at the current count, still fills the warps the
  /// device holds this many times over.
  uint32_t wavesPerLane;
};

/// Measured on the H200 (bench/RESULTS.md, eighth session): pointwise chunks of a 1 B-point LAZ
/// (13 147 threads, about 4 times the warps the device holds of that kernel) 4 per warp 106 M
/// points/s, 2: 77, 1: 70. A 1 B-point COPC: its returns/XY pass over 34 792 nodes (8.2 times)
/// 2 per warp 2.22 s, 1: 2.46 s, 4: 2.44 s, but over 8 448 nodes (twice) 2 per warp 1.17 s
/// against 0.81 s; its other layers' pass over 69 548 layers (16.5 times) 4 per warp 2.49 s,
/// 2: 2.89 s, 1: 3.49 s, and over 16 890 (4 times) 4 per warp and 1 the same.
inline constexpr WarpSharing kPointwiseSharing{4, 1};
inline constexpr WarpSharing kReturnsXYSharing{2, 5};
inline constexpr WarpSharing kFieldLayerSharing{4, 5};

/// Chunks per warp for `threads` decoding threads of a kernel of which the device holds
/// `residentWarps` warps at once: one, doubled (up to sharing.most) while `threads` at that many
/// per warp still fill the resident warps sharing.wavesPerLane times over. A small batch, as a
/// streaming frame's, takes one per warp: it waits on its longest chain, which divergence would
/// lengthen.
constexpr uint32_t autoChunksPerWarp(uint64_t threads, uint64_t residentWarps,
                                     const WarpSharing& sharing) {
  uint32_t n = 1;
  while (n < sharing.most && threads >= residentWarps * sharing.wavesPerLane * n) n *= 2;
  return n;
}

class CudaLazDecoder final : public ChunkBatchDecoder {
 public:
  explicit CudaLazDecoder(const CudaLazSettings& settings = {});
  ~CudaLazDecoder() override;
  CudaLazDecoder(const CudaLazDecoder&) = delete;
  CudaLazDecoder& operator=(const CudaLazDecoder&) = delete;

  const char* name() const override { return "cuda"; }
  bool supports(const LaszipVlr& vlr) const override;
  bool fallsBackToCpu() const override { return settings_.fallBackToCpu; }
  std::vector<size_t> decode(const LaszipVlr& vlr, const FieldSelection& fields,
                             std::span<const uint8_t> data, std::span<const BatchChunk> chunks,
                             uint8_t* records) override;

  /// Decodes into device memory: afterwards deviceRecords() holds the records of every chunk in
  /// order (recordLength bytes each). Returns the broken chunks as decode() does.
  std::vector<size_t> decodeToDevice(const LaszipVlr& vlr, const FieldSelection& fields,
                                     std::span<const uint8_t> data,
                                     std::span<const BatchChunk> chunks);
  /// Copies `data` to the device (pinned staging on the decoder's stream); timings().uploadMs.
  void upload(std::span<const uint8_t> data);
  /// Decodes the bytes upload() put on the device; `hostData` is the same bytes, whose chunk
  /// headers (layer sizes) are read on the host. The decode alone: one kernel launch, for the
  /// benchmark and for profiling.
  std::vector<size_t> decodeUploaded(const LaszipVlr& vlr, const FieldSelection& fields,
                                     std::span<const uint8_t> hostData,
                                     std::span<const BatchChunk> chunks);

  const uint8_t* deviceRecords() const { return records_.data(); }
  uint64_t deviceRecordBytes() const { return recordBytes_; }
  const uint8_t* deviceData() const { return data_.data(); }
  cudaStream_t stream() const { return stream_; }
  const CudaLazTimings& timings() const { return timings_; }

 private:
  struct Batch;
  /// Creates the stream and events on first use: a decoder made for `--decode auto` costs
  /// nothing until a LAZ file is read.
  void start();
  Batch prepare(const LaszipVlr& vlr, const FieldSelection& fields,
                std::span<const uint8_t> hostData, std::span<const BatchChunk> chunks) const;
  std::vector<size_t> decodeOnHost(const LaszipVlr& vlr, const FieldSelection& fields,
                                   std::span<const uint8_t> data,
                                   std::span<const BatchChunk> chunks, uint8_t* records) const;
  /// Threads of the one-thread-per-chunk kernels with `stride` bytes of state each, and their
  /// state allocated; the budget the state may take.
  uint32_t chunkThreads(uint64_t stride, uint32_t chunkCount);
  uint64_t stateBudget();
  uint8_t* reserveState(uint64_t bytes);
  void decodeLayered(Batch& b);
  /// KernelParams::spread for `threads` decoding threads of a kernel (residentWarps: how many of
  /// its warps the device holds at once); `used` gets the chunks per warp, `resident` the warps.
  uint32_t spreadFor(uint64_t threads, uint32_t (*residentWarps)(uint32_t),
                     const WarpSharing& sharing, uint32_t& used, uint32_t& resident) const;

  CudaLazSettings settings_;
  std::mutex decoding_;  ///< decode(): one file at a time (readers may share a decoder)
  cudaStream_t stream_ = nullptr;
  cudaEvent_t events_[9] = {};
  uint8_t* pinned_[2] = {nullptr, nullptr};  ///< staging for uploads
  DeviceBuffer<uint8_t> data_;
  DeviceBuffer<uint8_t> records_;
  uint64_t recordBytes_ = 0;
  DeviceBuffer<uint8_t> state_;
  DeviceBuffer<uint8_t> tables_;  ///< chunks, order, layer spans, faults, channels, counter
  DeviceBuffer<uint32_t> steps_;  ///< layered: a packed Point14Step per record
  DeviceBuffer<FieldItem> items_;  ///< layered: the second pass's items
  CudaLazTimings timings_;
};

}  // namespace pcv::laz::cuda
