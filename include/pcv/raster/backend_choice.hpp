/// @brief The renderer backends a front end names (--backend, pcv.render(backend=...)), read
/// and written through one table so every front end accepts the same names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pcv/core/named_values.hpp"

namespace pcv {

enum class BackendChoice : uint8_t {
  Auto,    ///< cuda where usable, else a Vulkan GPU (never a software one), else cpu
  Cuda,    ///< the CUDA rasterizer; unavailable without a GPU or CUDA in the build
  Vulkan,  ///< the Vulkan compute rasterizer: any GPU with Vulkan 1.2 and 64-bit atomics
  Cpu,     ///< the reference rasterizer, on every machine
};

/// "auto", "cuda", "vulkan", "cpu".
const NameTable<BackendChoice>& backendTable();
/// Known backend names, for messages and help: {"auto", "cuda", "vulkan", "cpu"}.
std::vector<std::string> backendNames();
/// Throws UnknownNameError listing the known names.
BackendChoice parseBackend(std::string_view name);
const char* backendChoiceName(BackendChoice backend);

}  // namespace pcv
