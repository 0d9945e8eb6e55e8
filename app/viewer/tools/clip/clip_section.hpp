/// @brief The Clip tool's ImGui drawing: its sidebar section with the state it keeps between
/// frames, and the box and handles it draws over the scene. The tool calls them; they edit the
/// clip settings they are given and act on nothing else.
#pragma once

#include "pcv/core/camera.hpp"
#include "pcv/raster/clip_settings.hpp"
#include "pcv/session/scene_model.hpp"
#include "viewer/tools/clip/clip_handles.hpp"
#include "viewer/tools/screen_projector.hpp"

namespace pcv::app {

/// How the Clip section's slab is oriented.
enum class SlabOrientation { AlongX, AlongY, AlongZ, AlongView };

/// The Clip section's own state.
struct ClipPanel {
  bool showHandles = true;  ///< draw the box's handles and let them be dragged
  SlabOrientation slabOrientation = SlabOrientation::AlongView;
};

/// The Clip section: a box (typed corners, fitted to the scene) and a slab, edited in `clip`.
void drawClipSection(ClipSettings& clip, ClipPanel& panel, const SceneModel& scene,
                     const Camera& camera);
/// The clip box's edges and its handles (`hovered` highlighted).
void drawClipOverlay(const ClipSettings& clip, const ClipPanel& panel,
                     const ScreenProjector& projector, ClipHandle hovered);

}  // namespace pcv::app
