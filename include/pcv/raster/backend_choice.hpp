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
  Auto,  ///< cuda when this build has CUDA and a usable device, else cpu
  Cuda,  ///< the CUDA rasterizer; unavailable without a GPU or CUDA in the build
  Cpu,   ///< the reference rasterizer, on every machine
};

/// "auto", "cuda", "cpu".
const NameTable<BackendChoice>& backendTable();
/// Known backend names, for messages and help: {"auto", "cuda", "cpu"}.
std::vector<std::string> backendNames();
/// Throws UnknownNameError listing the known names.
BackendChoice parseBackend(std::string_view name);
const char* backendChoiceName(BackendChoice backend);

}  // namespace pcv
