/// @brief Where a backend writes its resolved image: host memory, device memory, or memory a GL
/// buffer lends through interop (which is device memory to CUDA). No GL types here.
#pragma once

#include <cstdint>

namespace pcv {

enum class MemorySpace {
  Host,         ///< rgba points to host memory
  Device,       ///< rgba points to CUDA device memory (cudaMalloc'd, or a mapped GL buffer)
  CudaSurface,  ///< `surface` is a cudaSurfaceObject_t over an RGBA8 2D array (a mapped GL
                ///< texture): CUDA writes the texture directly, no buffer-to-texture copy
  Exported,     ///< the memory the backend exported last (Renderer::exportImageMemory), which
                ///< another API (GL) imported: the frame is drawn there, no copy
};

/// With rgba == nullptr and memory Host or Device, the backend draws into an image of its own in
/// that memory space (benchmarks, which only time the drawing).
struct RenderTarget {
  uint32_t* rgba = nullptr;  ///< width*height packed RGBA8, row 0 at the bottom; owned by caller
  int width = 0;             ///< pixels
  int height = 0;            ///< pixels
  MemorySpace memory = MemorySpace::Host;
  unsigned long long surface = 0;  ///< the cudaSurfaceObject_t when memory == CudaSurface
  /// Rows in rgba run from the top down, as in image files and NumPy arrays, instead of GL's
  /// bottom-up order: the backend orders them where the pixels are (on the GPU for the cuda
  /// backend), so a reader needs no flipped copy of its own. Host and Device targets only.
  bool topRowFirst = false;
};

}  // namespace pcv
