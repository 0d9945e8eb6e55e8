// LAZ chunks decoded on the GPU by the codec functions the CPU decoder runs: one thread per
// chunk, its models in a slot of device memory. Only the extra-byte items are written here (the
// CPU's hold std::vector); they follow byte_codec.hpp and layered_items.hpp step for step.
#include <new>

#include "laz/arithmetic_decoder.hpp"
#include "laz/gps_time_codec.hpp"
#include "laz/layered_items.hpp"
#include "laz/point10_codec.hpp"
#include "laz/point14_codec.hpp"
#include "laz/rgb_codec.hpp"
#include "laz_chunk_kernels.hpp"
#include "pcv/cuda/cuda_check.hpp"

namespace pcv::laz::cuda {
namespace {

struct PointwiseState {
  ArithmeticDecoder stream;
  Point10V2Codec point10;
  GpsTime11V2Codec gps;
  Rgb12V2Codec rgb;
};

struct LayeredState {
  Point14Codec point14;
  Rgb14Codec rgb14;
};

constexpr uint64_t alignUp(uint64_t n, uint64_t to) {
  return (n + to - 1) / to * to;
}

/// BYTE version 2 (ByteV2Codec) over models in the thread's slot.
struct DeviceByteV2 {
  uint32_t count;
  SymbolModel<256>* diff;  ///< [count]
  uint8_t* last;           ///< [count]

  static uint64_t bytes(uint32_t n) { return alignUp(n * sizeof(SymbolModel<256>) + n, 16); }
  __host__ __device__ void bind(uint8_t* area, uint32_t n) {
    count = n;
    diff = reinterpret_cast<SymbolModel<256>*>(area);
    last = area + n * sizeof(SymbolModel<256>);
  }
  __host__ __device__ void startChunk(const uint8_t* firstItem) {
    for (uint32_t i = 0; i < count; ++i) {
      last[i] = firstItem[i];
      diff[i].reset(256, true);
    }
  }
  __host__ __device__ void decode(ArithmeticDecoder& decoder, uint8_t* item) {
    for (uint32_t i = 0; i < count; ++i) {
      last[i] = wrapByte(int32_t(last[i] + decoder.decodeSymbol(diff[i])));
      item[i] = last[i];
    }
  }
};

/// BYTE14 (Byte14Codec) over models and layers in the thread's slot; every byte wanted or none.
struct DeviceByte14 {
  uint32_t count;
  uint32_t version;
  bool wanted;
  SymbolModel<256>* diff;     ///< [4][count]
  ArithmeticDecoder* layers;  ///< [count]
  uint8_t* last;              ///< [4][count]
  uint8_t* active;            ///< [count]
  ChannelFollower channels;

