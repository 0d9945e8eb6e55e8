#include "pcv/raster/device_point_arrays.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "pcv/core/error.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/core/turbo_color.hpp"
#include "pcv/cuda/cuda_check.hpp"
#include "pcv/cuda/device_buffer.hpp"

namespace pcv {
namespace {

constexpr int kBlock = 256;
constexpr int kScanBlocks = 1024;
constexpr uint64_t kMaxSampleValues = 1u << 20;  // as the CPU's elevation colouring samples
constexpr unsigned long long kNoIndex = ~0ull;

/// One array's element as a double (positions) or byte (colours), by byte strides.
struct Column {
  const char* data;
  int64_t rowStride;
  int64_t columnStride;
  DeviceScalar scalar;

  __device__ double real(uint64_t row, int column) const {
    const char* at = data + int64_t(row) * rowStride + int64_t(column) * columnStride;
    return scalar == DeviceScalar::Float64 ? *reinterpret_cast<const double*>(at)
                                           : double(*reinterpret_cast<const float*>(at));
  }
  __device__ uint32_t byte(uint64_t row, int column) const {
    return uint8_t(data[int64_t(row) * rowStride + int64_t(column) * columnStride]);
  }
};

Column columnOf(const DeviceArray& array) {
  return {static_cast<const char*>(array.data), array.rowStrideBytes, array.columnStrideBytes,
          array.scalar};
}

/// The first row whose three coordinates are finite: the origin is taken near it, as for points
/// given in host memory.
__global__ void firstFiniteKernel(Column xyz, uint64_t rows, unsigned long long* first) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < rows;
       i += uint64_t(gridDim.x) * blockDim.x) {
    if (isfinite(xyz.real(i, 0)) && isfinite(xyz.real(i, 1)) && isfinite(xyz.real(i, 2))) {
      atomicMin(first, static_cast<unsigned long long>(i));
      return;  // later rows of this thread are larger
    }
  }
}

/// Per block: the box of the finite float offsets from the origin, the very values the renderer
/// holds (so the bounds, and a camera framed on them, are those of the same points in host
/// memory).
struct Extent {
  float min[3];
  float max[3];
};

__global__ void extentKernel(Column xyz, uint64_t rows, double ox, double oy, double oz,
                             Extent* blocks) {
  __shared__ Extent shared[kBlock];
  Extent e;
  for (int a = 0; a < 3; ++a) e.min[a] = INFINITY, e.max[a] = -INFINITY;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < rows;
       i += uint64_t(gridDim.x) * blockDim.x) {
    const float p[3] = {float(xyz.real(i, 0) - ox), float(xyz.real(i, 1) - oy),
                        float(xyz.real(i, 2) - oz)};
    if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) continue;
    for (int a = 0; a < 3; ++a) e.min[a] = fminf(e.min[a], p[a]), e.max[a] = fmaxf(e.max[a], p[a]);
  }
  shared[threadIdx.x] = e;
  __syncthreads();
  for (int half = kBlock / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      Extent& mine = shared[threadIdx.x];
      const Extent& other = shared[threadIdx.x + half];
      for (int a = 0; a < 3; ++a) {
        mine.min[a] = fminf(mine.min[a], other.min[a]);
        mine.max[a] = fmaxf(mine.max[a], other.max[a]);
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) blocks[blockIdx.x] = shared[0];
}

/// Every `step`-th point's z as a float offset from the origin: the CPU's colour-range sample.
__global__ void sampleKernel(Column xyz, uint64_t step, uint64_t count, double originZ,
                             float* sample) {
  const uint64_t j = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (j < count) sample[j] = float(xyz.real(j * step, 2) - originZ);
}

struct PackParams {
  Column xyz;
  Column rgb;
  bool hasRgb;
  double origin[3];
  float low;    ///< elevation colour: the range's low end in offsets
  float scale;  ///< 1 / the range's width
  uint64_t first;
  uint64_t count;
  Point* out;
};

__global__ void packKernel(PackParams p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i >= p.count) return;
  const uint64_t row = p.first + i;
  Point point;
  point.x = float(p.xyz.real(row, 0) - p.origin[0]);
  point.y = float(p.xyz.real(row, 1) - p.origin[1]);
  point.z = float(p.xyz.real(row, 2) - p.origin[2]);
  point.rgba = p.hasRgb ? packRgba(p.rgb.byte(row, 0), p.rgb.byte(row, 1), p.rgb.byte(row, 2))
                        : turboRgba((point.z - p.low) * p.scale);
  p.out[i] = point;
}

std::string shapeText(const DeviceArray& array) {
  return std::to_string(array.rows) + " x " + std::to_string(array.columns);
}

