// Layered LAZ chunks (point formats 6-8) decoded on the GPU in two passes (see
// laz_chunk_kernels.hpp) by the layer functions the CPU decoder runs: the returns/XY layer of
// point14_returns_xy.hpp, the layers of point14_layers.hpp, and the RGB, NIR and byte steps of
// rgb_codec.hpp, layered_items.hpp and byte_codec.hpp. Arithmetic decoders and the current
// channel's last values are locals (registers); models live in the thread's state.
#include <type_traits>

#include "laz/arithmetic_decoder.hpp"
#include "laz/byte_codec.hpp"
#include "laz/layered_items.hpp"
#include "laz/point14_layers.hpp"
#include "laz/point14_returns_xy.hpp"
#include "laz/rgb_codec.hpp"
#include "laz_chunk_kernels.hpp"
#include "laz_kernel_support.cuh"
#include "pcv/cuda/cuda_check.hpp"

namespace pcv::laz::cuda {
namespace {

/// Bytes of the POINT14 item, which the first pass writes; the items after it keep their first
/// record's values there until the second pass decodes them.
constexpr uint32_t kPoint14Bytes = 30;

static_assert(std::is_trivially_default_constructible_v<Point14ReturnsXY>,
              "state slots are raw device memory");

// ---- First pass: the returns/XY layer, one thread per chunk --------------------------------

/// Writes every record of `chunk` and the steps of its points after the first; `channels` gets
/// the channels they use. True when the layer is broken.
__host__ __device__ bool decodeReturnsXYChunk(const KernelParams& p, Point14ReturnsXY& xyState,
                                              const DeviceChunk& chunk, uint32_t& channels) {
  const uint8_t* bytes = p.data + chunk.offset;
  const uint32_t length = p.recordLength;
  uint8_t* out = p.records + chunk.firstRecord * length;
  copyBytes(out, bytes, length);
  Point14Fields first;
  first.load(bytes);  // POINT14 is the first item (slotsFor)
  // The items after POINT14 start from the first point's channel too.
  channels = (1u | (1u << kOthersChannelShift)) << first.scannerChannel;
  if (chunk.pointCount <= 1) return false;
  xyState.version = p.slots[0].version;
  xyState.startChunk(first, true);
  const LayerSpan span = p.layers[chunk.firstLayer + kReturnsXYLayer];
  ArithmeticDecoder xy;
  xy.start(bytes + span.offset, span.size);
  uint32_t* steps = p.steps + chunk.firstRecord;
  for (uint64_t i = 1; i < chunk.pointCount; ++i) {
    const Point14Step s = xyState.decode(xy);
    uint8_t* record = out + i * length;
    xyState.contexts[s.channel].last.store(record);
    copyBytes(record + kPoint14Bytes, bytes + kPoint14Bytes, length - kPoint14Bytes);
    steps[i] = s.packed();
    channels |= (1u << s.channel) | (1u << (kOthersChannelShift + s.othersChannel));
  }
  return xy.failed();
}

__host__ __device__ void decodeReturnsXYOf(const KernelParams& p, Point14ReturnsXY& xyState,
                                           uint32_t index) {
  const DeviceChunk chunk = p.chunks[index];
  uint32_t channels = 0;
  p.faulty[index] = !chunk.skip && decodeReturnsXYChunk(p, xyState, chunk, channels) ? 1u : 0u;
  p.channels[index] = channels;
}

__global__ void decodeReturnsXYLayers(KernelParams p) {
  uint32_t thread;
  if (!decodingThread(p, p.threads, thread)) return;
  auto& xyState = *reinterpret_cast<Point14ReturnsXY*>(p.state + thread * p.stateStride);
  for (uint32_t index; takeChunk(p, index);) decodeReturnsXYOf(p, xyState, index);
}

// ---- Second pass: one layer of one chunk per thread ----------------------------------------

/// Where a second-pass thread works: its layer's decoder, the chunk's first record and steps.
struct LayerRun {
  const uint8_t* first;  ///< the chunk's first (raw) record
  uint8_t* out;          ///< the chunk's records
  const uint32_t* steps;
  uint64_t pointCount;
  uint32_t length;
  ArithmeticDecoder decoder;

