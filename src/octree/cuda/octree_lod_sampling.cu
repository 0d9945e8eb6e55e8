// The octree's levels sampled on the GPU, picking what the CPU sampler picks
// (../octree_lod_sampling.cpp). Every point starts held by its leaf. Then, a level at a time
// from the deepest internal one up, the points held one level below compete in their cell of this
// level's sampling grid, and each cell's winner moves up to this level. The points held one level
// below are exactly what the CPU offers a node: its leaf children's points and its internal
// children's winners. A cell's points are consecutive in key order (sampleCellAt is a prefix of
// the key), so one CUB reduce-by-key over all points, keyed by cell, finds every cell's winner:
// points that do not compete carry kNoCandidate, which never wins.
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <bitset>
#include <limits>
#include <string>
#include <vector>

#include "octree_lod_device.hpp"
#include "pcv/octree/octree_keys.hpp"
#include "pcv/cuda/cuda_check.hpp"
#include "pcv/octree/octree_lod_cuda.hpp"
#include "pcv/cuda/stage_recorder.hpp"

namespace pcv {
namespace {

/// A competing point's value: | sampleCellDistance (32) | sorted position (32) |, so that the
/// least value is the point nearest the cell's centre, the first in key order among equals (the
/// CPU's rule). Positions fit: a part holds fewer than 2^32 points.
constexpr uint64_t kNoCandidate = ~uint64_t(0);

struct HoldByLeafParams {
  const uint64_t* leafBegins;  ///< GPU, leafCount: each leaf's first sorted position, ascending
  const uint8_t* leafLevels;   ///< GPU, leafCount: each leaf's level
  uint32_t leafCount;          ///< at least 1
  uint64_t count;              ///< points, not bytes
  uint8_t* holderLevel;        ///< GPU, count: written for every point
};

/// Point i is held by the last leaf that starts at or before it (the leaves partition the points).
__device__ void holdByLeaf(const HoldByLeafParams& p, uint64_t i) {
  if (i >= p.count) return;
  uint32_t low = 0, high = p.leafCount;  // leafBegins[low] <= i, and i < leafBegins[high] if any
  while (high - low > 1) {
    const uint32_t middle = low + (high - low) / 2;
    if (p.leafBegins[middle] <= i) {
      low = middle;
    } else {
      high = middle;
    }
  }
  p.holderLevel[i] = p.leafLevels[low];
}

__global__ void holdByLeafKernel(HoldByLeafParams p) {
  holdByLeaf(p, blockIdx.x * uint64_t(blockDim.x) + threadIdx.x);
}

struct PromoteParams {
  const uint64_t* best;  ///< GPU, runs: the least competing value of each cell (or kNoCandidate)
  uint64_t runs;         ///< cells of the level, in key order
  uint8_t level;         ///< the level the winners move up to
  uint8_t* holderLevel;  ///< GPU: the winners' entries are overwritten
};

__device__ void promote(const PromoteParams& p, uint64_t cell) {
  if (cell >= p.runs) return;
  const uint64_t value = p.best[cell];
  if (value != kNoCandidate) p.holderLevel[uint32_t(value)] = p.level;
}

__global__ void promoteKernel(PromoteParams p) {
  promote(p, blockIdx.x * uint64_t(blockDim.x) + threadIdx.x);
}

/// The reduce-by-key's key: a sorted key's sampling cell at `level`.
struct CellAt {
  int level;
  __host__ __device__ uint64_t operator()(uint64_t key) const { return sampleCellAt(key, level); }
};

/// The reduce-by-key's value for sorted position i at `level` (see kNoCandidate).
struct CompetingValue {
  const uint64_t* keys;        ///< GPU: the sorted keys
  const uint8_t* holderLevel;  ///< GPU: as sampled below `level` so far
  int level;
  __host__ __device__ uint64_t operator()(uint64_t i) const {
    if (holderLevel[i] != level + 1) return kNoCandidate;
    return (uint64_t(sampleCellDistance(keys[i], level)) << 32) | i;
  }
};

struct Least {
  __host__ __device__ uint64_t operator()(uint64_t a, uint64_t b) const { return b < a ? b : a; }
};

/// One level's winners: each cell's least CompetingValue into `best`, the number of cells into
/// `runs`. With null scratch, sets scratchBytes instead, as CUB does.
cudaError_t leastPerCell(void* scratch, size_t& scratchBytes, const uint64_t* keys,
                         const uint8_t* holderLevel, uint64_t count, int level, uint64_t* best,
                         uint64_t* runs, cudaStream_t stream) {
  const auto cells = thrust::make_transform_iterator(keys, CellAt{level});
  const auto values = thrust::make_transform_iterator(thrust::counting_iterator<uint64_t>(0),
                                                      CompetingValue{keys, holderLevel, level});
  return cub::DeviceReduce::ReduceByKey(scratch, scratchBytes, cells,
                                        thrust::make_discard_iterator(), values, best, runs,
                                        Least{}, count, stream);
}

}  // namespace

bool sampleOctreeLevelsOnDevice(const uint64_t* keys, uint64_t count, const LodTree& tree,
                                std::span<uint8_t> holderLevel, StagedCopier& copier) {
  if (tree.nodes.empty() || count == 0) return true;
  if (holderLevel.size() < count) throw Error("sampleOctreeLevelsOnGpu: holderLevel too short");
  if (count > std::numeric_limits<uint32_t>::max()) {
    throw Error("cannot sample " + std::to_string(count) +
                " points at once: a part holds at most 2^32 - 1 points");
  }
  std::vector<uint64_t> leafBegins;
  std::vector<uint8_t> leafLevels;
  std::bitset<kMaxOctreeLevel + 1> internalLevels;
  for (const LodNode& node : tree.nodes) {
    if (node.leaf) {
      leafBegins.push_back(node.begin);
      leafLevels.push_back(uint8_t(node.level));
    } else {
      internalLevels.set(size_t(node.level));
    }
  }
  size_t scratchBytes = 0;
  CUDA_CHECK(
      leastPerCell(nullptr, scratchBytes, keys, nullptr, count, 0, nullptr, nullptr, nullptr));
  // Per point: its holder level and its cell's least value (a level has at most a cell a point).
  size_t freeBytes = 0, totalBytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  const uint64_t neededBytes = count * (sizeof(uint8_t) + sizeof(uint64_t)) + scratchBytes +
                               leafBegins.size() * (sizeof(uint64_t) + sizeof(uint8_t));
  if (neededBytes > freeBytes) return false;

  DeviceBuffer<uint8_t> held(count);
  DeviceBuffer<uint64_t> best(count);
  DeviceBuffer<uint64_t> runs(1);
  DeviceBuffer<uint8_t> scratch(std::max<size_t>(scratchBytes, 1));
  DeviceBuffer<uint64_t> deviceLeafBegins(leafBegins.size());
  DeviceBuffer<uint8_t> deviceLeafLevels(leafLevels.size());
  CUDA_CHECK(cudaMemcpy(deviceLeafBegins.data(), leafBegins.data(),
                        leafBegins.size() * sizeof(uint64_t), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(deviceLeafLevels.data(), leafLevels.data(), leafLevels.size(),
                        cudaMemcpyHostToDevice));
  StageRecorder gpu;
  gpu.setPerStage(false);
  gpu.beginFrame(nullptr);
  gpu.launch("hold by leaf", count, holdByLeafKernel,
             HoldByLeafParams{.leafBegins = deviceLeafBegins.data(),
                              .leafLevels = deviceLeafLevels.data(),
                              .leafCount = uint32_t(leafBegins.size()),
                              .count = count,
                              .holderLevel = held.data()});
  for (int level = kMaxOctreeLevel; level-- > 0;) {
    if (!internalLevels.test(size_t(level))) continue;
    CUDA_CHECK(leastPerCell(scratch.data(), scratchBytes, keys, held.data(), count, level,
                            best.data(), runs.data(), gpu.stream()));
    uint64_t cells = 0;
    CUDA_CHECK(cudaMemcpy(&cells, runs.data(), sizeof(cells), cudaMemcpyDeviceToHost));
    gpu.launch("promote winners", cells, promoteKernel,
               PromoteParams{.best = best.data(),
                             .runs = cells,
                             .level = uint8_t(level),
                             .holderLevel = held.data()});
  }
  gpu.endFrame();
  copier.toHost(holderLevel.data(), held.data(), count);
  return true;
}

bool sampleOctreeLevelsOnGpu(std::span<const uint64_t> sortedKeys, const LodTree& tree,
                             std::span<uint8_t> holderLevel) {
  const uint64_t count = sortedKeys.size();
  if (tree.nodes.empty() || count == 0) return true;
  size_t freeBytes = 0, totalBytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  // The keys themselves; sampleOctreeLevelsOnDevice checks the rest.
  if (count * sizeof(uint64_t) > freeBytes) return false;
  DeviceBuffer<uint64_t> keys(count);
  StagedCopier copier;
  copier.toDevice(keys.data(), sortedKeys.data(), count * sizeof(uint64_t));
  return sampleOctreeLevelsOnDevice(keys.data(), count, tree, holderLevel, copier);
}

}  // namespace pcv
