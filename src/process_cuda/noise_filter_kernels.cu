// The noise filter on the GPU as noise_filter.cpp does it on the CPU: every finite point's cube
// key sorted with its index (CUB's radix sort, stable: a cube's points stay in index order), the
// cubes as the runs of equal keys, then one thread per point counting the neighbours within the
// radius in the 27 cubes around its own. A column of three cubes (z - 1 .. z + 1) is three
// consecutive keys, so one binary search finds it. The count stops at the minimum, as the CPU's
// does; which neighbours it met first does not change whether the minimum is reached.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <limits>
#include <string>

#include "classify_kernels.hpp"
#include "classify_math.hpp"
#include "kernel_support.cuh"
#include "noise_cubes.hpp"
#include "pcv/core/error.hpp"
#include "pcv/cuda/cuda_check.hpp"
#include "pcv/cuda/device_buffer.hpp"

namespace pcv::process_cuda {
namespace {

/// The key of a point with a coordinate that is not finite: after every cube's (whose top bit
/// is 0), so such points sort to the end and belong to no cube.
constexpr uint64_t kNoCube = ~uint64_t(0);

struct KeyParams {
  const double* xyz;
  uint64_t count;
  double low[3];
  double radius;
  uint64_t* keys;
  uint32_t* indices;
  unsigned long long* unusable;  ///< counts the points that are not finite
};

__global__ void cubeKeyKernel(KeyParams p) {
  const uint64_t i = threadIndex();
  if (i >= p.count) return;
  const double* point = p.xyz + 3 * i;
  p.indices[i] = uint32_t(i);
  if (!takesPart(point, nullptr, i)) {
    p.keys[i] = kNoCube;
    atomicAdd(p.unusable, 1ull);
    return;
  }
  p.keys[i] = process::cubeKey(process::cubeOf(point[0], p.low[0], p.radius),
                               process::cubeOf(point[1], p.low[1], p.radius),
                               process::cubeOf(point[2], p.low[2], p.radius));
}

/// 1 where a run of equal keys starts among the first `usable` sorted keys.
__global__ void runStartKernel(const uint64_t* keys, uint64_t usable, uint32_t* starts) {
  const uint64_t e = threadIndex();
  if (e >= usable) return;
  starts[e] = (e == 0 || keys[e] != keys[e - 1]) ? 1u : 0u;
}

struct CubeParams {
  const uint64_t* keys;
  uint64_t usable;
  const uint32_t* flags;      ///< runStartKernel's
  const uint32_t* positions;  ///< their exclusive sum: each run's cube
  uint64_t* cubeKeys;
  uint32_t* cubeStarts;  ///< cube count + 1 entries; the last is `usable`
};

__global__ void cubeKernel(CubeParams p) {
  const uint64_t e = threadIndex();
  if (e >= p.usable) return;
  if (p.flags[e]) {
    p.cubeKeys[p.positions[e]] = p.keys[e];
    p.cubeStarts[p.positions[e]] = uint32_t(e);
  }
  if (e == p.usable - 1) p.cubeStarts[p.positions[e] + p.flags[e]] = uint32_t(p.usable);
}

struct CountParams {
  const double* xyz;
  const uint32_t* indices;  ///< sorted entries' point indices
  const uint64_t* sortedKeys;
  uint64_t usable;
  const uint64_t* cubeKeys;
  const uint32_t* cubeStarts;
  uint64_t cubeCount;
  double radiusSquared;
  uint32_t minNeighbours;
  uint8_t* noise;
};

__device__ uint64_t lowerBound(const uint64_t* keys, uint64_t count, uint64_t key) {
  uint64_t first = 0;
  while (count > 0) {
    const uint64_t half = count / 2;
    if (keys[first + half] < key) {
      first += half + 1;
      count -= half + 1;
    } else {
      count = half;
    }
  }
  return first;
}

__global__ void neighbourCountKernel(CountParams p) {
  const uint64_t e = threadIndex();
  if (e >= p.usable) return;
  const uint32_t index = p.indices[e];
  const double* point = p.xyz + 3 * uint64_t(index);
  const uint64_t key = p.sortedKeys[e];
  const uint64_t axisMask = uint64_t(process::kCubeAxisCount - 1);
  const int64_t cx = int64_t(key >> (2 * process::kCubeAxisBits));
  const int64_t cy = int64_t((key >> process::kCubeAxisBits) & axisMask);
  const int64_t cz = int64_t(key & axisMask);
  const int64_t zLow = cz > 0 ? cz - 1 : 0;
  const int64_t zHigh = cz + 1 < process::kCubeAxisCount ? cz + 1 : cz;
  uint32_t found = 0;
  for (int64_t dx = -1; dx <= 1 && found < p.minNeighbours; ++dx) {
    for (int64_t dy = -1; dy <= 1 && found < p.minNeighbours; ++dy) {
      const int64_t x = cx + dx, y = cy + dy;
      if (x < 0 || y < 0 || x >= process::kCubeAxisCount || y >= process::kCubeAxisCount) {
        continue;
      }
      const uint64_t lastKey = process::cubeKey(x, y, zHigh);
      for (uint64_t cube = lowerBound(p.cubeKeys, p.cubeCount, process::cubeKey(x, y, zLow));
           cube < p.cubeCount && p.cubeKeys[cube] <= lastKey && found < p.minNeighbours; ++cube) {
        for (uint32_t n = p.cubeStarts[cube]; n < p.cubeStarts[cube + 1] && found < p.minNeighbours;
             ++n) {
          const uint32_t other = p.indices[n];
          if (other == index) continue;
          const double* q = p.xyz + 3 * uint64_t(other);
          if (process::squaredDistance(point[0], point[1], point[2], q[0], q[1], q[2]) <=
              p.radiusSquared) {
            ++found;
          }
        }
      }
    }
  }
  p.noise[index] = found < p.minNeighbours ? 1 : 0;
}

}  // namespace

uint64_t noiseWorkingBytes(uint64_t count) {
  // Keys and indices twice (the sort's two buffers), then the run flags, their sums, the cubes'
  // keys and starts (at most one cube per point).
  return count * (2 * (sizeof(uint64_t) + sizeof(uint32_t)) + 2 * sizeof(uint32_t) +
                  sizeof(uint64_t) + sizeof(uint32_t));
}

void findNoiseOnDevice(const DevicePoints& points, const NoiseFilterSettings& settings,
                       uint8_t* noise) {
  checkNoiseFilterSettings(settings);
  if (points.count == 0) throw InputError("noise filter: no points to classify");
  if (points.count > std::numeric_limits<uint32_t>::max()) {
    throw Error("noise filter on the GPU: at most 2^32 - 1 points at once");
  }
  // Points with a coordinate that is not a number have no neighbours: noise.
  CUDA_CHECK(cudaMemset(noise, 1, points.count));
  const DeviceExtent extent = extentOnDevice(points, nullptr);
  if (!std::isfinite(extent.low[0])) return;
  const glm::dvec3 low(extent.low[0], extent.low[1], extent.low[2]);
  const glm::dvec3 high(extent.high[0], extent.high[1], extent.high[2]);
  process::checkNoiseCubes(low, high, settings);

  const uint64_t count = points.count;
  DeviceBuffer<uint64_t> keys(count), keysAlt(count);
  DeviceBuffer<uint32_t> indices(count), indicesAlt(count);
  DeviceBuffer<unsigned long long> unusable(1);
  CUDA_CHECK(cudaMemset(unusable.data(), 0, sizeof(unsigned long long)));
  cubeKeyKernel<<<blocksFor(count), kBlock>>>({points.xyz,
                                               count,
                                               {low.x, low.y, low.z},
                                               settings.radius,
                                               keys.data(),
                                               indices.data(),
                                               unusable.data()});
  CUDA_CHECK(cudaGetLastError());
  unsigned long long unusableCount = 0;
  CUDA_CHECK(
      cudaMemcpy(&unusableCount, unusable.data(), sizeof unusableCount, cudaMemcpyDeviceToHost));
  cub::DoubleBuffer<uint64_t> keyBuffers(keys.data(), keysAlt.data());
  cub::DoubleBuffer<uint32_t> indexBuffers(indices.data(), indicesAlt.data());
  size_t scratchBytes = 0;
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, scratchBytes, keyBuffers, indexBuffers,
                                             int64_t(count)));
  {
    DeviceBuffer<uint8_t> scratch(scratchBytes);
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch.data(), scratchBytes, keyBuffers,
                                               indexBuffers, int64_t(count)));
  }
  const uint64_t* sortedKeys = keyBuffers.Current();
  const uint32_t* sortedIndices = indexBuffers.Current();

  // The finite points are the sorted keys before the first kNoCube.
  const uint64_t usable = count - unusableCount;
  if (usable == 0) return;

  DeviceBuffer<uint32_t> flags(usable), positions(usable);
  runStartKernel<<<blocksFor(usable), kBlock>>>(sortedKeys, usable, flags.data());
  CUDA_CHECK(cudaGetLastError());
  scratchBytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scratchBytes, flags.data(), positions.data(),
                                           int64_t(usable)));
  {
    DeviceBuffer<uint8_t> scratch(scratchBytes);
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.data(), scratchBytes, flags.data(),
                                             positions.data(), int64_t(usable)));
  }
  uint32_t lastFlag = 0, lastPosition = 0;
  CUDA_CHECK(
      cudaMemcpy(&lastFlag, flags.data() + usable - 1, sizeof lastFlag, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&lastPosition, positions.data() + usable - 1, sizeof lastPosition,
                        cudaMemcpyDeviceToHost));
  const uint64_t cubeCount = uint64_t(lastPosition) + lastFlag;
  DeviceBuffer<uint64_t> cubeKeys(cubeCount);
  DeviceBuffer<uint32_t> cubeStarts(cubeCount + 1);
  cubeKernel<<<blocksFor(usable), kBlock>>>(
      {sortedKeys, usable, flags.data(), positions.data(), cubeKeys.data(), cubeStarts.data()});
  CUDA_CHECK(cudaGetLastError());
  neighbourCountKernel<<<blocksFor(usable), kBlock>>>(
      {points.xyz, sortedIndices, sortedKeys, usable, cubeKeys.data(), cubeStarts.data(), cubeCount,
       settings.radius * settings.radius, settings.minNeighbours, noise});
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace pcv::process_cuda
