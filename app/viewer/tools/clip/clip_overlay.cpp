// What the Clip tool draws over the scene, on ImGui's background draw list: the box's edges and
// the handles, the one under the cursor highlighted.
#include <imgui.h>

#include "viewer/tools/overlay_label.hpp"
#include "viewer/tools/clip/clip_section.hpp"

namespace pcv::app {
namespace {

constexpr ImU32 kClipColor = IM_COL32(90, 200, 255, 220);
constexpr ImU32 kHoveredColor = IM_COL32(255, 255, 255, 255);

}  // namespace

void drawClipOverlay(const ClipSettings& clip, const ClipPanel& panel,
                     const ScreenProjector& projector, ClipHandle hovered) {
  ImDrawList& draw = *ImGui::GetBackgroundDrawList();  // behind every window
  if (clip.box) {
    const glm::dvec3 corners[2] = {clip.box->min, clip.box->max};
    auto corner = [&](int bits) {
      return glm::dvec3(corners[bits & 1].x, corners[(bits >> 1) & 1].y, corners[bits >> 2].z);
    };
    for (int bits = 0; bits < 8; ++bits) {
      for (int axis = 0; axis < 3; ++axis) {
        if (bits & (1 << axis)) continue;  // each edge once, from its lower corner
        if (const auto s = projector.segment(corner(bits), corner(bits | (1 << axis)))) {
          draw.AddLine(imVec(s->first), imVec(s->second), kClipColor, 1.5f);
        }
      }
    }
  }
  if (!panel.showHandles) return;
  for (const ClipHandlePoint& h : clipHandles(clip)) {
    const auto at = projector.toWindow(h.world);
    if (!at) continue;
    const bool isHovered = h.handle == hovered;
    const float radius = (isHovered ? 8.0f : 6.0f) * ImGui::GetIO().FontGlobalScale;
    draw.AddCircleFilled(imVec(*at), radius, isHovered ? kHoveredColor : kClipColor);
    draw.AddCircle(imVec(*at), radius, IM_COL32(0, 0, 0, 200));
  }
}

}  // namespace pcv::app
