#include "cuda_laz_decoder.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "laz/point14_codec.hpp"
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

enum Event { UploadStart, UploadEnd, DecodeStart, DecodeEnd, Staged0, Staged1, DownloadEnd };

uint64_t alignUp(uint64_t n, uint64_t to) { return (n + to - 1) / to * to; }

/// The layers a layered decoder reads, as ChunkDecoder's constructor chooses them.
uint32_t point14LayersWanted(const FieldSelection& f) {
  return (1u << kReturnsXYLayer) | (uint32_t(f.z) << kZLayer) |
         (uint32_t(f.classification) << kClassificationLayer) | (uint32_t(f.flags) << kFlagsLayer) |
         (uint32_t(f.intensity) << kIntensityLayer) | (uint32_t(f.scanAngle) << kScanAngleLayer) |
         (uint32_t(f.userData) << kUserDataLayer) |
         (uint32_t(f.pointSource) << kPointSourceLayer) | (uint32_t(f.gpsTime) << kGpsTimeLayer);
}

/// Layers an item of a layered chunk holds (as chunk_decoder.cpp counts them).
uint32_t layersOf(const Item& item) {
  switch (item.type) {
    case ItemType::Point14:
      return kPoint14LayerCount;
    case ItemType::RgbNir14:
      return 2;
    case ItemType::Byte14:
      return item.size;
    default:
      return 1;
  }
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
      layer += layersOf(item);
    }
    if (!ok) return false;
    p.slots[p.slotCount++] = slot;
    offset += item.size;
  }
  return extras <= 1;
}

}  // namespace

CudaLazDecoder::CudaLazDecoder(const CudaLazSettings& settings) : settings_(settings) {
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
    CUDA_CHECK(cudaMemcpyAsync(data_.data() + at, pinned_[b], bytes, cudaMemcpyHostToDevice,
                               stream_));
    CUDA_CHECK(cudaEventRecord(events_[Staged0 + b], stream_));
    used[b] = true;
  }
  CUDA_CHECK(cudaEventRecord(events_[UploadEnd], stream_));
  CUDA_CHECK(cudaEventSynchronize(events_[UploadEnd]));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, events_[UploadStart], events_[UploadEnd]));
  timings_.uploadMs = ms;
}

