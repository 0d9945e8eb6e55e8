// The Edit tool's sidebar section and what it draws over the view (the stroke, the brush).
#include "viewer/tools/edit/edit_tool.hpp"

#include <imgui.h>

#include <cstdio>
#include <string>

#include "pcv/core/point_filter.hpp"

namespace pcv::app {
namespace {

ImVec2 toImVec(glm::dvec2 p) {
  return ImVec2(float(p.x), float(p.y));
}

}  // namespace

void EditTool::drawSection() {
  ImGui::PushID("edit");
  int target = int(target_);
  ImGui::TextUnformatted("Select");
  ImGui::SameLine();
  if (ImGui::RadioButton("brush", &target, 0)) target_ = EditTarget::Brush;
  ImGui::SameLine();
  if (ImGui::RadioButton("all shown", &target, 1)) target_ = EditTarget::Shown;
  ImGui::SameLine();
  if (ImGui::RadioButton("profile line", &target, 2)) target_ = EditTarget::ProfileLine;
  if (target_ == EditTarget::Brush) {
    if (ImGui::Button(painting_ ? "Stop painting" : "Paint (K)")) setPainting(!painting_);
    ImGui::SameLine();
    float radius = float(radiusPx_);
    ImGui::SetNextItemWidth(110.0f);
    if (ImGui::SliderFloat("radius px", &radius, 1.0f, 200.0f, "%.0f")) radiusPx_ = radius;
    ImGui::TextWrapped(stroke_ ? "A stroke is selected: every point under it that the clip "
                                 "and filters draw."
                               : "Drag over the points to paint a stroke.");
  } else if (target_ == EditTarget::Shown) {
    ImGui::TextWrapped("Every point the clip region and the filters draw.");
  } else if (const std::optional<ProfileLineSelection>& line = host_.profileLine()) {
    ImGui::TextWrapped(
        "The profile's points %s its blue line (and in the clip region, passing "
        "the filters).",
        line->above() ? "above" : "below");
  } else {
    ImGui::TextWrapped(
        "Cut a profile, click two points in its window, then Select above or "
        "below.");
  }
  const std::string current = std::to_string(classChoice_) + " " + asprsClassName(classChoice_);
  ImGui::SetNextItemWidth(180.0f);
  if (ImGui::BeginCombo("class", current.c_str())) {
    for (int c = 0; c < 256; ++c) {
      const std::string label = std::to_string(c) + " " + asprsClassName(uint32_t(c));
      if (ImGui::Selectable(label.c_str(), c == classChoice_)) classChoice_ = c;
    }
    ImGui::EndCombo();
  }
  if (ImGui::Button("Set class")) act(EditAction::SetClass, uint32_t(classChoice_));
  ImGui::SameLine();
  if (ImGui::Button("Delete")) act(EditAction::Delete);
  ImGui::SameLine();
  if (ImGui::Button("Restore")) act(EditAction::Restore);
  ImGui::Checkbox("ground", &classifyGround_);
  ImGui::SameLine();
  ImGui::Checkbox("noise", &classifyNoise_);
  ImGui::SameLine();
  ImGui::BeginDisabled(!classifyGround_ && !classifyNoise_);
  if (ImGui::Button("Classify")) classify(classifyGround_, classifyNoise_);
  ImGui::EndDisabled();
  if (classifier_.running()) {
    ImGui::Text("Classifying: %llu of %zu files...",
                static_cast<unsigned long long>(classifier_.progress()), classifyingFiles_);
    ImGui::SameLine();
    if (ImGui::SmallButton("Cancel##classify")) classifier_.cancel();
  }
  ImGui::BeginDisabled(!history_.canUndo());
  if (ImGui::Button("Undo")) undo();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!history_.canRedo());
  if (ImGui::Button("Redo")) redo();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::Text("%zu edits, %zu undone", history_.applied().size(), history_.undone());
  if (saver_.running()) {
    ImGui::TextUnformatted("Saving...");
    ImGui::SameLine();
    if (ImGui::SmallButton("Cancel")) saver_.cancel();
  } else {
    ImGui::BeginDisabled(!history_.unsaved());
    if (ImGui::Button("Save")) startSave({.inPlace = true});
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(140.0f);
    char path[512];
    std::snprintf(path, sizeof(path), "%s", saveAsPath_.c_str());
    if (ImGui::InputText("##saveas", path, sizeof(path))) saveAsPath_ = path;
    ImGui::SameLine();
    if (ImGui::Button("Save as")) startSave({.out = saveAsPath_});
  }
  ImGui::SetNextItemWidth(140.0f);
  char log[512];
  std::snprintf(log, sizeof(log), "%s", logPath_.c_str());
  if (ImGui::InputText("##log", log, sizeof(log))) logPath_ = log;
  ImGui::SameLine();
  if (ImGui::Button("Write edit log")) writeLog(logPath_);
  if (lastSave_) ImGui::TextWrapped("%s", lastSave_->message.c_str());
  ImGui::PopID();
}

void EditTool::drawOverlay(const ScreenProjector& projector) {
  const std::vector<glm::dvec2>* dabs = nullptr;
  if (dragging_) {
    dabs = &dabs_;
  } else if (stroke_ && sameView(projector.camera(), strokeCamera_) &&
             glm::dvec2(projector.windowWidth(), projector.windowHeight()) == strokeWindow_) {
    dabs = &stroke_->dabs();  // in another view the stroke selects a cone, not a band
  }
  ImDrawList& draw = *ImGui::GetBackgroundDrawList();
  const ImU32 fill = IM_COL32(255, 200, 0, 60);
  if (dabs) {
    for (const glm::dvec2& dab : *dabs) draw.AddCircleFilled(toImVec(dab), float(radiusPx_), fill);
  }
  if (painting_) {
    const glm::dvec2 mouse(ImGui::GetIO().MousePos.x, ImGui::GetIO().MousePos.y);
    draw.AddCircle(toImVec(mouse), float(radiusPx_), IM_COL32(255, 200, 0, 220), 0, 1.5f);
  }
}

}  // namespace pcv::app
