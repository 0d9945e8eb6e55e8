// The sidebar's Clip section: a box (typed corners, fitted to the scene, or dragged by its
// handles in the view) and a slab across an axis or the view direction, keeping what is inside
// them or cutting it away. It edits RenderSettings::clip, which the renderer reads.
#include <imgui.h>

#include <algorithm>

#include "viewer/tools/clip/clip_section.hpp"
#include "viewer/tools/clip/clip_field_text.hpp"
#include "viewer/tools/clip/clip_start_box.hpp"

namespace pcv::app {
namespace {

/// The scene's bounds, or a unit box around the origin when nothing is shown.
Box3d sceneBox(const SceneModel& scene) {
  Box3d box = scene.shownBounds();
  if (box.empty()) box = Box3d{glm::dvec3(-1.0), glm::dvec3(1.0)};
  return box;
}

/// The box's corners, one row per axis (min and max), each field as wide as the box's widest
/// coordinate needs: UTM coordinates show and edit to the millimetre, not cut at the decimal point.
void drawBoxCorners(ClipSettings& clip) {
  ClipBox edited = *clip.box;
  const ImGuiStyle& style = ImGui::GetStyle();
  // One character more than the widest: room for a digit typed in front while editing.
  const float fieldWidth = ImGui::CalcTextSize((widestClipFieldText(edited) + "0").c_str()).x +
                           2.0f * style.FramePadding.x;
  ImGui::TextDisabled("min / max");
  // Typed corners apply on Enter; a corner typed past the other one is not taken.
  bool entered = false;
  const char* axes[] = {"x", "y", "z"};
  for (int axis = 0; axis < 3; ++axis) {
    ImGui::PushID(axis);
    ImGui::AlignTextToFramePadding();  // the axis' name level with its fields' text
    ImGui::TextUnformatted(axes[axis]);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fieldWidth);
    entered |= ImGui::InputDouble("##min", &edited.min[axis], 0.0, 0.0, kClipFieldFormat,
                                  ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fieldWidth);
    entered |= ImGui::InputDouble("##max", &edited.max[axis], 0.0, 0.0, kClipFieldFormat,
                                  ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::PopID();
  }
  if (entered && edited.min.x <= edited.max.x && edited.min.y <= edited.max.y &&
      edited.min.z <= edited.max.z) {
    clip.box = edited;
  }
}

void drawBox(ClipSettings& clip, ClipPanel& panel, const Box3d& scene, const Camera& camera) {
  bool on = clip.box.has_value();
  if (ImGui::Checkbox("Box (X)", &on)) {
    if (on) {
      clip.box = startingClipBox(scene, camera);  // in a plan view, the whole height
    } else {
      clip.box.reset();
    }
  }
  if (!clip.box) return;
  ImGui::SameLine();
  ImGui::Checkbox("Handles", &panel.showHandles);
  ImGui::SameLine();
  if (ImGui::SmallButton("Fit to scene")) clip.box = ClipBox{scene.min, scene.max};
  drawBoxCorners(clip);
  if (panel.showHandles)
    ImGui::TextDisabled("Drag a face's circle to move it, the centre's to move the box");
}

glm::dvec3 normalOf(SlabOrientation orientation, const Camera& camera) {
  switch (orientation) {
    case SlabOrientation::AlongX:
      return {1.0, 0.0, 0.0};
    case SlabOrientation::AlongY:
      return {0.0, 1.0, 0.0};
    case SlabOrientation::AlongZ:
      return {0.0, 0.0, 1.0};
    case SlabOrientation::AlongView:
      break;
  }
  return camera.forward();
}

void drawSlab(ClipSettings& clip, ClipPanel& panel, const Box3d& scene, const Camera& camera) {
  bool on = clip.slab.has_value();
  if (ImGui::Checkbox("Slab", &on)) {
    if (on) {
      clip.slab = ClipSlab{.normal = normalOf(panel.slabOrientation, camera),
                           .centre = scene.center(),
                           .thickness = std::max(0.05 * glm::length(scene.size()), 1e-6)};
    } else {
      clip.slab.reset();
    }
  }
  if (!clip.slab) return;
  ClipSlab& slab = *clip.slab;
  int orientation = int(panel.slabOrientation);
  const char* names[] = {"X", "Y", "Z", "View"};
  for (int k = 0; k < 4; ++k) {
    ImGui::SameLine();
    ImGui::RadioButton(names[k], &orientation, k);
  }
  if (orientation != int(panel.slabOrientation)) {
    panel.slabOrientation = SlabOrientation(orientation);
    slab.normal = normalOf(panel.slabOrientation, camera);
  }
  if (panel.slabOrientation == SlabOrientation::AlongView && ImGui::SmallButton("Align to view")) {
    slab.normal = camera.forward();
  }
  // Where the slab lies along its normal, and how thick it is, dragged or typed.
  const glm::dvec3 normal = glm::normalize(slab.normal);
  double position = glm::dot(slab.centre, normal);
  const double step = std::max(glm::length(scene.size()) * 1e-3, 1e-6);
  if (ImGui::DragScalar("Position", ImGuiDataType_Double, &position, float(step), nullptr, nullptr,
                        kClipFieldFormat)) {
    slab.centre += normal * (position - glm::dot(slab.centre, normal));
  }
  const double thinnest = 1e-6;
  ImGui::DragScalar("Thickness", ImGuiDataType_Double, &slab.thickness, float(step), &thinnest,
                    nullptr, "%.3f");
  slab.thickness = std::max(slab.thickness, thinnest);
}

}  // namespace

void drawClipSection(ClipSettings& clip, ClipPanel& panel, const SceneModel& scene,
                     const Camera& camera) {
  const Box3d box = sceneBox(scene);
  drawBox(clip, panel, box, camera);
  drawSlab(clip, panel, box, camera);
  if (!clip.active()) return;
  int keep = clip.keep == ClipKeep::Inside ? 0 : 1;
  ImGui::RadioButton("Show inside", &keep, 0);
  ImGui::SameLine();
  ImGui::RadioButton("Cut away", &keep, 1);
  clip.keep = keep == 0 ? ClipKeep::Inside : ClipKeep::Outside;
}

}  // namespace pcv::app
