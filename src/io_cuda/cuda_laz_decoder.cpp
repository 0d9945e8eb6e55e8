#include "cuda_laz_decoder.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>

#include "laz/chunk_decoder.hpp"
#include "field_layer_plan.hpp"
#include "laz/point14_fields.hpp"
#include "laz_chunk_kernels.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/cuda/cuda_check.hpp"
#include "pcv/io_cuda/cuda_laz.hpp"

namespace pcv::laz::cuda {
namespace {

/// Pinned staging buffers: the upload copies into one while the other goes over the bus.
constexpr uint64_t kStagingBytes = uint64_t(64) << 20;
/// More threads than this gain nothing (a 1 B-point file has about 20 000 chunks).
constexpr uint32_t kMaxThreads = 1u << 16;

enum Event {
  UploadStart,
  UploadEnd,
  DecodeStart,
  DecodeEnd,
  Staged0,
  Staged1,
  DownloadEnd,
  FirstPassEnd,
  SecondPassStart
};

/// The host twin's second-pass state per launch: small, so that tests cut several launches.
constexpr uint64_t kHostStateBudget = uint64_t(8) << 20;

uint64_t alignUp(uint64_t n, uint64_t to) {
  return (n + to - 1) / to * to;
}

/// The layers a layered decoder reads, as ChunkDecoder's constructor chooses them.
FieldWanted fieldsWanted(const FieldSelection& f) {
  FieldWanted w;
  w.point14Layers = (uint32_t(f.z) << kZLayer) |
                    (uint32_t(f.classification) << kClassificationLayer) |
                    (uint32_t(f.flags) << kFlagsLayer) | (uint32_t(f.intensity) << kIntensityLayer) |
                    (uint32_t(f.scanAngle) << kScanAngleLayer) |
                    (uint32_t(f.userData) << kUserDataLayer) |
                    (uint32_t(f.pointSource) << kPointSourceLayer) |
                    (uint32_t(f.gpsTime) << kGpsTimeLayer);
  w.rgb = f.rgb;
  w.nir = f.nir;
  w.extraBytes = f.extraBytes;
  return w;
}

/// The kernel's item slots for a supported file; false when an item is not decoded here.
bool slotsFor(const LaszipVlr& vlr, KernelParams& p) {
  const bool layered = vlr.compressor == Compressor::Layered;
  if (vlr.items.empty() || vlr.items.size() > kMaxSlots) return false;
  uint32_t offset = 0, layer = 0, extras = 0;
  p.slotCount = 0;
  p.extraBytes = 0;
  for (size_t i = 0; i < vlr.items.size(); ++i) {
    const Item& item = vlr.items[i];
    ItemSlot slot{SlotKind::Point10, offset, item.size, layer, item.version == 4 ? 4u : 3u, 0};
    bool ok = false;
    if (!layered) {
      ok = item.version == 2;
      switch (item.type) {
        case ItemType::Point10:
          slot.kind = SlotKind::Point10;
          ok &= i == 0;
          break;
        case ItemType::GpsTime11:
          slot.kind = SlotKind::GpsTime11;
          break;
        case ItemType::Rgb12:
          slot.kind = SlotKind::Rgb12;
          break;
        case ItemType::Byte:
          slot.kind = SlotKind::Byte;
          p.extraBytes = item.size;
          ++extras;
          break;
        default:
          ok = false;
      }
    } else {
      ok = true;
      switch (item.type) {
        case ItemType::Point14:
          slot.kind = SlotKind::Point14;
          ok = i == 0;
          break;
        case ItemType::Rgb14:
        case ItemType::RgbNir14:
          slot.kind = SlotKind::Rgb14;
          slot.hasNir = item.type == ItemType::RgbNir14;
          break;
        case ItemType::Byte14:
          slot.kind = SlotKind::Byte14;
          p.extraBytes = item.size;
          ++extras;
          break;
        default:
          ok = false;
      }
      layer += layerCount(item);
    }
    if (!ok) return false;
    p.slots[p.slotCount++] = slot;
    offset += item.size;
  }
  return extras <= 1;
}

}  // namespace

CudaLazDecoder::CudaLazDecoder(const CudaLazSettings& settings) : settings_(settings) {
  const uint32_t n = settings_.chunksPerWarp;
  if (n > 32 || (n & (n - 1)) != 0) {
    throw std::invalid_argument("CudaLazSettings::chunksPerWarp is " + std::to_string(n) +
                                "; expected 0 (automatic), 1, 2, 4, 8, 16 or 32");
  }
}

void CudaLazDecoder::start() {
  if (stream_) return;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  for (cudaEvent_t& event : events_) CUDA_CHECK(cudaEventCreate(&event));
}

CudaLazDecoder::~CudaLazDecoder() {
  for (uint8_t* buffer : pinned_) {
    if (buffer) CUDA_CHECK_PRINT(cudaFreeHost(buffer));
  }
  for (cudaEvent_t event : events_) {
    if (event) CUDA_CHECK_PRINT(cudaEventDestroy(event));
  }
  if (stream_) CUDA_CHECK_PRINT(cudaStreamDestroy(stream_));
}

bool CudaLazDecoder::supports(const LaszipVlr& vlr) const {
  if (vlr.compressor == Compressor::None || vlr.coder != 0) return false;
  KernelParams p{};
  return slotsFor(vlr, p);
}

void CudaLazDecoder::upload(std::span<const uint8_t> data) {
  start();
  data_.reserve(std::max<uint64_t>(data.size(), 1));
  for (uint8_t*& buffer : pinned_) {
    if (!buffer) CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&buffer), kStagingBytes));
  }
  CUDA_CHECK(cudaEventRecord(events_[UploadStart], stream_));
  bool used[2] = {false, false};
  for (uint64_t at = 0, piece = 0; at < data.size(); at += kStagingBytes, ++piece) {
    const uint32_t b = uint32_t(piece & 1);
    const uint64_t bytes = std::min<uint64_t>(kStagingBytes, data.size() - at);
    // The buffer's previous copy must be done before it is refilled.
    if (used[b]) CUDA_CHECK(cudaEventSynchronize(events_[Staged0 + b]));
    copyInParallel(pinned_[b], data.data() + at, bytes);
    CUDA_CHECK(
        cudaMemcpyAsync(data_.data() + at, pinned_[b], bytes, cudaMemcpyHostToDevice, stream_));
    CUDA_CHECK(cudaEventRecord(events_[Staged0 + b], stream_));
    used[b] = true;
  }
  CUDA_CHECK(cudaEventRecord(events_[UploadEnd], stream_));
  CUDA_CHECK(cudaEventSynchronize(events_[UploadEnd]));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, events_[UploadStart], events_[UploadEnd]));
  timings_.uploadMs = ms;
}

