/// @brief The GPU's stand-in for the CPU octree sampler (pcv/octree/octree_lod.hpp) in pcv convert:
/// a part's Morton keys sorted with CUB's radix sort, then the levels sampled from the sorted keys
/// the sort left on the GPU. The sorted keys and every node's picks are the CPU's exactly (equal
/// keys are ordered by their records afterwards), so the COPC file written is the same byte for
/// byte.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "pcv/octree/octree_lod.hpp"

namespace pcv {

/// `sortedKeys` gets `keys` ascending and `order[i]` the index of sortedKeys[i] in `keys`, equal
/// keys in index order (the sort is stable), sorted on the current CUDA device. Host spans, at
/// most 2^32 - 1 keys. Returns false, writing nothing, when the device has too little free memory
/// for the sort (24 bytes per key and CUB's scratch); throws CudaError when CUDA fails.
bool sortOctreeKeysOnGpu(std::span<const uint64_t> keys, std::span<uint64_t> sortedKeys,
                         std::span<uint32_t> order);

/// OctreeLodSampler::sampleLevels on the current CUDA device, the keys uploaded from the host:
/// the same `holderLevel` as the CPU's. Returns false, writing nothing, when the device has too
/// little free memory (17 bytes per key and CUB's scratch); throws CudaError when CUDA fails.
bool sampleOctreeLevelsOnGpu(std::span<const uint64_t> sortedKeys, const LodTree& tree,
                             std::span<uint8_t> holderLevel);

/// Sorts keys and samples levels on the GPU, each on the CPU instead where the GPU has no room
/// for the part. Needs a usable CUDA device (cudaAvailable() in pcv/raster/renderer.hpp).
std::unique_ptr<OctreeLodSampler> makeCudaOctreeLodSampler();

}  // namespace pcv
