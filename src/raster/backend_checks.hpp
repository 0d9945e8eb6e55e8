/// @brief Checks every backend makes on what it is given, with one wording for all of them.
#pragma once

#include <cstdint>

#include "pcv/raster/backend.hpp"

namespace pcv {

/// Throws InputError when `count` points exceed kMaxPointCount (32-bit point indices).
void requirePointCount(uint64_t count);
/// Throws InputError for options no backend can honour (compact only without Morton order).
void requireConsistentOptions(const BackendOptions& options);
/// Throws InputError when the quality pipeline is asked for without the compact layout.
void requireCompactLayoutForQuality(const BackendOptions& options);

}  // namespace pcv
