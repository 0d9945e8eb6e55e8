/// @brief Where a backend writes its resolved image: host memory, device memory, or memory a GL
/// buffer lends through interop (which is device memory to CUDA). No GL types here.
#pragma once

#include <cstdint>

namespace pcv {

enum class MemorySpace { Host, Device };

struct RenderTarget {
  uint32_t* rgba = nullptr;  ///< width*height packed RGBA8, row 0 at the bottom; owned by caller
  int width = 0;             ///< pixels
  int height = 0;            ///< pixels
  MemorySpace memory = MemorySpace::Host;
};

}  // namespace pcv
