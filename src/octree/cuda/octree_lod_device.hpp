/// @brief The GPU sort and sampling of pcv convert's octree as steps on device memory, so that the
/// sampling starts from the sorted keys the sort left on the GPU instead of uploading them again
/// (8 bytes a point). Internal to pcv_octree_cuda; pcv/octree/octree_lod_cuda.hpp is the interface.
#pragma once

#include <cstdint>
#include <span>

#include "pcv/octree/octree_lod.hpp"
#include "pcv/cuda/device_buffer.hpp"
#include "pcv/cuda/staged_copy.hpp"

namespace pcv {

/// sortOctreeKeysOnGpu, the sorted keys also left in `kept` (whatever it held is freed), the
/// copies made through `copier`.
bool sortOctreeKeysOnDevice(std::span<const uint64_t> keys, std::span<uint64_t> sortedKeys,
                            std::span<uint32_t> order, DeviceBuffer<uint64_t>& kept,
                            StagedCopier& copier);

/// sampleOctreeLevelsOnGpu from `count` sorted keys in device memory (GPU pointer owned by the
/// caller). Returns false, writing nothing, when the device lacks the 9 bytes a point it needs and
/// CUB's scratch.
bool sampleOctreeLevelsOnDevice(const uint64_t* sortedKeys, uint64_t count, const LodTree& tree,
                                std::span<uint8_t> holderLevel, StagedCopier& copier);

}  // namespace pcv
