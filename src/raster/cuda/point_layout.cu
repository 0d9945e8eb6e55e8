#include "point_layout.cuh"

#include <cmath>

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/transform_iterator.h>

#include "pcv/core/float_math.hpp"
#include "pcv/raster/morton.hpp"

namespace pcv::cuda {
namespace {

constexpr int kBlock = 256;

unsigned blocksFor(uint64_t threads) {
  return unsigned((threads + kBlock - 1) / kBlock);
}

/// Bounds of finite coordinates; the identity element is an inverted box.
struct FiniteBounds {
  float min[3];
  float max[3];

  __host__ __device__ static FiniteBounds empty() {
    return {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
  }
  __device__ static FiniteBounds of(const Point& p) {
    if (!(isFiniteFloat(p.x) && isFiniteFloat(p.y) && isFiniteFloat(p.z))) return empty();
    return {{p.x, p.y, p.z}, {p.x, p.y, p.z}};
  }
};

struct MergeBounds {
  __device__ FiniteBounds operator()(const FiniteBounds& a, const FiniteBounds& b) const {
    FiniteBounds r;
    for (int axis = 0; axis < 3; ++axis) {
      r.min[axis] = fminf(a.min[axis], b.min[axis]);
      r.max[axis] = fmaxf(a.max[axis], b.max[axis]);
    }
    return r;
  }
};

struct BoundsOfPoint {
  __device__ FiniteBounds operator()(const Point& p) const { return FiniteBounds::of(p); }
};

struct MortonKeysParams {
  const Point* points;
  uint64_t count;
  const FiniteBounds* bounds;  ///< device memory, one box
  uint64_t* codes;
  uint32_t* indices;
};

__global__ void mortonKeysKernel(MortonKeysParams p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i >= p.count) return;
  const MortonGrid grid = makeMortonGrid(p.bounds->min, p.bounds->max);
  p.codes[i] = mortonCode(grid, p.points[i].x, p.points[i].y, p.points[i].z);
  p.indices[i] = uint32_t(i);
}

struct GatherParams {
  const Point* source;
  const uint32_t* order;
  Point* sorted;
  uint64_t count;
};

__global__ void gatherPointsKernel(GatherParams p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i < p.count) p.sorted[i] = p.source[p.order[i]];
}

struct CompactParams {
  const Point* points;
  uint64_t count;
  uint32_t* positions;
  uint32_t* colors;
  Batch* batches;
};

// One block per batch: reduce the batch's box, then quantize its points against it.
__global__ void buildCompactKernel(CompactParams p) {
  using BlockReduce = cub::BlockReduce<FiniteBounds, kBlock>;
  __shared__ typename BlockReduce::TempStorage scratch;
  __shared__ Batch batch;
  const uint64_t first = uint64_t(blockIdx.x) * kBatchSize;
  const uint32_t size = uint32_t(min(uint64_t(kBatchSize), p.count - first));
  FiniteBounds local = FiniteBounds::empty();
  for (uint32_t i = threadIdx.x; i < size; i += kBlock) {
    local = MergeBounds()(local, FiniteBounds::of(p.points[first + i]));
  }
  const FiniteBounds box = BlockReduce(scratch).Reduce(local, MergeBounds());
  if (threadIdx.x == 0) {
    batch = makeBatch(box.min, box.max, uint32_t(first), size);
    p.batches[blockIdx.x] = batch;
  }
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < size; i += kBlock) {
    const Point point = p.points[first + i];
    p.positions[first + i] = packQuantized(batch, point.x, point.y, point.z);
    p.colors[first + i] = point.rgba;
  }
}

}  // namespace

void sortPointsByMorton(DeviceBuffer<Point>& points, cudaStream_t stream) {
  const uint64_t count = points.size();
  if (count < 2) return;
  DeviceBuffer<FiniteBounds> bounds(1);
  size_t reduceBytes = 0;
  const auto boundsInput = thrust::make_transform_iterator(points.data(), BoundsOfPoint());
  CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, reduceBytes, boundsInput, bounds.data(),
                                       int64_t(count), MergeBounds(), FiniteBounds::empty(),
                                       stream));
  DeviceBuffer<uint8_t> reduceScratch(
      std::max<size_t>(reduceBytes, 1));  // null asks CUB for the size
  CUDA_CHECK(cub::DeviceReduce::Reduce(reduceScratch.data(), reduceBytes, boundsInput,
                                       bounds.data(), int64_t(count), MergeBounds(),
                                       FiniteBounds::empty(), stream));

  DeviceBuffer<uint64_t> codes(count), sortedCodes(count);
  DeviceBuffer<uint32_t> indices(count), order(count);
  mortonKeysKernel<<<blocksFor(count), kBlock, 0, stream>>>(
      {points.data(), count, bounds.data(), codes.data(), indices.data()});
  CUDA_CHECK(cudaGetLastError());
  size_t sortBytes = 0;
  // 63 bits hold the code; radix sort is stable, so equal codes keep their order.
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sortBytes, codes.data(), sortedCodes.data(),
                                             indices.data(), order.data(), int64_t(count), 0, 63,
                                             stream));
  {
    DeviceBuffer<uint8_t> sortScratch(std::max<size_t>(sortBytes, 1));
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sortScratch.data(), sortBytes, codes.data(),
                                               sortedCodes.data(), indices.data(), order.data(),
                                               int64_t(count), 0, 63, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  codes = DeviceBuffer<uint64_t>();
  sortedCodes = DeviceBuffer<uint64_t>();
  indices = DeviceBuffer<uint32_t>();
  DeviceBuffer<Point> sorted(count);
  gatherPointsKernel<<<blocksFor(count), kBlock, 0, stream>>>(
      {points.data(), order.data(), sorted.data(), count});
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(stream));
  points = std::move(sorted);
}

void buildCompactPoints(const Point* points, uint64_t count, CompactPointsDevice& out,
                        cudaStream_t stream) {
  const uint64_t batchCount = (count + kBatchSize - 1) / kBatchSize;
  out.positions.resize(count);
  out.colors.resize(count);
  out.batches.resize(batchCount);
  if (count == 0) return;
  buildCompactKernel<<<unsigned(batchCount), kBlock, 0, stream>>>(
      {points, count, out.positions.data(), out.colors.data(), out.batches.data()});
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace pcv::cuda
