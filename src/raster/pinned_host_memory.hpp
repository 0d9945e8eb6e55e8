/// @brief Page-locked host memory from the CUDA runtime, behind plain pointers so that the
/// renderer's CPU-side code needs no CUDA header and builds without CUDA link a stand-in.
#pragma once

#include <cstddef>

namespace pcv {

/// `bytes` of page-locked memory, or nullptr where this build has no CUDA or the runtime
/// cannot give it (no device, no memory left to pin): the caller then takes ordinary memory.
void* allocatePinnedHost(size_t bytes) noexcept;
/// Frees what allocatePinnedHost gave; quiet when the runtime is already shutting down.
void freePinnedHost(void* block) noexcept;

}  // namespace pcv