/// What one decode hands the kernels: the chunk table (chunks the host already finds broken left
/// out), the largest-first order and the layer spans, packed into one block with room for the
/// faults, the channels and the work counter; pointers in `params` are filled in where the block
/// lies.
struct CudaLazDecoder::Batch {
  KernelParams params{};
  bool layered = false;
  FieldWanted wanted;
  std::vector<DeviceChunk> table;
  std::vector<LayerSpan> spans;
  std::vector<uint8_t> packed;  ///< tables, then faults, channels and counter (zero)
  uint64_t chunkAt = 0, orderAt = 0, spanAt = 0, faultAt = 0, channelAt = 0, counterAt = 0;
  std::vector<uint8_t> broken;  ///< per chunk: found broken on the host
  uint64_t records = 0;

  /// Points the params at the block copied to `tables`.
  void place(uint8_t* tables) {
    params.chunks = reinterpret_cast<const DeviceChunk*>(tables + chunkAt);
    params.order = reinterpret_cast<const uint32_t*>(tables + orderAt);
    params.layers = reinterpret_cast<const LayerSpan*>(tables + spanAt);
    params.faulty = reinterpret_cast<uint32_t*>(tables + faultAt);
    params.channels = reinterpret_cast<uint32_t*>(tables + channelAt);
    params.nextChunk = reinterpret_cast<uint32_t*>(tables + counterAt);
  }
  /// The second pass, from the first pass's `faulty` flags and `channels`.
  FieldLayerPlan plan(const uint32_t* faulty, const uint32_t* channels, uint64_t budget) const {
    return planFieldLayers({params.slots, params.slotCount}, table, spans,
                           {faulty, table.size()}, {channels, table.size()}, wanted, budget);
  }
  /// The broken chunks, ascending, from the host's findings and the decoder's `faulty` flags.
  std::vector<size_t> brokenChunks(const uint32_t* faulty) const {
    std::vector<size_t> result;
    for (size_t i = 0; i < broken.size(); ++i) {
      if (broken[i] || faulty[i]) result.push_back(i);
    }
    return result;
  }
};

