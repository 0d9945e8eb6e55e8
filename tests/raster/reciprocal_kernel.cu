#include "reciprocal_kernel.hpp"

#include "pcv/core/float_math.hpp"
#include "pcv/cuda/cuda_check.hpp"
#include "pcv/cuda/device_buffer.hpp"

namespace pcv::test {
namespace {

struct Mismatches {
  unsigned long long count;
  uint32_t example;
};

__global__ void compareReciprocals(uint32_t firstBits, uint32_t count, Mismatches* out) {
  const uint32_t stride = gridDim.x * blockDim.x;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    const float w = __uint_as_float(firstBits + i);
    if (__float_as_uint(reciprocalInViewRange(w)) != __float_as_uint(__frcp_rn(w))) {
      atomicAdd(&out->count, 1ull);
      out->example = firstBits + i;
    }
  }
}

__global__ void reciprocalsOf(const float* w, float* out, uint32_t count) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = reciprocalInViewRange(w[i]);
}

}  // namespace

ReciprocalCheck compareReciprocalWithDivisionOnDevice(uint32_t firstBits, uint32_t lastBits) {
  DeviceBuffer<Mismatches> result(1);
  CUDA_CHECK(cudaMemset(result.data(), 0, sizeof(Mismatches)));
  compareReciprocals<<<1024, 256>>>(firstBits, lastBits - firstBits + 1, result.data());
  CUDA_CHECK(cudaGetLastError());
  Mismatches host{};
  CUDA_CHECK(cudaMemcpy(&host, result.data(), sizeof host, cudaMemcpyDeviceToHost));
  return {host.count, host.example};
}

std::vector<float> reciprocalsOnDevice(const std::vector<float>& values) {
  const auto count = uint32_t(values.size());
  DeviceBuffer<float> in(count), out(count);
  CUDA_CHECK(cudaMemcpy(in.data(), values.data(), in.bytes(), cudaMemcpyHostToDevice));
  reciprocalsOf<<<(count + 255) / 256, 256>>>(in.data(), out.data(), count);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> result(count);
  CUDA_CHECK(cudaMemcpy(result.data(), out.data(), out.bytes(), cudaMemcpyDeviceToHost));
  return result;
}

}  // namespace pcv::test
