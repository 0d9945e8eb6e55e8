/// @brief Turns a frame's PointFilter into the FilterFrame the kernels test
/// (shared/point_filter_frame.hpp), once per frame on the host.
#pragma once

#include "pcv/core/point_filter.hpp"
#include "shared/point_filter_frame.hpp"

namespace pcv {

/// The filter's frame; its range bounds rounded inwards to floats, so a float value passes
/// exactly when it passes the double bounds. Throws InputError for more than one range (the
/// rasterizer tests one attribute per frame).
FilterFrame makeFilterFrame(const PointFilter& filter);

/// Bits of RendererSetRecord::filterFields the filter reads: 1 classes, 2 return numbers,
/// 4 numbers of returns.
uint32_t filterFieldsRead(const PointFilter& filter);

}  // namespace pcv
