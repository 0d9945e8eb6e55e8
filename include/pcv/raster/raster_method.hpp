/// @brief The rasterization methods a renderer can draw with, by name for the command line and
/// the panel. Each draws the closest point per pixel; they differ in layout and passes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pcv/core/named_values.hpp"

namespace pcv {

enum class RasterMethod : uint8_t {
  Compact,  ///< Morton-ordered batches, 4-byte quantized positions, culling, early-z (fastest)
  EarlyZ,   ///< 16-byte points, read the pixel before the 64-bit atomicMin (CUDA only)
  Packed,   ///< 16-byte points, one 64-bit atomicMin of depth|index per point
  Seed,     ///< the seed demo's two passes: float depth, then colour at equal depth
};

/// The names of --method and pcv.render(method=...): "compact", "earlyz", "packed", "seed".
const NameTable<RasterMethod>& methodTable();
const char* methodName(RasterMethod method);
/// Every method, in the order above.
const std::vector<RasterMethod>& allMethods();
/// The names of allMethods(), for help texts and CLI checks.
std::vector<std::string> methodNames();
/// Parses a method name; throws UnknownNameError listing the known names otherwise.
RasterMethod parseMethod(std::string_view name);
/// Bytes the method's raster pass(es) read per point: its memory traffic per point per frame.
double bytesReadPerPoint(RasterMethod method);

}  // namespace pcv
