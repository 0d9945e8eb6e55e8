// The example's kernel: one thread per pixel, integer arithmetic only, so the image is exact.
#include "pattern.hpp"

namespace {

__global__ void patternKernel(uint32_t* pixels, int width, int height, uint32_t tick) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = int(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= width || y >= height) return;
  const uint32_t red = (uint32_t(x) + tick) & 0xffu;
  const uint32_t green = (uint32_t(y) + 2u * tick) & 0xffu;
  const uint32_t blue = ((uint32_t(x) ^ uint32_t(y)) + 3u * tick) & 0xffu;
  // Packed RGBA8 as GL reads GL_RGBA/GL_UNSIGNED_BYTE on a little-endian machine: red first.
  pixels[size_t(y) * width + x] = red | (green << 8) | (blue << 16) | (0xffu << 24);
}

}  // namespace

void launchPattern(uint32_t* pixelsRgba, int widthPx, int heightPx, uint32_t tick,
                   cudaStream_t stream) {
  const dim3 block(16, 16);
  const dim3 grid((unsigned(widthPx) + block.x - 1) / block.x,
                  (unsigned(heightPx) + block.y - 1) / block.y);
  patternKernel<<<grid, block, 0, stream>>>(pixelsRgba, widthPx, heightPx, tick);
}
