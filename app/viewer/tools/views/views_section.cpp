// The sidebar's Camera section: the mode, where the camera is, the up axis, Home, "Copy view"
// (the pcv render command of this view) and the bookmarks of the scene shown.
#include <imgui.h>

#include <algorithm>

#include "pcv/core/scale_bar.hpp"
#include "viewer/tools/overlay_label.hpp"
#include "viewer/tools/text_field.hpp"
#include "viewer/tools/views/views_section.hpp"

namespace pcv::app {
namespace {

void drawModeAndPosition(const CameraRig& rig, ViewsRequests& requests) {
  const Camera& camera = rig.camera();
  int mode = rig.mode() == CameraMode::Fly ? 0 : 1;
  ImGui::RadioButton("Fly", &mode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("Orbit", &mode, 1);
  ImGui::SameLine();
  ImGui::TextDisabled("(Tab)");
  const CameraMode chosen = mode == 0 ? CameraMode::Fly : CameraMode::Orbit;
  if (chosen != rig.mode()) requests.mode = chosen;
  // World coordinates in double: the float offsets the renderer uses would show UTM
  // coordinates to the metre only.
  ImGui::TextWrapped("Eye: %.3f, %.3f, %.3f", camera.eye.x, camera.eye.y, camera.eye.z);
  ImGui::TextWrapped(
      "Yaw %.1f, pitch %.1f deg; near %.3g, far %.3g", glm::degrees(double(camera.yawRadians)),
      glm::degrees(double(camera.pitchRadians)), double(camera.nearPlane), double(camera.farPlane));
  if (rig.mode() == CameraMode::Fly) {
    ImGui::Text("Speed: %.3g units/s (wheel)", rig.flySpeed());
    ImGui::TextDisabled(rig.mouselook() ? "Mouselook on (Escape releases)"
                                        : "WASD, E/Q; Escape: mouselook");
  } else {
    const glm::dvec3& target = rig.orbit().target();
    ImGui::TextWrapped("Target: %.3f, %.3f, %.3f", target.x, target.y, target.z);
    ImGui::TextDisabled("Drag: orbit; right drag: pan; wheel: zoom");
  }
}

void drawViewTools(const Camera& camera, ViewsPanel& views, ViewsRequests& requests) {
  int up = camera.upAxis == UpAxis::Z ? 0 : 1;
  ImGui::Text("Up axis:");
  ImGui::SameLine();
  ImGui::RadioButton("Z", &up, 0);
  ImGui::SameLine();
  ImGui::RadioButton("Y", &up, 1);
  const UpAxis chosen = up == 0 ? UpAxis::Z : UpAxis::Y;
  if (chosen != camera.upAxis) requests.upAxis = chosen;
  ImGui::Text("View:");
  int projection = views.projection;
  for (const auto& [value, name] : {std::pair{0, "Persp."}, std::pair{1, "Plan"},
                                    std::pair{2, "Front"}, std::pair{3, "Side"}}) {
    ImGui::SameLine();
    ImGui::RadioButton(name, &projection, value);
  }
  if (projection != views.projection) requests.projection = projection;
  if (camera.orthographic()) {
    ImGui::TextDisabled("Orthographic, %.4g units across (wheel in orbit zooms)",
                        camera.orthoWidth);
  }
  if (ImGui::Button("Home")) requests.home = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Frame the scene again (Home key)");
  ImGui::SameLine();
  if (ImGui::Button("Copy view")) requests.copyView = true;
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("The pcv render command of this view, to the clipboard and stdout (C)");
  }
  if (!views.copiedView.empty()) ImGui::TextWrapped("%s", views.copiedView.c_str());
}

void drawBookmarks(ViewsPanel& views, ViewsRequests& requests) {
  ImGui::TextUnformatted("Bookmarks (B saves one):");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
  const bool entered = inputString("##bookmark", views.bookmarkName);
  ImGui::SameLine();
  if ((ImGui::Button("Save") || entered) && !views.bookmarkName.empty()) {
    requests.saveBookmark = views.bookmarkName;
  }
  for (const Bookmark& bookmark : views.bookmarks) {
    ImGui::PushID(bookmark.name.c_str());
    if (ImGui::Button("Go")) requests.restoreBookmark = bookmark.name;
    ImGui::SameLine();
    if (ImGui::Button("Delete")) requests.deleteBookmark = bookmark.name;
    ImGui::SameLine();
    ImGui::TextUnformatted(bookmark.name.c_str());
    ImGui::PopID();
  }
  if (!views.message.empty()) {
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%s", views.message.c_str());
  }
}

}  // namespace

void drawCameraSection(const CameraRig& rig, ViewsPanel& views, ViewsRequests& requests) {
  drawModeAndPosition(rig, requests);
  drawViewTools(rig.camera(), views, requests);
  drawBookmarks(views, requests);
}

void drawScaleBarOverlay(const ScreenProjector& projector, double windowWidth,
                         const LengthUnit& unit) {
  const Camera& camera = projector.camera();
  if (!camera.orthographic()) return;
  const double height = projector.windowHeight();
  const ScaleBar bar =
      scaleBarFor(camera.unitsPerPixel(0.0, height, windowWidth / std::max(height, 1.0)),
                  windowWidth / 5.0, unit);
  if (!(bar.lengthPx >= 1.0)) return;
  ImDrawList& draw = *ImGui::GetBackgroundDrawList();
  const float scale = ImGui::GetFontSize() / 13.0f;
  // Right of the sidebar's usual width, above the bottom edge.
  const ImVec2 start(float(windowWidth) - float(bar.lengthPx) - 24.0f * scale,
                     float(height) - 24.0f * scale);
  const ImVec2 end(start.x + float(bar.lengthPx), start.y);
  const ImU32 white = IM_COL32(255, 255, 255, 255), black = IM_COL32(0, 0, 0, 200);
  draw.AddLine(start, end, black, 5.0f * scale);
  draw.AddLine(start, end, white, 2.0f * scale);
  for (const ImVec2& tick : {start, end}) {
    draw.AddLine(ImVec2(tick.x, tick.y - 6.0f * scale), ImVec2(tick.x, tick.y + 2.0f * scale),
                 white, 2.0f * scale);
  }
  drawLabel(draw, glm::dvec2(0.5 * (start.x + end.x), start.y - 14.0 * scale), bar.label.c_str(),
            white);
}

}  // namespace pcv::app
