/// @brief The GPU's stand-in for the CPU octree sampler (pcv/core/octree_lod.hpp) in pcv convert:
/// a part's Morton keys sorted with CUB's radix sort, the sampling left to the CPU. The sorted
/// keys are the CPU's exactly and equal keys are ordered by their records afterwards, so the
/// COPC file written is the same byte for byte.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "pcv/core/octree_lod.hpp"

namespace pcv {

/// `sortedKeys` gets `keys` ascending and `order[i]` the index of sortedKeys[i] in `keys`, equal
/// keys in index order (the sort is stable), sorted on the current CUDA device. Host spans, at
/// most 2^32 - 1 keys. Returns false, writing nothing, when the device has too little free memory
/// for the sort (24 bytes per key and CUB's scratch); throws CudaError when CUDA fails.
bool sortOctreeKeysOnGpu(std::span<const uint64_t> keys, std::span<uint64_t> sortedKeys,
                         std::span<uint32_t> order);

/// Sorts keys on the GPU (on the CPU for a part the GPU has no room for) and samples on the CPU.
/// Needs a usable CUDA device (cudaAvailable() in pcv/raster/renderer.hpp).
std::unique_ptr<OctreeLodSampler> makeCudaOctreeLodSampler();

}  // namespace pcv