CudaLazDecoder::Batch CudaLazDecoder::prepare(const LaszipVlr& vlr, const FieldSelection& fields,
                                              std::span<const uint8_t> hostData,
                                              std::span<const BatchChunk> chunks) const {
  Batch b;
  KernelParams& p = b.params;
  if (!slotsFor(vlr, p)) throw Error("the GPU LAZ decoder does not decode these items");
  b.layered = vlr.compressor == Compressor::Layered;
  b.wanted = fieldsWanted(fields);
  const uint32_t length = vlr.recordLength();

  // What the CPU decoder finds wrong before its first point (a layout that does not fit) is
  // found here, and the chunk left out.
  std::vector<DeviceChunk>& table = b.table;
  std::vector<LayerSpan>& spans = b.spans;
  table.resize(chunks.size());
  b.broken.assign(chunks.size(), 0);
  for (size_t i = 0; i < chunks.size(); ++i) {
    const BatchChunk& c = chunks[i];
    DeviceChunk& d = table[i];
    d = {c.offset, c.byteCount, c.pointCount, b.records, uint32_t(spans.size()), 0};
    b.records += c.pointCount;
    if (c.pointCount == 0) {
      d.skip = 1;
      continue;
    }
    if (c.byteCount < length || c.offset > hostData.size() ||
        c.byteCount > hostData.size() - c.offset) {
      d.skip = b.broken[i] = 1;
      continue;
    }
    if (!b.layered) continue;
    try {
      const LayeredChunkShape shape =
          readLayeredChunkShape(vlr, hostData.data() + c.offset, c.byteCount);
      // Bytes after the layers: the CPU decoder's "point counts disagree".
      if (shape.statedPointCount != c.pointCount || shape.totalBytes < c.byteCount) {
        d.skip = b.broken[i] = 1;
        continue;
      }
      uint64_t at = shape.layersStart;
      for (const uint32_t bytes : shape.layerBytes) {
        spans.push_back({at, bytes});
        at += bytes;
      }
    } catch (const LazError&) {
      d.skip = b.broken[i] = 1;
    }
  }
  std::vector<uint32_t> order;
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (!table[i].skip) order.push_back(uint32_t(i));
  }
  // Largest first: the last chunks to start are the short ones, so threads finish together.
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    return table[x].pointCount > table[y].pointCount;
  });

  b.chunkAt = 0;
  b.orderAt = alignUp(b.chunkAt + table.size() * sizeof(DeviceChunk), 16);
  b.spanAt = alignUp(b.orderAt + order.size() * sizeof(uint32_t), 16);
  // Faults and channels side by side: one copy brings both back after the first pass.
  b.faultAt = alignUp(b.spanAt + spans.size() * sizeof(LayerSpan), 16);
  b.channelAt = b.faultAt + chunks.size() * sizeof(uint32_t);
  b.counterAt = alignUp(b.channelAt + chunks.size() * sizeof(uint32_t), 16);
  b.packed.assign(b.counterAt + 16, 0);
  if (!table.empty()) {
    std::memcpy(b.packed.data() + b.chunkAt, table.data(), table.size() * sizeof(DeviceChunk));
  }
  if (!order.empty()) {
    std::memcpy(b.packed.data() + b.orderAt, order.data(), order.size() * sizeof(uint32_t));
  }
  if (!spans.empty()) {
    std::memcpy(b.packed.data() + b.spanAt, spans.data(), spans.size() * sizeof(LayerSpan));
  }

  p.chunkCount = uint32_t(order.size());
  p.recordLength = length;
  p.endKnown = vlr.chunked() ? 1u : 0u;
  p.stateStride = alignUp(b.layered ? returnsXYStateBytes() : pointwiseStateBytes(p.extraBytes),
                          256);
  return b;
}