  __host__ __device__ LayerRun(const KernelParams& p, const FieldItem& item) {
    const DeviceChunk& chunk = p.chunks[item.chunk];
    first = p.data + chunk.offset;
    out = p.records + chunk.firstRecord * p.recordLength;
    steps = p.steps + chunk.firstRecord;
    pointCount = chunk.pointCount;
    length = p.recordLength;
    const LayerSpan span = p.layers[chunk.firstLayer + item.layer];
    decoder.start(first + span.offset, span.size);
  }
};

/// A POINT14 layer (point14_layers.hpp) over a chunk, channels switching as the steps say, run
/// by the cursor the CPU decoder runs; `models` holds item.contexts channel contexts, taken in
/// the order the chunk starts its channels. True when the layer is broken.
template <typename Layer>
__host__ __device__ bool decodePoint14Layer(const KernelParams& p, const FieldItem& item,
                                            Layer* models) {
  LayerRun run(p, item);
  Point14Fields first;
  first.load(run.first);
  Point14LayerCursor cursor;
  cursor.start(first);
  models[0].start(first, true);
  uint32_t slotOf[4] = {0, 0, 0, 0};
  uint32_t used = 1;
  const auto modelsOf = [&](uint32_t channel, bool starts) -> Layer* {
    if (starts) {
      // The first pass counted the channels, so this never runs out; stay in bounds anyway.
      if (used == item.contexts) return nullptr;
      slotOf[channel] = used++;
    }
    return models + slotOf[channel];
  };
  bool corrupt = false;
  const uint64_t after = run.pointCount > 1 ? run.pointCount - 1 : 0;  // the first is raw
  const bool complete = cursor.decode<Layer>(run.decoder, run.steps + 1, after,
                                             run.out + run.length, run.length, modelsOf, corrupt);
  return !complete || run.decoder.failed() || corrupt;
}

/// The per-point steps of the layers after POINT14, as Rgb14Codec and Byte14Codec run them.
struct RgbField {
  using Models = RgbModels;
  using Value = Rgb;
  __host__ __device__ static Value load(const uint8_t* item) {
    Rgb v;
    v.load(item);
    return v;
  }
  __host__ __device__ static void decode(ArithmeticDecoder& d, Models& m, Value& v) {
    v = decodeRgb(d, m, v);
  }
  __host__ __device__ static void store(const Value& v, uint8_t* item) { v.store(item); }
};

struct NirField {
  using Models = NirModels;
  using Value = uint16_t;
  __host__ __device__ static Value load(const uint8_t* item) { return loadLe<uint16_t>(item + 6); }
  __host__ __device__ static void decode(ArithmeticDecoder& d, Models& m, Value& v) {
    v = decodeNir(d, m, v);
  }
  __host__ __device__ static void store(const Value& v, uint8_t* item) { storeLe(item + 6, v); }
};

struct ExtraByteField {
  using Models = SymbolModel<256>;
  using Value = uint8_t;
  __host__ __device__ static Value load(const uint8_t* item) { return item[0]; }
  __host__ __device__ static void decode(ArithmeticDecoder& d, Models& m, Value& v) {
    v = decodeByteAfter(d, m, v);
  }
  __host__ __device__ static void store(const Value& v, uint8_t* item) { item[0] = v; }
};

__host__ __device__ inline void resetModels(RgbModels& m) { m.reset(true); }
__host__ __device__ inline void resetModels(NirModels& m) { m.reset(true); }
__host__ __device__ inline void resetModels(SymbolModel<256>& m) { m.reset(256, true); }

/// A layer of an item after POINT14 over a chunk, following the channel POINT14 hands on
/// (ChannelFollower, as on the CPU); `models` holds item.contexts channel contexts.
template <typename Field>
__host__ __device__ bool decodeFollowingLayer(const KernelParams& p, const FieldItem& item,
                                              typename Field::Models* models) {
  LayerRun run(p, item);
  const uint32_t firstChannel = (run.first[15] >> 4) & 3u;  // POINT14's scanner channel
  ChannelFollower channels;
  channels.startChunk(firstChannel);
  typename Field::Value last[4];
  last[firstChannel] = Field::load(run.first + item.offset);
  uint32_t slotOf[4] = {0, 0, 0, 0};
  uint32_t used = 1;
  bool overflow = false;
  resetModels(models[0]);
  for (uint64_t i = 1; i < run.pointCount; ++i) {
    const Point14Step s = Point14Step::unpack(run.steps[i]);
    const uint32_t owner =
        channels.follow(s.othersChannel, item.version, [&](uint32_t fresh, uint32_t from) {
          last[fresh] = last[from];
          // Counted by the first pass, so never short; stay in bounds anyway.
          overflow |= used == item.contexts;
          slotOf[fresh] = overflow ? 0 : used++;
          resetModels(models[slotOf[fresh]]);
        });
    Field::decode(run.decoder, models[slotOf[channels.current]], last[owner]);
    Field::store(last[owner], run.out + i * run.length + item.offset);
  }
  return run.decoder.failed() || overflow;
}

/// Models of a second-pass layer: the POINT14 layers' own structs, the others' Field::Models.
template <typename T>
struct ModelsOf {
  using type = T;
};
template <typename T>
  requires requires { typename T::Value; }
struct ModelsOf<T> {
  using type = typename T::Models;
};

/// Calls visit(T{}) with T the layer struct (POINT14) or Field adaptor of `kind`; None: nothing.
template <typename Visit>
__host__ __device__ void visitFieldKind(FieldKind kind, Visit&& visit) {
  switch (kind) {
    case FieldKind::Z:
      return visit(Point14ZLayer{});
    case FieldKind::Classification:
      return visit(Point14ClassificationLayer{});
    case FieldKind::Flags:
      return visit(Point14FlagsLayer{});
    case FieldKind::Intensity:
      return visit(Point14IntensityLayer{});
    case FieldKind::ScanAngle:
      return visit(Point14ScanAngleLayer{});
    case FieldKind::UserData:
      return visit(Point14UserDataLayer{});
    case FieldKind::PointSource:
      return visit(Point14PointSourceLayer{});
    case FieldKind::GpsTime:
      return visit(Point14GpsTimeLayer{});
    case FieldKind::Rgb:
      return visit(RgbField{});
    case FieldKind::Nir:
      return visit(NirField{});
    case FieldKind::ExtraByte:
      return visit(ExtraByteField{});
    case FieldKind::None:
      return;
  }
}

/// One second-pass item; a broken layer marks its chunk.
__host__ __device__ void decodeFieldItem(const KernelParams& p, const FieldItem& item) {
  uint8_t* state = p.state + item.state;
  bool broken = false;
  visitFieldKind(item.kind, [&](auto kind) {
    using T = decltype(kind);
    auto* models = reinterpret_cast<typename ModelsOf<T>::type*>(state);
    if constexpr (std::is_same_v<typename ModelsOf<T>::type, T>) {
      broken = decodePoint14Layer(p, item, models);
    } else {
      broken = decodeFollowingLayer<T>(p, item, models);
    }
  });
  if (broken) markFaulty(p.faulty + item.chunk);
}

__global__ void decodeFieldLayers(KernelParams p) {
  uint32_t n;
  if (!decodingThread(p, p.itemCount, n)) return;
  decodeFieldItem(p, p.items[n]);
}

}  // namespace

uint64_t returnsXYStateBytes() {
  return sizeof(Point14ReturnsXY);
}

uint64_t fieldContextBytes(FieldKind kind) {
  uint64_t bytes = 0;
  visitFieldKind(kind, [&](auto layer) {
    using Models = typename ModelsOf<decltype(layer)>::type;
    static_assert(std::is_trivially_default_constructible_v<Models>, "state is raw memory");
    bytes = sizeof(Models);
  });
  return bytes;
}

void launchReturnsXYDecode(const KernelParams& params, uint32_t blockSize, cudaStream_t stream) {
  decodeReturnsXYLayers<<<blocksFor(params, params.threads, blockSize), blockSize, 0, stream>>>(
      params);
  CUDA_CHECK(cudaGetLastError());
}

void launchFieldLayerDecode(const KernelParams& params, uint32_t blockSize, cudaStream_t stream) {
  decodeFieldLayers<<<blocksFor(params, params.itemCount, blockSize), blockSize, 0, stream>>>(
      params);
  CUDA_CHECK(cudaGetLastError());
}

uint32_t returnsXYResidentWarps(uint32_t blockSize) {
  return residentWarpsOf(decodeReturnsXYLayers, blockSize);
}

uint32_t fieldLayerResidentWarps(uint32_t blockSize) {
  return residentWarpsOf(decodeFieldLayers, blockSize);
}

void decodeReturnsXYOnHost(const KernelParams& p) {
  auto& xyState = *reinterpret_cast<Point14ReturnsXY*>(p.state);
  for (uint32_t n = 0; n < p.chunkCount; ++n) decodeReturnsXYOf(p, xyState, p.order[n]);
}

void decodeFieldLayersOnHost(const KernelParams& p) {
  for (uint32_t n = 0; n < p.itemCount; ++n) decodeFieldItem(p, p.items[n]);
}

}  // namespace pcv::laz::cuda
