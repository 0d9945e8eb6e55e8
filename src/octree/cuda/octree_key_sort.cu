// Octree keys sorted on the GPU: keys up, indices 0..n-1 made on the device, one CUB radix sort of
// the (key, index) pairs over the key's 63 bits between two buffers each (DoubleBuffer, so CUB's
// scratch stays small), sorted keys and order back, the sorted keys also kept on the device for
// the sampling. Host memory is the caller's pageable memory, copied through a few pinned buffers
// (pinning a part's gigabytes would cost more than the copies it speeds up).
#include <cub/device/device_radix_sort.cuh>

#include <limits>
#include <string>

#include "pcv/octree/octree_keys.hpp"
#include "pcv/cuda/cuda_check.hpp"
#include "pcv/cuda/device_buffer.hpp"
#include "pcv/octree/octree_lod_cuda.hpp"
#include "octree_lod_device.hpp"

namespace pcv {
namespace {

constexpr int kBlock = 256;
/// Bits of a key that can differ (the top one is always 0).
constexpr int kKeyBits = 3 * kOctreeCoordinateBits;

struct IotaParams {
  uint32_t* indices;  ///< GPU pointer owned by the caller, `count` elements
  uint64_t count;     ///< elements, not bytes
};

__device__ void writeIndex(const IotaParams& p, uint64_t i) {
  if (i < p.count) p.indices[i] = uint32_t(i);
}

__global__ void iotaKernel(IotaParams p) {
  writeIndex(p, blockIdx.x * uint64_t(blockDim.x) + threadIdx.x);
}

}  // namespace

bool sortOctreeKeysOnDevice(std::span<const uint64_t> keys, std::span<uint64_t> sortedKeys,
                            std::span<uint32_t> order, DeviceBuffer<uint64_t>& kept,
                            StagedCopier& copier) {
  kept = DeviceBuffer<uint64_t>();
  const uint64_t count = keys.size();
  if (count == 0) return true;
  if (count > std::numeric_limits<uint32_t>::max()) {
    throw Error("cannot sort " + std::to_string(count) +
                " octree keys at once: a part holds at most 2^32 - 1 points");
  }
  if (sortedKeys.size() < count || order.size() < count) {
    throw Error("sortOctreeKeysOnGpu: outputs shorter than the keys");
  }
  cub::DoubleBuffer<uint64_t> keyBuffers(nullptr, nullptr);
  cub::DoubleBuffer<uint32_t> indexBuffers(nullptr, nullptr);
  size_t scratchBytes = 0;  // null scratch: CUB says how much it needs
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, scratchBytes, keyBuffers, indexBuffers,
                                             int64_t(count), 0, kKeyBits));
  size_t freeBytes = 0, totalBytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  const uint64_t neededBytes = count * 2 * (sizeof(uint64_t) + sizeof(uint32_t)) + scratchBytes;
  if (neededBytes > freeBytes) return false;

  DeviceBuffer<uint64_t> keysA(count), keysB(count);
  DeviceBuffer<uint32_t> indicesA(count), indicesB(count);
  DeviceBuffer<uint8_t> scratch(std::max<size_t>(scratchBytes, 1));
  copier.toDevice(keysA.data(), keys.data(), count * sizeof(uint64_t));
  iotaKernel<<<unsigned((count + kBlock - 1) / kBlock), kBlock>>>({indicesA.data(), count});
  CUDA_CHECK(cudaGetLastError());
  keyBuffers = cub::DoubleBuffer<uint64_t>(keysA.data(), keysB.data());
  indexBuffers = cub::DoubleBuffer<uint32_t>(indicesA.data(), indicesB.data());
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch.data(), scratchBytes, keyBuffers, indexBuffers,
                                             int64_t(count), 0, kKeyBits));
  // The sort ends in either buffer of each pair: Current() is where. The copies fault in the
  // outputs' fresh pages on all cores (see pcv/cuda/staged_copy.hpp).
  copier.toHost(sortedKeys.data(), keyBuffers.Current(), count * sizeof(uint64_t));
  copier.toHost(order.data(), indexBuffers.Current(), count * sizeof(uint32_t));
  kept = std::move(keyBuffers.Current() == keysA.data() ? keysA : keysB);
  return true;
}

bool sortOctreeKeysOnGpu(std::span<const uint64_t> keys, std::span<uint64_t> sortedKeys,
                         std::span<uint32_t> order) {
  DeviceBuffer<uint64_t> unused;
  StagedCopier copier;
  return sortOctreeKeysOnDevice(keys, sortedKeys, order, unused, copier);
}

}  // namespace pcv
