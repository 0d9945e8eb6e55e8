/// @brief Morton keys of points in an octree's root cube, the nodes and sampling cells they fall
/// in, and a cell's distance to its centre: the per-point math of the level-of-detail octree,
/// written once so that the CPU and CUDA builders agree bit for bit.
#pragma once

#include <cstdint>

#include "pcv/core/host_device.hpp"

namespace pcv {

/// Bits of a point's octree coordinate per axis; a key interleaves them into 63 bits:
/// | ... | z1 y1 x1 | z0 y0 x0 |, x in the lowest bit, so a key's top 3L bits name its level-L
/// node and keys sort along a Morton curve.
inline constexpr int kOctreeCoordinateBits = 21;
/// A node keeps at most one point per cell of a 2^7 = 128 cells per axis grid over its cube
/// (its spacing is the cube's edge / 128).
inline constexpr int kSampleGridBits = 7;
inline constexpr uint32_t kSampleGridCells = 1u << kSampleGridBits;
/// Deepest level: its sampling cells are a single octree coordinate wide.
inline constexpr int kMaxOctreeLevel = kOctreeCoordinateBits - kSampleGridBits;

/// The low 21 bits of `v` moved to every third bit.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint64_t spreadOctreeBits(uint32_t v) {
  uint64_t x = v & 0x1FFFFFu;
  x = (x | (x << 32)) & 0x1F00000000FFFFull;
  x = (x | (x << 16)) & 0x1F0000FF0000FFull;
  x = (x | (x << 8)) & 0x100F00F00F00F00Full;
  x = (x | (x << 4)) & 0x10C30C30C30C30C3ull;
  x = (x | (x << 2)) & 0x1249249249249249ull;
  return x;
}

/// Every third bit of `x` (from bit 0) gathered into the low 21 bits: spreadOctreeBits undone.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t compactOctreeBits(uint64_t x) {
  x &= 0x1249249249249249ull;
  x = (x | (x >> 2)) & 0x10C30C30C30C30C3ull;
  x = (x | (x >> 4)) & 0x100F00F00F00F00Full;
  x = (x | (x >> 8)) & 0x1F0000FF0000FFull;
  x = (x | (x >> 16)) & 0x1F00000000FFFFull;
  x = (x | (x >> 32)) & 0x1FFFFFull;
  return uint32_t(x);
}

PCV_HOST_DEVICE PCV_FORCE_INLINE uint64_t octreeKey(uint32_t x, uint32_t y, uint32_t z) {
  return spreadOctreeBits(x) | (spreadOctreeBits(y) << 1) | (spreadOctreeBits(z) << 2);
}

/// The key of the level-`level` node holding `key`: its top 3 * level bits. The node's x, y, z
/// are the compacted bits of this value (compactOctreeBits of it, of it >> 1, of it >> 2).
PCV_HOST_DEVICE PCV_FORCE_INLINE uint64_t nodeKeyAt(uint64_t key, int level) {
  return key >> (3 * (kOctreeCoordinateBits - level));
}

/// The sampling cell of `key` in its level-`level` node (level < kMaxOctreeLevel), unique over
/// the whole cube: keys in one cell are consecutive in key order.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint64_t sampleCellAt(uint64_t key, int level) {
  return key >> (3 * (kMaxOctreeLevel - level));
}

/// Four times the squared distance from the centre of the point's octree coordinate to the
/// centre of its sampling cell at `level`, in octree coordinates: an integer, so every builder
/// picks the same point. At most 3 * 2^30.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t sampleCellDistance(uint64_t key, int level) {
  const int cellBits = kMaxOctreeLevel - level;  // octree coordinate bits inside a cell
  const uint32_t mask = (1u << cellBits) - 1u;
  const int32_t doubledCentre = int32_t(1u << cellBits);
  uint32_t sum = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const uint32_t inCell = compactOctreeBits(key >> axis) & mask;
    const int32_t offset = int32_t(2 * inCell + 1) - doubledCentre;
    sum += uint32_t(offset * offset);
  }
  return sum;
}

/// Maps a LAS record's integer coordinates to octree coordinates: the root cube's corner on the
/// record grid, and per axis the octree coordinates per record step (scale * 2^21 / edge).
struct OctreeQuantizer {
  int64_t cornerSteps[3] = {0, 0, 0};
  double coordinatesPerStep[3] = {1.0, 1.0, 1.0};

  /// True when a record at `xyz` lies inside the cube (keyOf needs no clamping).
  PCV_HOST_DEVICE PCV_FORCE_INLINE bool contains(const int32_t xyz[3]) const {
    constexpr double kEdge = double(1u << kOctreeCoordinateBits);
    for (int axis = 0; axis < 3; ++axis) {
      const double coordinate =
          double(int64_t(xyz[axis]) - cornerSteps[axis]) * coordinatesPerStep[axis];
      if (!(coordinate >= 0.0 && coordinate < kEdge)) return false;
    }
    return true;
  }

  /// The key of a record at `xyz` (its integer coordinates); points outside the cube are
  /// clamped onto its faces (callers check that there are none).
  PCV_HOST_DEVICE PCV_FORCE_INLINE uint64_t keyOf(const int32_t xyz[3]) const {
    uint32_t q[3];
    for (int axis = 0; axis < 3; ++axis) {
      const double steps = double(int64_t(xyz[axis]) - cornerSteps[axis]);
      const double coordinate = steps * coordinatesPerStep[axis];
      constexpr double kTop = double((1u << kOctreeCoordinateBits) - 1u);
      q[axis] =
          coordinate <= 0.0 ? 0u : (coordinate >= kTop ? uint32_t(kTop) : uint32_t(coordinate));
    }
    return octreeKey(q[0], q[1], q[2]);
  }
};

}  // namespace pcv
