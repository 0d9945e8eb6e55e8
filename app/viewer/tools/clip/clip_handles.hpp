/// @brief The Clip tool's handles in the view: a circle on each face of the box (drag it to move
/// that face along its axis), one at the box's centre (drag it to move the box in the view
/// plane) and one at the slab's centre (drag it along the slab's normal). GL-free: the overlay
/// draws them and the window routes drags here.
#pragma once

#include <vector>

#include <glm/glm.hpp>

#include "pcv/raster/clip_settings.hpp"
#include "viewer/tools/screen_projector.hpp"

namespace pcv::app {

enum class ClipHandle {
  None,
  BoxMinX,
  BoxMaxX,
  BoxMinY,
  BoxMaxY,
  BoxMinZ,
  BoxMaxZ,
  BoxCentre,
  SlabCentre,
};

struct ClipHandlePoint {
  ClipHandle handle;
  glm::dvec3 world;
};

/// The handles of the clip settings: six faces and the centre of the box, the slab's centre.
std::vector<ClipHandlePoint> clipHandles(const ClipSettings& clip);

/// The handle whose circle lies within `radiusPx` of `cursor` (window coordinates), the nearest
/// one; None when there is none.
ClipHandle handleAt(const ClipSettings& clip, const ScreenProjector& projector, glm::dvec2 cursor,
                    double radiusPx);

/// Moves `handle` by the cursor's motion from `from` to `to` (window coordinates): a face along
/// its axis by the motion's share along the axis on screen (never past the opposite face), the
/// box's centre in the view plane, the slab's centre along its normal.
void dragHandle(ClipSettings& clip, ClipHandle handle, const ScreenProjector& projector,
                glm::dvec2 from, glm::dvec2 to);

}  // namespace pcv::app
