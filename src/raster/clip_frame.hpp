/// @brief Turns the world-coordinate clip settings into the float region the kernels test
/// (shared/clip_region.hpp), once per frame on the host.
#pragma once

#include "pcv/raster/clip_settings.hpp"
#include "shared/clip_region.hpp"

namespace pcv {

/// The clip region of `clip` for points stored as offsets from `origin` (world coordinates). A
/// slab whose normal lies along an axis is folded into the box, so it costs no plane test; a
/// polygon becomes its view's rows and its edges, in float.
ClipFrame makeClipFrame(const ClipSettings& clip, const double origin[3]);

}  // namespace pcv
