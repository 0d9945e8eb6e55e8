// The sidebar's Camera section: the mode, where the camera is, the up axis, Home, "Copy view"
// (the pcv render command of this view) and the bookmarks of the scene shown.
#include <imgui.h>

#include <algorithm>

#include "viewer/panels/panels.hpp"
#include "viewer/panels/tool_panels.hpp"

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

}  // namespace pcv::app
