#include "quality_resolve.cuh"

namespace pcv::cuda {
namespace {

__device__ void fillHoles(const FillParams& p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i >= uint64_t(p.width) * p.height) return;
  p.filled[i] = filledWord(p, int(i % p.width), int(i / p.width));
}

__device__ void qualityResolve(const QualityResolveKernelParams& p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  const int width = p.resolve.width;
  if (i >= uint64_t(width) * p.resolve.height) return;
  p.out.store(i, resolveQualityPixel(p.resolve, int(i % width), int(i / width)));
}

}  // namespace

__global__ void fillHolesKernel(FillParams p) {
  fillHoles(p);
}
__global__ void qualityResolveKernel(QualityResolveKernelParams p) {
  qualityResolve(p);
}

}  // namespace pcv::cuda