/// Throws InputError unless `array` lies in the current device's memory.
void requireOnThisDevice(const DeviceArray& array, const char* what) {
  if (array.rows == 0) return;
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, array.data) != cudaSuccess) {
    cudaGetLastError();
    throw InputError(std::string(what) + " is not CUDA memory");
  }
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const bool deviceMemory = attributes.type == cudaMemoryTypeDevice ||
                            attributes.type == cudaMemoryTypeManaged;
  if (!deviceMemory || attributes.device != device) {
    throw InputError(std::string(what) + " must lie in the memory of CUDA device " +
                     std::to_string(device) + " (it is " +
                     (deviceMemory ? "on device " + std::to_string(attributes.device)
                                   : std::string("host memory")) + ")");
  }
}

cudaStream_t readyStream(const DeviceArraysReady& ready) {
  switch (ready.stream) {
    case DeviceArraysReady::Stream::LegacyDefault:
      return cudaStreamLegacy;
    case DeviceArraysReady::Stream::PerThreadDefault:
      return cudaStreamPerThread;
    case DeviceArraysReady::Stream::Given:
      return static_cast<cudaStream_t>(ready.handle);
    case DeviceArraysReady::Stream::AlreadyDone:
      break;
  }
  return nullptr;
}

}  // namespace

struct DevicePointArrays::State {
  DeviceArray xyz;
  std::optional<DeviceArray> rgb;
  cudaEvent_t ready = nullptr;    ///< the writer's work on the arrays; every reader waits for it
  cudaStream_t stream = nullptr;  ///< this producer's own work (the scan, host fallback)
  Box3d bounds;
  glm::dvec3 origin{0.0};
  ValueRange range{0.0, 1.0};  ///< elevation colours (world z) when there are no colours

  ~State() {
    if (stream) cudaStreamDestroy(stream);
    if (ready) cudaEventDestroy(ready);
  }

  PackParams packParams(uint64_t first, uint64_t count, Point* out) const {
    PackParams p{};
    p.xyz = columnOf(xyz);
    p.hasRgb = rgb.has_value();
    if (rgb) p.rgb = columnOf(*rgb);
    for (int a = 0; a < 3; ++a) p.origin[a] = origin[a];
    p.low = float(range.low - origin.z);
    p.scale = float(1.0 / (range.high - range.low));
    p.first = first;
    p.count = count;
    p.out = out;
    return p;
  }

  void pack(uint64_t first, uint64_t count, Point* out, cudaStream_t on) const {
    if (count == 0) return;
    CUDA_CHECK(cudaStreamWaitEvent(on, ready, 0));
    packKernel<<<unsigned((count + kBlock - 1) / kBlock), kBlock, 0, on>>>(
        packParams(first, count, out));
    CUDA_CHECK(cudaGetLastError());
  }
};

