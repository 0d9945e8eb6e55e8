#include "pcv/cuda/device_buffer.hpp"
#include "pcv/scene/cylinder_point.hpp"
#include "pcv/scene/cylinders_cuda.hpp"

namespace pcv {
namespace {

struct GenerateParams {
  const Cylinder* cylinders;  ///< device memory
  uint32_t cylinderCount;
  uint64_t seed;
  Point* points;  ///< device memory, pointCount of them
  uint64_t pointCount;
};

__global__ void generateCylinderPointsKernel(GenerateParams p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i < p.pointCount)
    p.points[i] = cylinderPoint(p.cylinders, p.cylinderCount, p.seed, i, p.pointCount);
}

}  // namespace

void generateCylinderPointsOnDevice(const CylinderScene& scene, Point* devicePoints,
                                    uint64_t pointCount, cudaStream_t stream) {
  if (pointCount == 0) return;
  DeviceBuffer<Cylinder> cylinders(scene.cylinders.size());
  CUDA_CHECK(cudaMemcpyAsync(cylinders.data(), scene.cylinders.data(), cylinders.bytes(),
                             cudaMemcpyHostToDevice, stream));
  const GenerateParams params{cylinders.data(), uint32_t(scene.cylinders.size()), scene.seed,
                              devicePoints, pointCount};
  constexpr int kBlock = 256;
  generateCylinderPointsKernel<<<unsigned((pointCount + kBlock - 1) / kBlock), kBlock, 0, stream>>>(
      params);
  CUDA_CHECK(cudaGetLastError());
  // The parameter buffer is freed on return: wait for the kernel that reads it.
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace pcv
