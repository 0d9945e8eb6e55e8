#include "point_layout.cuh"

#include <cmath>

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/transform_iterator.h>

#include "pcv/core/float_math.hpp"
#include "shared/morton.hpp"

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
  const Point* points;  ///< the slice in Morton order
  uint64_t count;
  uint32_t poolFirst;   ///< point slot of the slice's first point: batches name slots
  uint32_t* positions;  ///< the slice's first position slot
  uint32_t* colors;     ///< the slice's first colour slot
  Batch* batches;       ///< the slice's first batch slot
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
    batch = makeBatch(box.min, box.max, p.poolFirst + uint32_t(first), size);
    p.batches[blockIdx.x] = batch;
  }
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < size; i += kBlock) {
    const Point point = p.points[first + i];
    p.positions[first + i] = packQuantized(batch, point.x, point.y, point.z);
    p.colors[first + i] = point.rgba;
  }
}

struct EmptySlotsParams {
  Point* points;  ///< null when the pool keeps none
  uint64_t pointFirst, pointCount;
  Batch* batches;  ///< null when the pool sorts none
  uint64_t batchFirst, batchCount;
};

__global__ void emptySlotsKernel(EmptySlotsParams p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (p.points && i < p.pointCount)
    p.points[p.pointFirst + i] = Point{__int_as_float(0x7fc00000), 0.0f, 0.0f, 0u};
  if (p.batches && i < p.batchCount) p.batches[p.batchFirst + i] = Batch{};
}

static_assert(sizeof(FiniteBounds) == 6 * sizeof(float), "the workspace holds a box as 6 floats");

/// The finite bounds of `count` points, reduced on the GPU into `bounds`.
void finiteBoundsOf(const Point* points, uint64_t count, FiniteBounds* bounds,
                    DeviceBuffer<uint8_t>& scratch, cudaStream_t stream) {
  size_t reduceBytes = 0;
  const auto input = thrust::make_transform_iterator(points, BoundsOfPoint());
  CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, reduceBytes, input, bounds, int64_t(count),
                                       MergeBounds(), FiniteBounds::empty(), stream));
  scratch.reserve(std::max<size_t>(reduceBytes, 1));  // null asks CUB for the size
  CUDA_CHECK(cub::DeviceReduce::Reduce(scratch.data(), reduceBytes, input, bounds, int64_t(count),
                                       MergeBounds(), FiniteBounds::empty(), stream));
}

/// The stable Morton order of `count` points as a permutation of their indices, into
/// workspace.order.
void mortonOrder(const Point* points, uint64_t count, SliceWorkspace& w, cudaStream_t stream) {
  w.bounds.reserve(6);
  auto* bounds = reinterpret_cast<FiniteBounds*>(w.bounds.data());
  finiteBoundsOf(points, count, bounds, w.reduceScratch, stream);
  w.codes.reserve(count);
  w.sortedCodes.reserve(count);
  w.indices.reserve(count);
  w.order.reserve(count);
  mortonKeysKernel<<<blocksFor(count), kBlock, 0, stream>>>(
      {points, count, bounds, w.codes.data(), w.indices.data()});
  CUDA_CHECK(cudaGetLastError());
  size_t sortBytes = 0;
  // 63 bits hold the code; radix sort is stable, so equal codes keep their order.
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sortBytes, w.codes.data(),
                                             w.sortedCodes.data(), w.indices.data(), w.order.data(),
                                             int64_t(count), 0, 63, stream));
  w.sortScratch.reserve(std::max<size_t>(sortBytes, 1));
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(w.sortScratch.data(), sortBytes, w.codes.data(),
                                             w.sortedCodes.data(), w.indices.data(), w.order.data(),
                                             int64_t(count), 0, 63, stream));
}

}  // namespace

void layoutSlice(const Point* slice, uint64_t count, DevicePointPool& pool, uint64_t pointFirst,
                 uint64_t batchFirst, bool keepPoints, uint32_t* hostOrder,
                 SliceWorkspace& workspace, cudaStream_t stream) {
  if (count == 0) return;
  // The sort's keys and indices (twice), then the sorted copy where the pool keeps no points.
  if (workspace.codes.size() < count) {
    requireDeviceMemory("the Morton sort of a slice of points", count,
                        24 + (keepPoints ? 0 : sizeof(Point)));
  }
  // Everything below is queued on the stream in order, each step reading what the one before
  // wrote; the host waits once, at the end.
  mortonOrder(slice, count, workspace, stream);
  if (hostOrder) {
    CUDA_CHECK(cudaMemcpyAsync(hostOrder, workspace.order.data(), count * sizeof(uint32_t),
                               cudaMemcpyDeviceToHost, stream));
  }
  Point* sorted = keepPoints ? pool.points.data() + pointFirst : nullptr;
  if (!keepPoints) {
    workspace.sorted.reserve(count);
    sorted = workspace.sorted.data();
  }
  gatherPointsKernel<<<blocksFor(count), kBlock, 0, stream>>>(
      {slice, workspace.order.data(), sorted, count});
  CUDA_CHECK(cudaGetLastError());
  const uint64_t batchCount = (count + kBatchSize - 1) / kBatchSize;
  buildCompactKernel<<<unsigned(batchCount), kBlock, 0, stream>>>(
      {sorted, count, uint32_t(pointFirst), pool.positions.data() + pointFirst,
       pool.colors.data() + pointFirst, pool.batches.data() + batchFirst});
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

void emptySlots(DevicePointPool& pool, PointRange points, PointRange batches, cudaStream_t stream) {
  const EmptySlotsParams params{pool.points.size() ? pool.points.data() : nullptr,
                                points.first,
                                pool.points.size() ? points.count : 0,
                                pool.batches.size() ? pool.batches.data() : nullptr,
                                batches.first,
                                pool.batches.size() ? batches.count : 0};
  const uint64_t threads = std::max(params.pointCount, params.batchCount);
  if (threads == 0) return;
  emptySlotsKernel<<<blocksFor(threads), kBlock, 0, stream>>>(params);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace pcv::cuda