  static uint64_t bytes(uint32_t n) {
    return alignUp(4 * n * sizeof(SymbolModel<256>) + n * sizeof(ArithmeticDecoder) + 5 * n, 16);
  }
  __host__ __device__ void bind(uint8_t* area, uint32_t n) {
    count = n;
    diff = reinterpret_cast<SymbolModel<256>*>(area);
    area += 4 * n * sizeof(SymbolModel<256>);
    layers = reinterpret_cast<ArithmeticDecoder*>(area);
    area += n * sizeof(ArithmeticDecoder);
    last = area;
    active = area + 4 * n;
  }
  __host__ __device__ void resetModels(uint32_t channel) {
    if (!wanted) return;
    for (uint32_t i = 0; i < count; ++i) diff[channel * count + i].reset(256, true);
  }
  __host__ __device__ void startChunk(const uint8_t* firstItem, uint32_t channel) {
    for (uint32_t i = 0; i < count; ++i) active[i] = 0;
    channels.startChunk(channel);
    for (uint32_t i = 0; i < count; ++i) last[channel * count + i] = firstItem[i];
    resetModels(channel);
  }
  __host__ __device__ void startLayer(uint32_t byte, const uint8_t* bytes, uint64_t size) {
    active[byte] = wanted && size > 0;
    if (active[byte]) layers[byte].start(bytes, size);
  }
  __host__ __device__ void decode(uint8_t* item, uint32_t channel) {
    const uint32_t owner = channels.follow(channel, version, [&](uint32_t fresh, uint32_t from) {
      for (uint32_t i = 0; i < count; ++i) last[fresh * count + i] = last[from * count + i];
      resetModels(fresh);
    });
    SymbolModel<256>* models = diff + channels.current * count;
    uint8_t* values = last + owner * count;
    for (uint32_t i = 0; i < count; ++i) {
      if (active[i]) {
        values[i] = wrapByte(int32_t(values[i] + layers[i].decodeSymbol(models[i])));
      }
      item[i] = values[i];
    }
  }
  __host__ __device__ bool failed() const {
    for (uint32_t i = 0; i < count; ++i) {
      if (active[i] && layers[i].failed()) return true;
    }
    return false;
  }
};

__host__ __device__ void copyRecord(uint8_t* out, const uint8_t* in, uint32_t length) {
  for (uint32_t i = 0; i < length; ++i) out[i] = in[i];
}

/// One pointwise chunk (ChunkDecoder::startPointwise / decodePointwise); true when broken.
__host__ __device__ bool decodePointwiseChunk(const KernelParams& p, PointwiseState& s,
                                              DeviceByteV2& extra, const DeviceChunk& chunk) {
  const uint8_t* bytes = p.data + chunk.offset;
  uint8_t* out = p.records + chunk.firstRecord * p.recordLength;
  const uint32_t length = p.recordLength;
  bool hasGps = false;
  for (uint32_t k = 0; k < p.slotCount; ++k) {
    const uint8_t* first = bytes + p.slots[k].offset;
    switch (p.slots[k].kind) {
      case SlotKind::Point10:
        s.point10.startChunk(first, true);
        break;
      case SlotKind::GpsTime11:
        s.gps.startChunk(first, true);
        hasGps = true;
        break;
      case SlotKind::Rgb12:
        s.rgb.startChunk(first, true);
        break;
      case SlotKind::Byte:
        extra.startChunk(first);
        break;
      default:
        break;
    }
  }
  // A local copy: its state stays in registers instead of going through the per-thread state
  // in device memory on every symbol (see ArithmeticDecoder::renormalized).
  ArithmeticDecoder stream;
  stream.start(bytes + length, chunk.byteCount - length);
  copyRecord(out, bytes, length);
  for (uint64_t i = 1; i < chunk.pointCount; ++i) {
    uint8_t* record = out + i * length;
    for (uint32_t k = 0; k < p.slotCount; ++k) {
      uint8_t* item = record + p.slots[k].offset;
      switch (p.slots[k].kind) {
        case SlotKind::Point10:
          s.point10.decode(stream, item);
          break;
        case SlotKind::GpsTime11:
          s.gps.decode(stream, item);
          break;
        case SlotKind::Rgb12:
          s.rgb.decode(stream, item);
          break;
        case SlotKind::Byte:
          extra.decode(stream, item);
          break;
        default:
          break;
      }
    }
  }
  s.stream = stream;
  bool broken = s.stream.failed() || (hasGps && s.gps.corrupt);
  // Encoders write exactly what the decoder reads (LazPointRecords::decodeChunk).
  if (p.endKnown && chunk.pointCount > 0 && length + s.stream.position < chunk.byteCount) {
    broken = true;
  }
  return broken;
}

/// One layered chunk (ChunkDecoder::startLayered / decodeLayered); true when broken.
__host__ __device__ bool decodeLayeredChunk(const KernelParams& p, LayeredState& s,
                                            DeviceByte14& extra, const DeviceChunk& chunk) {
  const uint8_t* bytes = p.data + chunk.offset;
  const LayerSpan* spans = p.layers + chunk.firstLayer;
  uint8_t* out = p.records + chunk.firstRecord * p.recordLength;
  const uint32_t length = p.recordLength;
  const bool decodes = chunk.pointCount > 1;
  uint32_t channel = 0;
  bool hasRgb = false, hasExtra = false;
  uint32_t rgbOffset = 0, extraOffset = 0;
  for (uint32_t k = 0; k < p.slotCount; ++k) {
    const ItemSlot& slot = p.slots[k];
    const uint8_t* first = bytes + slot.offset;
    switch (slot.kind) {
      case SlotKind::Point14:
        s.point14.version = slot.version;
        s.point14.layersWanted = p.layersWanted;
        channel = s.point14.startChunk(first, true);
        for (uint32_t l = 0; l < kPoint14LayerCount; ++l) {
          const LayerSpan& span = spans[slot.firstLayer + l];
          if (decodes) {
            s.point14.startLayer(l, bytes + span.offset, uint32_t(span.size));
          } else {
            s.point14.layersActive = 0;
          }
        }
        break;
      case SlotKind::Rgb14: {
        hasRgb = true;
        rgbOffset = slot.offset;
        s.rgb14.version = slot.version;
        s.rgb14.hasNir = slot.hasNir != 0;
        s.rgb14.wantRgb = p.wantRgb != 0;
        s.rgb14.wantNir = p.wantNir != 0;
        s.rgb14.startChunk(first, channel, true);
        if (decodes) {
          const LayerSpan& rgb = spans[slot.firstLayer];
          const LayerSpan& nir = spans[slot.hasNir ? slot.firstLayer + 1 : slot.firstLayer];
          s.rgb14.startLayers(bytes + rgb.offset, uint32_t(rgb.size), bytes + nir.offset,
                              slot.hasNir ? uint32_t(nir.size) : 0u);
        }
        break;
      }
      case SlotKind::Byte14:
        hasExtra = true;
        extraOffset = slot.offset;
        extra.version = slot.version;
        extra.wanted = p.wantExtra != 0;
        extra.startChunk(first, channel);
        for (uint32_t b = 0; b < extra.count; ++b) {
          const LayerSpan& span = spans[slot.firstLayer + b];
          if (decodes) extra.startLayer(b, bytes + span.offset, span.size);
        }
        break;
      default:
        break;
    }
  }
  copyRecord(out, bytes, length);
  for (uint64_t i = 1; i < chunk.pointCount; ++i) {
    uint8_t* record = out + i * length;
    const uint32_t pointChannel = s.point14.decode(record);
    if (hasRgb) s.rgb14.decode(record + rgbOffset, pointChannel);
    if (hasExtra) extra.decode(record + extraOffset, pointChannel);
  }
  if (!decodes) return false;
  for (uint32_t l = 0; l < kPoint14LayerCount; ++l) {
    if ((s.point14.layersActive & (1u << l)) && s.point14.layers[l].failed()) return true;
  }
  if (s.point14.corrupt) return true;
  if (hasRgb && s.rgb14.rgbActive && s.rgb14.rgbLayer.failed()) return true;
  if (hasRgb && s.rgb14.nirActive && s.rgb14.nirLayer.failed()) return true;
  return hasExtra && extra.failed();
}

/// The next chunk in the largest-first order, or false when none is left.
__device__ bool takeChunk(const KernelParams& p, uint32_t& index) {
  const uint32_t n = atomicAdd(p.nextChunk, 1u);
  if (n >= p.chunkCount) return false;
  index = p.order[n];
  return true;
}

__global__ void decodePointwiseChunks(KernelParams p) {
  const uint32_t launched = blockIdx.x * blockDim.x + threadIdx.x;
  if (launched % p.spread != 0) return;
  const uint32_t thread = launched / p.spread;
  if (thread >= p.threads) return;
  uint8_t* slot = p.state + thread * p.stateStride;
  PointwiseState& s = *new (slot) PointwiseState;
  DeviceByteV2 extra;
  extra.bind(slot + alignUp(sizeof(PointwiseState), 16), p.extraBytes);
  for (uint32_t index; takeChunk(p, index);) {
    const DeviceChunk chunk = p.chunks[index];
    p.faulty[index] = !chunk.skip && decodePointwiseChunk(p, s, extra, chunk) ? 1u : 0u;
  }
}

__global__ void decodeLayeredChunks(KernelParams p) {
  const uint32_t launched = blockIdx.x * blockDim.x + threadIdx.x;
  if (launched % p.spread != 0) return;
  const uint32_t thread = launched / p.spread;
  if (thread >= p.threads) return;
  uint8_t* slot = p.state + thread * p.stateStride;
  LayeredState& s = *new (slot) LayeredState;
  DeviceByte14 extra;
  extra.bind(slot + alignUp(sizeof(LayeredState), 16), p.extraBytes);
  for (uint32_t index; takeChunk(p, index);) {
    const DeviceChunk chunk = p.chunks[index];
    p.faulty[index] = !chunk.skip && decodeLayeredChunk(p, s, extra, chunk) ? 1u : 0u;
  }
}

}  // namespace

void decodeChunksOnHost(const KernelParams& p, bool layered) {
  uint8_t* slot = p.state;
  if (layered) {
    LayeredState& s = *new (slot) LayeredState;
    DeviceByte14 extra;
    extra.bind(slot + alignUp(sizeof(LayeredState), 16), p.extraBytes);
    for (uint32_t n = 0; n < p.chunkCount; ++n) {
      const DeviceChunk chunk = p.chunks[p.order[n]];
      p.faulty[p.order[n]] = !chunk.skip && decodeLayeredChunk(p, s, extra, chunk) ? 1u : 0u;
    }
    s.~LayeredState();
  } else {
    PointwiseState& s = *new (slot) PointwiseState;
    DeviceByteV2 extra;
    extra.bind(slot + alignUp(sizeof(PointwiseState), 16), p.extraBytes);
    for (uint32_t n = 0; n < p.chunkCount; ++n) {
      const DeviceChunk chunk = p.chunks[p.order[n]];
      p.faulty[p.order[n]] = !chunk.skip && decodePointwiseChunk(p, s, extra, chunk) ? 1u : 0u;
    }
    s.~PointwiseState();
  }
}

uint64_t slotStateBytes(bool layered, uint32_t extraBytes) {
  if (layered) return alignUp(sizeof(LayeredState), 16) + DeviceByte14::bytes(extraBytes);
  return alignUp(sizeof(PointwiseState), 16) + DeviceByteV2::bytes(extraBytes);
}

void launchChunkDecode(const KernelParams& params, bool layered, uint32_t blockSize,
                       cudaStream_t stream) {
  const uint64_t launched = uint64_t(params.threads) * params.spread;
  const uint32_t blocks = uint32_t((launched + blockSize - 1) / blockSize);
  if (layered) {
    decodeLayeredChunks<<<blocks, blockSize, 0, stream>>>(params);
  } else {
    decodePointwiseChunks<<<blocks, blockSize, 0, stream>>>(params);
  }
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace pcv::laz::cuda
