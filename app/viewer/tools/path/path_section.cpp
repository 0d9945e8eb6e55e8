// The sidebar's Camera path section (keys from views or bookmarks, play/pause/loop at a speed,
// the position slider, save/load of the JSON file) and the path drawn over the scene.
#include <imgui.h>

#include <cstdio>

#include "viewer/tools/overlay_label.hpp"
#include "viewer/tools/text_field.hpp"
#include "viewer/tools/path/path_section.hpp"

namespace pcv::app {
namespace {

constexpr ImU32 kPathColor = IM_COL32(255, 140, 60, 255);
/// Line segments per path segment drawn over the scene: smooth at any window size.
constexpr int kOverlaySteps = 24;

void drawKeys(const PathPlayer& player, PathRequests& requests) {
  if (ImGui::Button("Add view")) requests.addView = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The current view as the path's last key");
  ImGui::SameLine();
  if (ImGui::Button("From bookmarks")) requests.fromBookmarks = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The scene's bookmarks as the keys, in order");
  ImGui::SameLine();
  if (ImGui::Button("Clear")) requests.clear = true;
  const std::vector<CameraKey>& keys = player.keys();
  for (size_t i = 0; i < keys.size(); ++i) {
    ImGui::PushID(int(i));
    if (ImGui::SmallButton("Go")) requests.goToKey = i;
    ImGui::SameLine();
    if (ImGui::SmallButton("x")) requests.removeKey = i;
    ImGui::SameLine();
    // Short enough for the sidebar: the angles are in the tooltip.
    ImGui::Text("%zu: %.7g, %.7g, %.7g", i + 1, keys[i].eye.x, keys[i].eye.y, keys[i].eye.z);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("yaw %.2f, pitch %.2f degrees", keys[i].yawDegrees, keys[i].pitchDegrees);
    }
    ImGui::PopID();
  }
}

void drawPlayback(const PathPlayer& player, PathRequests& requests) {
  const CameraPath* path = player.path();
  ImGui::BeginDisabled(player.keys().size() < 2);
  if (ImGui::Button(player.playing() ? "Pause" : "Play")) requests.play = !player.playing();
  ImGui::EndDisabled();
  ImGui::SameLine();
  bool loop = player.looping();
  if (ImGui::Checkbox("Loop", &loop)) requests.loop = loop;
  ImGui::SameLine();
  float speed = float(player.speed());
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  if (ImGui::SliderFloat("Speed", &speed, 0.05f, 20.0f, "%.2fx", ImGuiSliderFlags_Logarithmic)) {
    requests.speed = speed;
  }
  if (!path) return;
  float position = float(player.position());
  char label[48];
  std::snprintf(label, sizeof label, "%%.2f of %.2f s", path->durationSeconds());
  ImGui::SetNextItemWidth(-1.0f);
  if (ImGui::SliderFloat("##position", &position, 0.0f, float(path->durationSeconds()), label)) {
    requests.seek = position;
  }
}

void drawFile(PathPanel& panel, PathRequests& requests) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 11);
  inputString("##pathfile", panel.file);
  ImGui::SameLine();
  if (ImGui::Button("Save")) requests.save = true;
  ImGui::SameLine();
  if (ImGui::Button("Load")) requests.load = true;
  ImGui::Checkbox("Show the path", &panel.showPath);
  if (!panel.message.empty()) ImGui::TextWrapped("%s", panel.message.c_str());
}

}  // namespace

void drawPathSection(const PathPlayer& player, PathPanel& panel, PathRequests& requests) {
  drawKeys(player, requests);
  drawPlayback(player, requests);
  drawFile(panel, requests);
  ImGui::TextDisabled("pcv render --path FILE --out movie.mp4");
}

void drawPathOverlay(const PathPlayer& player, const ScreenProjector& projector) {
  const CameraPath* path = player.path();
  if (!path) return;
  ImDrawList& draw = *ImGui::GetBackgroundDrawList();
  const float thickness = 2.0f * ImGui::GetIO().FontGlobalScale;
  const std::vector<double>& times = path->keyTimes();
  for (size_t segment = 0; segment + 1 < times.size(); ++segment) {
    glm::dvec3 last = path->keys()[segment].eye;
    for (int step = 1; step <= kOverlaySteps; ++step) {
      const double t =
          times[segment] + (times[segment + 1] - times[segment]) * step / kOverlaySteps;
      const glm::dvec3 eye = path->at(t).eye;
      if (const auto screen = projector.segment(last, eye)) {
        draw.AddLine(imVec(screen->first), imVec(screen->second), kPathColor, thickness);
      }
      last = eye;
    }
  }
  for (size_t i = 0; i < path->keys().size(); ++i) {
    const auto at = projector.toWindow(path->keys()[i].eye);
    if (!at) continue;
    draw.AddCircleFilled(imVec(*at), 4.0f * ImGui::GetIO().FontGlobalScale, kPathColor);
    drawLabel(draw, *at, std::to_string(i + 1).c_str(), kPathColor);
  }
}

}  // namespace pcv::app