uint64_t CudaLazDecoder::stateBudget() {
  size_t freeBytes = 0, totalBytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  return uint64_t(double(freeBytes + state_.bytes()) * settings_.stateMemoryFraction);
}

uint8_t* CudaLazDecoder::reserveState(uint64_t bytes) {
  const uint64_t before = state_.bytes();
  state_.reserve(std::max<uint64_t>(bytes, 1));
  // Cleared once when allocated: a decoder never reads state it did not write, but whole-struct
  // copies touch padding.
  if (state_.bytes() != before) {
    CUDA_CHECK(cudaMemsetAsync(state_.data(), 0, state_.bytes(), stream_));
  }
  return state_.data();
}

uint32_t CudaLazDecoder::chunkThreads(uint64_t stride, uint32_t chunkCount) {
  // One per chunk, as many as the state memory allows.
  uint64_t threads = settings_.maxThreads ? settings_.maxThreads : stateBudget() / stride;
  threads = std::clamp<uint64_t>(std::min<uint64_t>(threads, chunkCount), 1, kMaxThreads);
  reserveState(threads * stride);
  timings_.threads = uint32_t(threads);
  timings_.stateBytesPerThread = stride;
  return uint32_t(threads);
}

std::vector<size_t> CudaLazDecoder::decodeUploaded(const LaszipVlr& vlr,
                                                   const FieldSelection& fields,
                                                   std::span<const uint8_t> hostData,
                                                   std::span<const BatchChunk> chunks) {
  start();
  Batch b = prepare(vlr, fields, hostData, chunks);
  KernelParams& p = b.params;
  tables_.reserve(b.packed.size());
  CUDA_CHECK(cudaMemcpyAsync(tables_.data(), b.packed.data(), b.packed.size(),
                             cudaMemcpyHostToDevice, stream_));
  b.place(tables_.data());

  recordBytes_ = b.records * p.recordLength;
  records_.reserve(std::max<uint64_t>(recordBytes_, 1));
  // Chunks found broken on the host get no records from the kernels: zeros, so that copying
  // every record back reads no uninitialized memory (compute-sanitizer's initcheck).
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (b.broken[i] && chunks[i].pointCount > 0) {
      CUDA_CHECK(cudaMemsetAsync(records_.data() + b.table[i].firstRecord * p.recordLength, 0,
                                 chunks[i].pointCount * p.recordLength, stream_));
    }
  }
  p.data = data_.data();
  p.records = records_.data();
  timings_ = CudaLazTimings{.uploadMs = timings_.uploadMs};

  CUDA_CHECK(cudaEventRecord(events_[DecodeStart], stream_));
  if (p.chunkCount > 0) {
    p.threads = chunkThreads(p.stateStride, p.chunkCount);
    p.state = state_.data();
    if (b.layered) {
      decodeLayered(b);
    } else {
      p.spread = spreadFor(p.threads, pointwiseResidentWarps, kPointwiseSharing,
                           timings_.chunksPerWarp, timings_.residentWarps);
      launchPointwiseDecode(p, settings_.blockSize, stream_);
    }
  }
  CUDA_CHECK(cudaEventRecord(events_[DecodeEnd], stream_));
  std::vector<uint32_t> faulty(chunks.size(), 0);
  if (!faulty.empty()) {
    CUDA_CHECK(cudaMemcpyAsync(faulty.data(), p.faulty, faulty.size() * sizeof(uint32_t),
                               cudaMemcpyDeviceToHost, stream_));
  }
  CUDA_CHECK(cudaStreamSynchronize(stream_));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, events_[DecodeStart], events_[DecodeEnd]));
  timings_.decodeMs = ms;
  if (b.layered && p.chunkCount > 0) {
    CUDA_CHECK(cudaEventElapsedTime(&ms, events_[DecodeStart], events_[FirstPassEnd]));
    timings_.firstPassMs = ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, events_[SecondPassStart], events_[DecodeEnd]));
    timings_.secondPassMs = ms;
  }
  return b.brokenChunks(faulty.data());
}