DevicePointArrays::DevicePointArrays(const DeviceArray& xyz, const std::optional<DeviceArray>& rgb,
                                     const std::vector<DeviceArraysReady>& writers)
    : state_(std::make_unique<State>()) {
  if (xyz.columns != 3 || xyz.scalar == DeviceScalar::UInt8) {
    throw InputError("positions must be an N x 3 float32 or float64 array, got " +
                     shapeText(xyz) + (xyz.scalar == DeviceScalar::UInt8 ? " uint8" : ""));
  }
  if (rgb && (rgb->rows != xyz.rows || (rgb->columns != 3 && rgb->columns != 4) ||
              rgb->scalar != DeviceScalar::UInt8)) {
    throw InputError("colours must be an N x 3 (or N x 4) uint8 array for " +
                     std::to_string(xyz.rows) + " positions, got " + shapeText(*rgb));
  }
  std::string reason;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    throw UnavailableError("points in CUDA memory need a CUDA device, and none is usable");
  }
  requireOnThisDevice(xyz, "the positions array");
  if (rgb) requireOnThisDevice(*rgb, "the colours array");
  State& s = *state_;
  s.xyz = xyz;
  s.rgb = rgb;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaEventCreateWithFlags(&s.ready, cudaEventDisableTiming));
  // This stream waits for every writer; `ready` marks that point, for the renderer's stream.
  for (const DeviceArraysReady& writer : writers) {
    if (cudaStream_t stream = readyStream(writer)) {
      CUDA_CHECK(cudaEventRecord(s.ready, stream));
      CUDA_CHECK(cudaStreamWaitEvent(s.stream, s.ready, 0));
    }
  }
  CUDA_CHECK(cudaEventRecord(s.ready, s.stream));
  if (xyz.rows == 0) return;

  // The first finite point gives the origin; then the box of the offsets from it.
  DeviceBuffer<unsigned long long> first(1);
  CUDA_CHECK(cudaMemsetAsync(first.data(), 0xff, first.bytes(), s.stream));
  firstFiniteKernel<<<kScanBlocks, kBlock, 0, s.stream>>>(columnOf(xyz), xyz.rows, first.data());
  CUDA_CHECK(cudaGetLastError());
  unsigned long long firstFinite = kNoIndex;
  CUDA_CHECK(cudaMemcpyAsync(&firstFinite, first.data(), first.bytes(), cudaMemcpyDeviceToHost,
                             s.stream));
  CUDA_CHECK(cudaStreamSynchronize(s.stream));
  if (firstFinite == kNoIndex) return;  // no finite point: empty bounds, origin zero
  {
    // Read back as stored (float or double), as the host path reads it.
    const bool doubles = xyz.scalar == DeviceScalar::Float64;
    glm::dvec3 point(0.0);
    for (int a = 0; a < 3; ++a) {
      const char* at = static_cast<const char*>(xyz.data) +
                       int64_t(firstFinite) * xyz.rowStrideBytes + a * xyz.columnStrideBytes;
      double value64 = 0.0;
      float value32 = 0.0f;
      CUDA_CHECK(cudaMemcpy(doubles ? static_cast<void*>(&value64) : &value32, at,
                            doubles ? sizeof(double) : sizeof(float), cudaMemcpyDeviceToHost));
      point[a] = doubles ? value64 : double(value32);
    }
    s.origin = originNear(point);
  }
  DeviceBuffer<Extent> blocks(kScanBlocks);
  extentKernel<<<kScanBlocks, kBlock, 0, s.stream>>>(columnOf(xyz), xyz.rows, s.origin.x,
                                                     s.origin.y, s.origin.z, blocks.data());
  CUDA_CHECK(cudaGetLastError());
  std::vector<Extent> extents(kScanBlocks);
  CUDA_CHECK(cudaMemcpyAsync(extents.data(), blocks.data(), blocks.bytes(),
                             cudaMemcpyDeviceToHost, s.stream));
  CUDA_CHECK(cudaStreamSynchronize(s.stream));
  Box3f local;
  for (const Extent& e : extents) {
    if (e.min[0] > e.max[0]) continue;  // a block without finite points
    local.extend(glm::vec3(e.min[0], e.min[1], e.min[2]));
    local.extend(glm::vec3(e.max[0], e.max[1], e.max[2]));
  }
  if (!local.empty()) {
    s.bounds.extend(s.origin + glm::dvec3(local.min));
    s.bounds.extend(s.origin + glm::dvec3(local.max));
  }
  if (!rgb) {
    const uint64_t step = std::max<uint64_t>(1, xyz.rows / kMaxSampleValues);
    const uint64_t count = (xyz.rows + step - 1) / step;
    DeviceBuffer<float> sample(count);
    sampleKernel<<<unsigned((count + kBlock - 1) / kBlock), kBlock, 0, s.stream>>>(
        columnOf(xyz), step, count, s.origin.z, sample.data());
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> values(count);
    CUDA_CHECK(cudaMemcpyAsync(values.data(), sample.data(), sample.bytes(),
                               cudaMemcpyDeviceToHost, s.stream));
    CUDA_CHECK(cudaStreamSynchronize(s.stream));
    s.range = percentileRange(values, 0.02, 0.98, s.origin.z);
  }
}

DevicePointArrays::~DevicePointArrays() = default;

uint64_t DevicePointArrays::pointCount() const {
  return state_->xyz.rows;
}

void DevicePointArrays::produce(uint64_t first, std::span<Point> out) const {
  if (out.empty()) return;
  DeviceBuffer<Point> packed(out.size());
  state_->pack(first, out.size(), packed.data(), state_->stream);
  CUDA_CHECK(cudaMemcpyAsync(out.data(), packed.data(), packed.bytes(), cudaMemcpyDeviceToHost,
                             state_->stream));
  CUDA_CHECK(cudaStreamSynchronize(state_->stream));
}

bool DevicePointArrays::produceOnDevice(uint64_t first, uint64_t count, Point* devicePoints,
                                        void* cudaStream) const {
  state_->pack(first, count, devicePoints, static_cast<cudaStream_t>(cudaStream));
  return true;
}

const Box3d& DevicePointArrays::worldBounds() const {
  return state_->bounds;
}

const glm::dvec3& DevicePointArrays::origin() const {
  return state_->origin;
}

bool DevicePointArrays::hasColor() const {
  return state_->rgb.has_value();
}

void DevicePointArrays::moveToOrigin(const glm::dvec3& origin) {
  state_->origin = origin;
}

}  // namespace pcv
