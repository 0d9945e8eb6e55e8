// Pointwise LAZ chunks (point formats 0-3) decoded on the GPU by the codec functions the CPU
// decoder runs: one thread per chunk, its models in a slot of device memory, its arithmetic
// decoder in registers. Only the BYTE item is written here (the CPU's holds std::vector); it
// follows byte_codec.hpp step for step.
#include <type_traits>

#include "laz/arithmetic_decoder.hpp"
#include "laz/byte_codec.hpp"
#include "laz/gps_time_codec.hpp"
#include "laz/point10_codec.hpp"
#include "laz/rgb_codec.hpp"
#include "laz_chunk_kernels.hpp"
#include "laz_kernel_support.cuh"
#include "pcv/cuda/cuda_check.hpp"

namespace pcv::laz::cuda {
namespace {

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
      last[i] = decodeByteAfter(decoder, diff[i], last[i]);
      item[i] = last[i];
    }
  }
};

/// A thread's models: the item codecs in its slot, the BYTE models after them.
struct PointwiseState {
  Point10V2Codec point10;
  GpsTime11V2Codec gps;
  Rgb12V2Codec rgb;

  __host__ __device__ static constexpr uint64_t extraAt() {
    return alignUp(sizeof(PointwiseState), 16);
  }
};

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
  // A local, so that the decoder's interval and position live in registers.
  ArithmeticDecoder stream;
  stream.start(bytes + length, chunk.byteCount - length);
  copyBytes(out, bytes, length);
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
  bool broken = stream.failed() || (hasGps && s.gps.corrupt);
  // Encoders write exactly what the decoder reads (LazPointRecords::decodeChunk).
  if (p.endKnown && chunk.pointCount > 0 && length + stream.position < chunk.byteCount) {
    broken = true;
  }
  return broken;
}

/// Binds a thread's slot: the codecs and the BYTE models behind them.
__host__ __device__ PointwiseState& bindSlot(const KernelParams& p, uint8_t* slot,
                                             DeviceByteV2& extra) {
  extra.bind(slot + PointwiseState::extraAt(), p.extraBytes);
  return *reinterpret_cast<PointwiseState*>(slot);
}

__host__ __device__ void decodeOne(const KernelParams& p, PointwiseState& s, DeviceByteV2& extra,
                                   uint32_t index) {
  const DeviceChunk chunk = p.chunks[index];
  p.faulty[index] = !chunk.skip && decodePointwiseChunk(p, s, extra, chunk) ? 1u : 0u;
}

__global__ void decodePointwiseChunks(KernelParams p) {
  uint32_t thread;
  if (!decodingThread(p, p.threads, thread)) return;
  DeviceByteV2 extra;
  PointwiseState& s = bindSlot(p, p.state + thread * p.stateStride, extra);
  for (uint32_t index; takeChunk(p, index);) decodeOne(p, s, extra, index);
}

}  // namespace

static_assert(std::is_trivially_default_constructible_v<PointwiseState>,
              "state slots are raw device memory");

uint64_t pointwiseStateBytes(uint32_t extraBytes) {
  return PointwiseState::extraAt() + DeviceByteV2::bytes(extraBytes);
}

void launchPointwiseDecode(const KernelParams& params, uint32_t blockSize, cudaStream_t stream) {
  decodePointwiseChunks<<<blocksFor(params, params.threads, blockSize), blockSize, 0, stream>>>(
      params);
  CUDA_CHECK(cudaGetLastError());
}

uint32_t pointwiseResidentWarps(uint32_t blockSize) {
  return residentWarpsOf(decodePointwiseChunks, blockSize);
}

void decodePointwiseOnHost(const KernelParams& p) {
  DeviceByteV2 extra;
  PointwiseState& s = bindSlot(p, p.state, extra);
  for (uint32_t n = 0; n < p.chunkCount; ++n) decodeOne(p, s, extra, p.order[n]);
}

}  // namespace pcv::laz::cuda
