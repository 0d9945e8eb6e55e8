// The extent of the points that take part, as the CPU filters find it: each thread's minima
// and maxima, then the warp's, then atomics on the doubles' ordered bits (a minimum is exact in
// any order).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "classify_kernels.hpp"
#include "kernel_support.cuh"
#include "pcv/cuda/cuda_check.hpp"
#include "pcv/cuda/device_buffer.hpp"

namespace pcv::process_cuda {
namespace {

/// Doubles as unsigned integers in the same order, for atomicMin and atomicMax.
__device__ unsigned long long orderedBits(double value) {
  const unsigned long long bits = __double_as_longlong(value);
  return (bits >> 63) ? ~bits : bits | (1ull << 63);
}

__host__ double fromOrderedBits(unsigned long long ordered) {
  const unsigned long long bits = (ordered >> 63) ? ordered & ~(1ull << 63) : ~ordered;
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

struct ExtentParams {
  const double* xyz;
  uint64_t count;
  const uint8_t* excluded;   ///< may be null
  unsigned long long* low;   ///< 3 ordered minima
  unsigned long long* high;  ///< 3 ordered maxima
};

__global__ void extentKernel(ExtentParams p) {
  double low[3] = {INFINITY, INFINITY, INFINITY}, high[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (uint64_t i = threadIndex(); i < p.count; i += uint64_t(gridDim.x) * blockDim.x) {
    const double* point = p.xyz + 3 * i;
    if (!takesPart(point, p.excluded, i)) continue;
    for (int a = 0; a < 3; ++a) {
      low[a] = fmin(low[a], point[a]);
      high[a] = fmax(high[a], point[a]);
    }
  }
  for (int a = 0; a < 3; ++a) {
    for (int offset = 16; offset > 0; offset /= 2) {
      low[a] = fmin(low[a], __shfl_down_sync(0xffffffffu, low[a], offset));
      high[a] = fmax(high[a], __shfl_down_sync(0xffffffffu, high[a], offset));
    }
  }
  if ((threadIdx.x & 31) == 0) {
    for (int a = 0; a < 3; ++a) {
      atomicMin(&p.low[a], orderedBits(low[a]));
      atomicMax(&p.high[a], orderedBits(high[a]));
    }
  }
}

}  // namespace

DeviceExtent extentOnDevice(const DevicePoints& points, const uint8_t* excluded) {
  DeviceBuffer<unsigned long long> bounds(6);
  const unsigned long long start[6] = {~0ull, ~0ull, ~0ull, 0ull, 0ull, 0ull};
  CUDA_CHECK(cudaMemcpy(bounds.data(), start, sizeof start, cudaMemcpyHostToDevice));
  DeviceExtent extent{{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
  if (points.count == 0) return extent;
  const unsigned blocks = std::min<unsigned>(blocksFor(points.count), 4096);
  extentKernel<<<blocks, kBlock>>>(
      {points.xyz, points.count, excluded, bounds.data(), bounds.data() + 3});
  CUDA_CHECK(cudaGetLastError());
  unsigned long long found[6];
  CUDA_CHECK(cudaMemcpy(found, bounds.data(), sizeof found, cudaMemcpyDeviceToHost));
  // With no finite point counted, the bounds read back as the infinities each thread began with.
  for (int a = 0; a < 3; ++a) {
    extent.low[a] = fromOrderedBits(found[a]);
    extent.high[a] = fromOrderedBits(found[3 + a]);
  }
  return extent;
}

}  // namespace pcv::process_cuda