std::vector<size_t> CudaLazDecoder::decodeUploaded(const LaszipVlr& vlr,
                                                   const FieldSelection& fields,
                                                   std::span<const uint8_t> hostData,
                                                   std::span<const BatchChunk> chunks) {
  KernelParams p{};
  if (!slotsFor(vlr, p)) throw Error("the GPU LAZ decoder does not decode these items");
  const bool layered = vlr.compressor == Compressor::Layered;
  const uint32_t length = vlr.recordLength();

  // The chunk table, with what the CPU decoder finds wrong before its first point (a layout
  // that does not fit) marked broken and left out.
  std::vector<DeviceChunk> table(chunks.size());
  std::vector<LayerSpan> spans;
  std::vector<uint8_t> broken(chunks.size(), 0);
  uint64_t records = 0;
  for (size_t i = 0; i < chunks.size(); ++i) {
    const BatchChunk& c = chunks[i];
    DeviceChunk& d = table[i];
    d = {c.offset, c.byteCount, c.pointCount, records, uint32_t(spans.size()), 0};
    records += c.pointCount;
    if (c.pointCount == 0) {
      d.skip = 1;
      continue;
    }
    if (c.byteCount < length || c.offset + c.byteCount > hostData.size()) {
      d.skip = broken[i] = 1;
      continue;
    }
    if (!layered) continue;
    try {
      const LayeredChunkShape shape =
          readLayeredChunkShape(vlr, hostData.data() + c.offset, c.byteCount);
      if (shape.statedPointCount != c.pointCount || shape.totalBytes < c.byteCount) {
        d.skip = broken[i] = 1;
        continue;
      }
      uint64_t at = shape.layersStart;
      for (const uint32_t bytes : shape.layerBytes) {
        spans.push_back({at, bytes});
        at += bytes;
      }
    } catch (const LazError&) {
      d.skip = broken[i] = 1;
    }
  }
  std::vector<uint32_t> order;
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (!table[i].skip) order.push_back(uint32_t(i));
  }
  // Largest first: the last chunks to start are the short ones, so threads finish together.
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return table[a].pointCount > table[b].pointCount;
  });

  // One buffer for the tables, the faults and the work counter.
  const uint64_t chunkAt = 0;
  const uint64_t orderAt = alignUp(chunkAt + table.size() * sizeof(DeviceChunk), 16);
  const uint64_t spanAt = alignUp(orderAt + order.size() * sizeof(uint32_t), 16);
  const uint64_t faultAt = alignUp(spanAt + spans.size() * sizeof(LayerSpan), 16);
  const uint64_t counterAt = alignUp(faultAt + chunks.size() * sizeof(uint32_t), 16);
  const uint64_t tableBytes = counterAt + 16;
  tables_.reserve(tableBytes);
  uint8_t* t = tables_.data();
  std::vector<uint8_t> packed(counterAt, 0);
  if (!table.empty()) std::memcpy(packed.data() + chunkAt, table.data(), table.size() * sizeof(DeviceChunk));
  if (!order.empty()) std::memcpy(packed.data() + orderAt, order.data(), order.size() * 4);
  if (!spans.empty()) {
    std::memcpy(packed.data() + spanAt, spans.data(), spans.size() * sizeof(LayerSpan));
  }
  CUDA_CHECK(cudaMemcpyAsync(t, packed.data(), packed.size(), cudaMemcpyHostToDevice, stream_));
  CUDA_CHECK(cudaMemsetAsync(t + faultAt, 0, tableBytes - faultAt, stream_));

  recordBytes_ = records * length;
  records_.reserve(std::max<uint64_t>(recordBytes_, 1));

  // Threads: one per chunk, as many as the state memory allows.
  const uint64_t stride = alignUp(slotStateBytes(layered, p.extraBytes), 256);
  size_t freeBytes = 0, totalBytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  const uint64_t budget = uint64_t(double(freeBytes + state_.bytes()) * settings_.stateMemoryFraction);
  uint64_t threads = settings_.maxThreads ? settings_.maxThreads : budget / stride;
  threads = std::clamp<uint64_t>(std::min<uint64_t>(threads, order.size()), 1, kMaxThreads);
  const uint64_t before = state_.bytes();
  state_.reserve(threads * stride);
  // Cleared once when allocated: a decoder never reads state it did not write, but whole-struct
  // copies touch padding.
  if (state_.bytes() != before) CUDA_CHECK(cudaMemsetAsync(state_.data(), 0, state_.bytes(), stream_));
  timings_.threads = uint32_t(threads);
  timings_.stateBytesPerThread = stride;

  p.data = data_.data();
  p.chunks = reinterpret_cast<const DeviceChunk*>(t + chunkAt);
  p.order = reinterpret_cast<const uint32_t*>(t + orderAt);
  p.chunkCount = uint32_t(order.size());
  p.nextChunk = reinterpret_cast<uint32_t*>(t + counterAt);
  p.records = records_.data();
  p.recordLength = length;
  p.layers = reinterpret_cast<const LayerSpan*>(t + spanAt);
  p.state = state_.data();
  p.stateStride = stride;
  p.threads = uint32_t(threads);
  p.endKnown = vlr.chunked() ? 1u : 0u;
  p.layersWanted = point14LayersWanted(fields);
  p.wantRgb = fields.rgb;
  p.wantNir = fields.nir;
  p.wantExtra = fields.extraBytes;
  p.faulty = reinterpret_cast<uint32_t*>(t + faultAt);

  CUDA_CHECK(cudaEventRecord(events_[DecodeStart], stream_));
  if (!order.empty()) launchChunkDecode(p, layered, settings_.blockSize, stream_);
  CUDA_CHECK(cudaEventRecord(events_[DecodeEnd], stream_));
  std::vector<uint32_t> faulty(chunks.size(), 0);
  if (!faulty.empty()) {
    CUDA_CHECK(cudaMemcpyAsync(faulty.data(), t + faultAt, faulty.size() * sizeof(uint32_t),
                               cudaMemcpyDeviceToHost, stream_));
  }
  CUDA_CHECK(cudaStreamSynchronize(stream_));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, events_[DecodeStart], events_[DecodeEnd]));
  timings_.decodeMs = ms;

  std::vector<size_t> result;
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (broken[i] || faulty[i]) result.push_back(i);
  }
  return result;
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
  std::vector<size_t> broken = decodeToDevice(vlr, fields, data, chunks);
  if (recordBytes_ > 0) {
    CUDA_CHECK(cudaEventRecord(events_[DecodeEnd], stream_));
    CUDA_CHECK(cudaMemcpyAsync(records, records_.data(), recordBytes_, cudaMemcpyDeviceToHost,
                               stream_));
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
      *why = status != cudaSuccess ? std::string("no CUDA device (") + cudaGetErrorString(status) + ")"
                                   : std::string("no CUDA device");
    }
    (void)cudaGetLastError();
    return false;
  }
  return true;
}

std::shared_ptr<laz::ChunkBatchDecoder> makeCudaLazDecoder() {
  std::string why;
  if (!cudaLazDecodeUsable(&why)) throw Error("cannot decode LAZ on the GPU: " + why);
  return std::make_shared<laz::cuda::CudaLazDecoder>();
}

}  // namespace pcv::io