void CudaLazDecoder::decodeLayered(Batch& b) {
  KernelParams& p = b.params;
  steps_.reserve(std::max<uint64_t>(b.records, 1));
  p.steps = steps_.data();
  p.spread = spreadFor(p.threads, returnsXYResidentWarps, kReturnsXYSharing,
                       timings_.chunksPerWarp, timings_.residentWarps);
  launchReturnsXYDecode(p, settings_.blockSize, stream_);
  CUDA_CHECK(cudaEventRecord(events_[FirstPassEnd], stream_));
  // Faults and channels of the first pass, which the plan needs.
  const size_t chunkCount = b.table.size();
  std::vector<uint32_t> found(2 * chunkCount);
  CUDA_CHECK(cudaMemcpyAsync(found.data(), p.faulty, found.size() * sizeof(uint32_t),
                             cudaMemcpyDeviceToHost, stream_));
  CUDA_CHECK(cudaStreamSynchronize(stream_));
  const FieldLayerPlan plan = b.plan(found.data(), found.data() + chunkCount, stateBudget());
  timings_.fieldItems = plan.decodedItems;
  timings_.fieldLaunches = uint32_t(plan.launches.size());
  timings_.fieldStateBytes = plan.maxStateBytes;
  CUDA_CHECK(cudaEventRecord(events_[SecondPassStart], stream_));
  if (plan.items.empty()) return;
  items_.reserve(plan.items.size());
  // From pageable memory: the call returns once the items are staged, so `plan` may go.
  CUDA_CHECK(cudaMemcpyAsync(items_.data(), plan.items.data(),
                             plan.items.size() * sizeof(FieldItem), cudaMemcpyHostToDevice,
                             stream_));
  p.state = reserveState(plan.maxStateBytes);
  // Launches run one after the other on the stream, each over the same state.
  for (const FieldLaunch& launch : plan.launches) {
    p.items = items_.data() + launch.firstItem;
    p.itemCount = launch.itemCount;
    uint32_t perWarp = 0;
    p.spread = spreadFor(p.itemCount, fieldLayerResidentWarps, kFieldLayerSharing, perWarp,
                         timings_.fieldResidentWarps);
    timings_.fieldChunksPerWarp = std::max(timings_.fieldChunksPerWarp, perWarp);
    launchFieldLayerDecode(p, settings_.blockSize, stream_);
  }
}

uint32_t CudaLazDecoder::spreadFor(uint64_t threads, uint32_t (*residentWarps)(uint32_t),
                                   const WarpSharing& sharing, uint32_t& used,
                                   uint32_t& resident) const {
  resident = residentWarps(settings_.blockSize);
  used = settings_.chunksPerWarp;
  if (used == 0) used = autoChunksPerWarp(threads, resident, sharing);
  return 32u / used;
}

