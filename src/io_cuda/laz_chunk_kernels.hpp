/// @brief The CUDA kernels that decode LAZ chunks through the same codec functions the CPU
/// decoder runs (src/io/laz, PCV_HOST_DEVICE). Plain structs shared by the host driver and the
/// kernels, and a host twin of every kernel, so that tests run the kernels' own code without a
/// GPU.
///
/// Pointwise chunks (point formats 0-3): one thread per chunk, its models in a slot of device
/// memory, taking chunks largest first until none are left.
///
/// Layered chunks (point formats 6-8) decode in two passes, since their layers are separate
/// streams and every layer but returns/XY reads only its own fields and that layer's per-point
/// step (point14_fields.hpp):
///  1. one thread per chunk decodes the returns/XY layer, writes every record (the fields of the
///     other layers at the values they keep when not decoded) and each point's packed step;
///  2. after the kernel boundary, one thread per (chunk, layer) decodes one of the other layers
///     that is wanted and present (z, classification, ..., RGB, NIR, each extra byte) from the
///     steps, writing only that field's bytes. Items of one layer kind and similar length are
///     grouped by warps, and each has state for only the channels its chunk uses.
///
/// A decoding thread is one lane: alone in its warp, or one of 2-32 evenly spread lanes where a
/// batch is large enough that more chains at once outweigh their divergence (KernelParams::spread,
/// chosen per launch by CudaLazDecoder).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace pcv::laz::cuda {

/// The record items the device decodes (others leave the file to the CPU).
enum class SlotKind : uint32_t { Point10, GpsTime11, Rgb12, Byte, Point14, Rgb14, Byte14 };

struct ItemSlot {
  SlotKind kind;
  uint32_t offset;      ///< in the record
  uint32_t size;        ///< bytes of the item
  uint32_t firstLayer;  ///< layered: its first layer among the chunk's layers
  uint32_t version;     ///< layered items: 3 or 4
  uint32_t hasNir;      ///< RGBNIR14
};
inline constexpr uint32_t kMaxSlots = 4;

struct DeviceChunk {
  uint64_t offset;     ///< in the uploaded data
  uint64_t byteCount;  ///< the chunk's size
  uint64_t pointCount;
  uint64_t firstRecord;  ///< its first record in the output
  uint32_t firstLayer;   ///< layered: its first span in the layer table
  uint32_t skip;         ///< 1: not decoded here (found broken on the host, or no points)
};

/// A layer of a layered chunk, relative to the chunk's first byte.
struct LayerSpan {
  uint64_t offset;
  uint64_t size;
};

/// The layers the second pass decodes, one thread each: POINT14's after returns/XY (in
/// Point14Layer order), then RGB14's two and BYTE14's one per byte. None pads a warp's group.
enum class FieldKind : uint32_t {
  Z,
  Classification,
  Flags,
  Intensity,
  ScanAngle,
  UserData,
  PointSource,
  GpsTime,
  Rgb,
  Nir,
  ExtraByte,
  None
};
inline constexpr uint32_t kFieldKindCount = uint32_t(FieldKind::None);

/// One thread's work in the second pass.
struct FieldItem {
  uint32_t chunk;
  FieldKind kind;
  uint32_t layer;     ///< its span, counted from the chunk's first
  uint32_t offset;    ///< RGB, NIR: the RGB14 item's in the record; extra byte: the byte's
  uint32_t version;   ///< RGB, NIR, extra byte: the item's (how it follows the channel)
  uint32_t contexts;  ///< channel contexts its state holds (channels its chunk uses)
  uint64_t state;     ///< offset of its state in KernelParams::state
};

/// Per chunk after the first pass: the channels its points use (bits 0-3) and the channels the
/// items after POINT14 follow (bits 4-7, version 3 falls back to channel 0).
inline constexpr uint32_t kOthersChannelShift = 4;

struct KernelParams {
  const uint8_t* data;
  const DeviceChunk* chunks;
  const LayerSpan* layers;
  uint8_t* records;
  uint32_t recordLength;
  ItemSlot slots[kMaxSlots];
  uint32_t slotCount;
  uint32_t* faulty;  ///< per chunk: 1 broken, 0 good
  /// Launched threads per decoding thread: 32 for one per warp (lane 0 decodes, the others
  /// exit), down to 1 for a thread per chunk (CudaLazSettings::chunksPerWarp).
  uint32_t spread;
  uint8_t* state;  ///< the decoding threads' model state

  // One thread per chunk (pointwise chunks; the first pass of layered ones).
  const uint32_t* order;  ///< chunk indices, largest first
  uint32_t chunkCount;
  uint32_t* nextChunk;  ///< work counter, 0 at launch
  uint64_t stateStride;  ///< bytes of state per thread
  uint32_t threads;
  uint32_t extraBytes;  ///< bytes of the BYTE item, 0 without
  uint32_t endKnown;    ///< pointwise: bytes left after the last point are a fault

  // Layered chunks.
  uint32_t* steps;     ///< per record: its packed Point14Step (first pass writes, second reads)
  uint32_t* channels;  ///< per chunk: see kOthersChannelShift
  const FieldItem* items;  ///< second pass: one per thread
  uint32_t itemCount;
};

/// Bytes of one thread's state for pointwise chunks, and for the first pass of layered ones.
uint64_t pointwiseStateBytes(uint32_t extraBytes);
uint64_t returnsXYStateBytes();
/// Bytes of one channel context of a second-pass item.
uint64_t fieldContextBytes(FieldKind kind);

/// Launches on `stream` in blocks of `blockSize`: pointwise chunks, the first pass and the second
/// pass of layered chunks (params.items, params.itemCount).
void launchPointwiseDecode(const KernelParams& params, uint32_t blockSize, cudaStream_t stream);
void launchReturnsXYDecode(const KernelParams& params, uint32_t blockSize, cudaStream_t stream);
void launchFieldLayerDecode(const KernelParams& params, uint32_t blockSize, cudaStream_t stream);

/// Warps of each kernel the device holds at once in blocks of `blockSize` (its occupancy).
uint32_t pointwiseResidentWarps(uint32_t blockSize);
uint32_t returnsXYResidentWarps(uint32_t blockSize);
uint32_t fieldLayerResidentWarps(uint32_t blockSize);

/// The same work on the host (`params` point to host memory), one chunk or item after the other
/// with one state slot (pointwise, first pass) or the items' own state (second pass).
void decodePointwiseOnHost(const KernelParams& params);
void decodeReturnsXYOnHost(const KernelParams& params);
void decodeFieldLayersOnHost(const KernelParams& params);

}  // namespace pcv::laz::cuda
