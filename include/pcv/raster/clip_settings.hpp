/// @brief Clipping: the part of the scene a frame draws, as an axis-aligned box and a slab (the
/// points between two parallel planes), in world coordinates, and a polygon drawn in a view
/// (PolygonSelection). The viewer's Clip section and Polygon tool and `pcv render --clip-box`,
/// `--clip-polygon` edit it; the renderer culls whole batches outside it and tests single
/// points only in batches its faces or edges cross.
#pragma once

#include <cstdint>
#include <optional>

#include <glm/glm.hpp>

#include "pcv/core/polygon_selection.hpp"

namespace pcv {

/// An axis-aligned box, world coordinates; min <= max on every axis.
struct ClipBox {
  glm::dvec3 min{0.0};
  glm::dvec3 max{0.0};
};

/// The points p with |normal . (p - centre)| <= thickness / 2: a slab across the normal.
struct ClipSlab {
  glm::dvec3 normal{0.0, 0.0, 1.0};  ///< any length but zero; used normalised
  glm::dvec3 centre{0.0};            ///< a point of the slab's middle plane, world coordinates
  double thickness = 1.0;            ///< world units, > 0
};

/// Which points of the clip region a frame draws.
enum class ClipKeep : uint8_t {
  Inside,   ///< the points inside the region (box and slab); the rest are hidden
  Outside,  ///< the points outside it: the region is cut away
};

struct ClipSettings {
  std::optional<ClipBox> box;    ///< empty: no box
  std::optional<ClipSlab> slab;  ///< empty: no slab
  ClipKeep keep = ClipKeep::Inside;  ///< of the box and slab
  /// Empty: no polygon. Kept inside or outside by its own keepInside(); a point is drawn when
  /// the box and slab (as `keep` says) and the polygon both keep it.
  std::optional<PolygonSelection> polygon;

  /// True when anything is clipped.
  bool active() const { return box.has_value() || slab.has_value() || polygon.has_value(); }
  /// True when the box or the slab clips.
  bool hasRegion() const { return box.has_value() || slab.has_value(); }
};

/// Throws InputError naming the value when the box is inverted or not finite, or the slab has a
/// zero or non-finite normal or a thickness that is not positive.
void validateClipSettings(const ClipSettings& clip);

}  // namespace pcv