std::vector<size_t> CudaLazDecoder::decodeOnHost(const LaszipVlr& vlr, const FieldSelection& fields,
                                                 std::span<const uint8_t> data,
                                                 std::span<const BatchChunk> chunks,
                                                 uint8_t* records) const {
  Batch b = prepare(vlr, fields, data, chunks);
  b.place(b.packed.data());
  KernelParams& p = b.params;
  // 8-byte alignment is all the state's structs need.
  std::vector<uint64_t> state((p.stateStride + 7) / 8, 0);
  p.data = data.data();
  p.records = records;
  p.state = reinterpret_cast<uint8_t*>(state.data());
  p.threads = 1;
  p.spread = 1;
  if (!b.layered) {
    decodePointwiseOnHost(p);
    return b.brokenChunks(p.faulty);
  }
  std::vector<uint32_t> steps(b.records, 0);
  p.steps = steps.data();
  decodeReturnsXYOnHost(p);
  const FieldLayerPlan plan = b.plan(p.faulty, p.channels, kHostStateBudget);
  for (const FieldLaunch& launch : plan.launches) {
    std::vector<uint64_t> launchState((launch.stateBytes + 7) / 8, 0);
    p.state = reinterpret_cast<uint8_t*>(launchState.data());
    p.items = plan.items.data() + launch.firstItem;
    p.itemCount = launch.itemCount;
    decodeFieldLayersOnHost(p);
  }
  return b.brokenChunks(p.faulty);
}

std::vector<size_t> CudaLazDecoder::decodeToDevice(const LaszipVlr& vlr,
                                                   const FieldSelection& fields,
                                                   std::span<const uint8_t> data,
                                                   std::span<const BatchChunk> chunks) {
  upload(data);
  return decodeUploaded(vlr, fields, data, chunks);
}

std::vector<size_t> CudaLazDecoder::decode(const LaszipVlr& vlr, const FieldSelection& fields,
                                           std::span<const uint8_t> data,
                                           std::span<const BatchChunk> chunks, uint8_t* records) {
  const std::lock_guard lock(decoding_);
  if (settings_.emulateOnHost) return decodeOnHost(vlr, fields, data, chunks, records);
  std::vector<size_t> broken = decodeToDevice(vlr, fields, data, chunks);
  if (recordBytes_ > 0) {
    CUDA_CHECK(cudaEventRecord(events_[DecodeEnd], stream_));
    CUDA_CHECK(
        cudaMemcpyAsync(records, records_.data(), recordBytes_, cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaEventRecord(events_[DownloadEnd], stream_));
    CUDA_CHECK(cudaEventSynchronize(events_[DownloadEnd]));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, events_[DecodeEnd], events_[DownloadEnd]));
    timings_.downloadMs = ms;
  }
  return broken;
}

}  // namespace pcv::laz::cuda

namespace pcv::io {

bool cudaLazDecodeUsable(std::string* why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    if (why) {
      *why = status != cudaSuccess
                 ? std::string("no CUDA device (") + cudaGetErrorString(status) + ")"
                 : std::string("no CUDA device");
    }
    (void)cudaGetLastError();
    return false;
  }
  return true;
}

std::shared_ptr<laz::ChunkBatchDecoder> makeCudaLazDecoder(bool fallBackToCpu) {
  std::string why;
  if (!cudaLazDecodeUsable(&why)) throw Error("cannot decode LAZ on the GPU: " + why);
  laz::cuda::CudaLazSettings settings;
  settings.fallBackToCpu = fallBackToCpu;
  return std::make_shared<laz::cuda::CudaLazDecoder>(settings);
}

std::shared_ptr<laz::ChunkBatchDecoder> lazDecoderNamed(const std::string& choice) {
  if (choice == "cpu" || choice == "auto") return nullptr;
  if (choice != "cuda") {
    throw InputError("unknown LAZ decoder \"" + choice + "\" (expected auto, cuda or cpu)");
  }
  std::string why;
  if (!cudaLazDecodeUsable(&why)) {
    throw UnavailableError("cannot decode LAZ on the GPU (decode cuda): " + why);
  }
  return makeCudaLazDecoder(false);
}

}  // namespace pcv::io
