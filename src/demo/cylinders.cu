#include "pcv/cuda/device_buffer.hpp"
#include "pcv/demo/cylinder_point.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinders_cuda.hpp"

namespace pcv {
namespace {

struct GenerateParams {
  const Cylinder* cylinders;  ///< device memory
  uint32_t cylinderCount;
  uint64_t seed;
  Point* points;        ///< device memory, count of them
  uint64_t first;       ///< index of points[0] in the set
  uint64_t count;       ///< points written
  uint64_t totalCount;  ///< points of the whole set
};

__global__ void generateCylinderPointsKernel(GenerateParams p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i < p.count) {
    p.points[i] = cylinderPoint(p.cylinders, p.cylinderCount, p.seed, p.first + i, p.totalCount);
  }
}

}  // namespace

void generateCylinderPointsOnDevice(const CylinderSet& set, Point* devicePoints,
                                    uint64_t pointCount, cudaStream_t stream) {
  generateCylinderPointsOnDevice(set, pointCount, 0, pointCount, devicePoints, stream);
}

void generateCylinderPointsOnDevice(const CylinderSet& set, uint64_t totalCount, uint64_t first,
                                    uint64_t count, Point* devicePoints, cudaStream_t stream) {
  if (count == 0) return;
  DeviceBuffer<Cylinder> cylinders(set.cylinders.size());
  CUDA_CHECK(cudaMemcpyAsync(cylinders.data(), set.cylinders.data(), cylinders.bytes(),
                             cudaMemcpyHostToDevice, stream));
  const GenerateParams params{
      cylinders.data(), uint32_t(set.cylinders.size()), set.seed, devicePoints, first, count,
      totalCount};
  constexpr int kBlock = 256;
  generateCylinderPointsKernel<<<unsigned((count + kBlock - 1) / kBlock), kBlock, 0, stream>>>(
      params);
  CUDA_CHECK(cudaGetLastError());
  // The parameter buffer is freed on return: wait for the kernel that reads it.
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

bool CylinderProducer::produceOnDevice(uint64_t first, uint64_t count, Point* devicePoints,
                                       void* cudaStream) const {
  generateCylinderPointsOnDevice(set_, pointCount_, first, count, devicePoints,
                                 static_cast<cudaStream_t>(cudaStream));
  return true;
}

}  // namespace pcv
