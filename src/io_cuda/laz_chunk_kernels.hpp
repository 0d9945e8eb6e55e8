/// @brief The CUDA kernels that decode LAZ chunks, one thread per chunk, through the same codec
/// functions the CPU decoder runs (src/io/laz, PCV_HOST_DEVICE). Each thread owns a slot of
/// model state in device memory (megabytes: the keyed symbol models) and takes chunks, largest
/// first, until none are left. Plain structs shared by the host driver and the kernels.
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

struct KernelParams {
  const uint8_t* data;
  const DeviceChunk* chunks;
  const uint32_t* order;  ///< chunk indices, largest first
  uint32_t chunkCount;
  uint32_t* nextChunk;  ///< work counter, 0 at launch
  uint8_t* records;
  uint32_t recordLength;
  ItemSlot slots[kMaxSlots];
  uint32_t slotCount;
  const LayerSpan* layers;
  uint8_t* state;  ///< threads * stateStride bytes
  uint64_t stateStride;
  uint32_t threads;
  /// Launched threads per decoding thread: 1, or 32 for one chunk per warp (lane 0 decodes, the
  /// others exit), which trades occupancy for no divergence between chunks.
  uint32_t spread;
  uint32_t extraBytes;  ///< bytes of the BYTE / BYTE14 item, 0 without
  uint32_t endKnown;    ///< pointwise: bytes left after the last point are a fault
  uint32_t layersWanted;
  uint32_t wantRgb, wantNir, wantExtra;
  uint32_t* faulty;  ///< per chunk: 1 broken, 0 good
};

/// Bytes of one thread's state for a file of this kind.
uint64_t slotStateBytes(bool layered, uint32_t extraBytes);

/// Decodes the chunks on `stream` with `params.threads` threads in blocks of `blockSize`.
void launchChunkDecode(const KernelParams& params, bool layered, uint32_t blockSize,
                       cudaStream_t stream);

/// The same work on the host, one chunk after the other with one state slot (`params` point to
/// host memory): the kernels' own per-chunk code, so that tests check it without a GPU.
void decodeChunksOnHost(const KernelParams& params, bool layered);

}  // namespace pcv::laz::cuda
