#include "pcv/raster/clip_settings.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "pcv/core/error.hpp"

namespace pcv {
namespace {

std::string text(const glm::dvec3& v) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%.9g,%.9g,%.9g", v.x, v.y, v.z);
  return buffer;
}

bool finite(const glm::dvec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

}  // namespace

void validateClipSettings(const ClipSettings& clip) {
  if (clip.box) {
    const ClipBox& box = *clip.box;
    if (!finite(box.min) || !finite(box.max)) {
      throw InputError("the clip box must have finite corners, got " + text(box.min) + " and " +
                       text(box.max));
    }
    for (int axis = 0; axis < 3; ++axis) {
      if (box.min[axis] > box.max[axis]) {
        throw InputError("the clip box's minimum corner " + text(box.min) +
                         " must not exceed its maximum corner " + text(box.max) + " on " +
                         "xyz"[axis]);
      }
    }
  }
  if (clip.slab) {
    const ClipSlab& slab = *clip.slab;
    if (!finite(slab.normal) || !(glm::length(slab.normal) > 0.0) || !finite(slab.centre)) {
      throw InputError(
          "the clip slab needs a finite, non-zero normal and a finite centre, got "
          "normal " +
          text(slab.normal) + " and centre " + text(slab.centre));
    }
    if (!(slab.thickness > 0.0 && std::isfinite(slab.thickness))) {
      throw InputError("the clip slab's thickness must be a positive number, got " +
                       std::to_string(slab.thickness));
    }
  }
}

}  // namespace pcv
