// The "Data" window: the files shown and the one loading (progress, cancel), an Open field with
// the scan to read of multi-scan files, the colouring (mode, attribute, map, range), and world
// coordinates of the camera and picked point.
// Beside settings_panel.cpp rather than in it: it is the loaded data's concern, not the renderer's.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "viewer/viewer_window.hpp"

namespace pcv::app {
namespace {

/// A text field bound to a std::string (ImGui 1.86 edits char buffers).
bool inputPath(const char* label, std::string& text) {
  char buffer[4096];
  const size_t length = std::min(text.size(), sizeof buffer - 1);
  std::copy_n(text.data(), length, buffer);
  buffer[length] = '\0';
  const bool entered =
      ImGui::InputText(label, buffer, sizeof buffer, ImGuiInputTextFlags_EnterReturnsTrue);
  text = buffer;
  return entered;
}

}  // namespace

void ViewerWindow::drawDataPanel() {
  ImGui::SetNextWindowPos(ImVec2(10.0f, 400.0f * uiScale_), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Data", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  if (!haveCloud_) {
    ImGui::TextDisabled(loader_ ? "No points loaded yet" : "Cylinder scene (no file loaded)");
  } else {
    ImGui::Text("%llu points from %zu file(s)", static_cast<unsigned long long>(cloud_.size()),
                cloudFiles_.size());
    for (const std::string& file : cloudFiles_) {
      ImGui::BulletText("%s", std::filesystem::path(file).filename().string().c_str());
    }
  }
  if (loader_ && loader_->busy()) {
    const std::string current = loader_->currentFile();
    if (!current.empty()) {
      const std::string label = std::filesystem::path(current).filename().string();
      ImGui::ProgressBar(float(loader_->currentFraction()), ImVec2(ImGui::GetFontSize() * 16, 0),
                         label.c_str());
      ImGui::SameLine();
      if (ImGui::Button("Cancel")) loader_->cancel();
      if (const size_t queued = loader_->queuedFiles()) ImGui::Text("%zu more queued", queued);
    }
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  const bool entered = inputPath("##open", openPath_);
  ImGui::SameLine();
  if ((ImGui::Button("Open") || entered) && !openPath_.empty()) openFiles({openPath_}, true);
  ImGui::SameLine();
  if (ImGui::Button("Add") && !openPath_.empty()) openFiles({openPath_}, false);
  // Multi-scan files (E57): which scan Open and Add read; -1 merges every scan with its pose.
  int scan = readOptions_.scan ? int(*readOptions_.scan) : -1;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  if (ImGui::InputInt("Scan (E57, -1: all)", &scan)) {
    readOptions_.scan = scan < 0 ? std::nullopt : std::optional<uint32_t>(uint32_t(scan));
  }

  if (haveCloud_) {
    ImGui::Separator();
    drawColoringControls();
    ImGui::Separator();
    // World coordinates in double: the float offsets the renderer uses would show UTM
    // coordinates to the metre only.
    ImGui::Text("Camera (world): %.3f, %.3f, %.3f", camera_.eye.x, camera_.eye.y, camera_.eye.z);
    ImGui::Text("Origin:         %.3f, %.3f, %.3f", cloud_.origin.x, cloud_.origin.y,
                cloud_.origin.z);
    if (pickedIndex_ && *pickedIndex_ < cloud_.size()) {
      const Point& p = cloud_.points[*pickedIndex_];
      const glm::dvec3 world = cloud_.origin + glm::dvec3(p.x, p.y, p.z);
      ImGui::Text("Picked (world): %.3f, %.3f, %.3f", world.x, world.y, world.z);
      for (const ScalarAttribute& attribute : cloud_.attributes) {
        ImGui::Text("  %s: %g", attribute.name.c_str(), double(attribute.values[*pickedIndex_]));
      }
    } else {
      ImGui::TextDisabled("Double-click a point to pick it");
    }
  }
  ImGui::End();
}

void ViewerWindow::drawColoringControls() {
  // The choices: the fixed modes, then every scalar the cloud carries.
  std::string current =
      coloring_.mode == ColorMode::Attribute ? coloring_.attribute : colorModeName(coloring_.mode);
  bool changed = false;
  if (ImGui::BeginCombo("Colour", current.c_str())) {
    for (const std::string& name : colorModeNames()) {
      if (name == "attribute") continue;
      if (ImGui::Selectable(name.c_str(), name == current)) {
        coloring_.mode = parseColorMode(name);
        coloring_.attribute.clear();
        changed = true;
      }
    }
    ImGui::Separator();
    for (const std::string& name : colorableAttributes(cloud_)) {
      if (ImGui::Selectable(name.c_str(), name == current)) {
        coloring_.mode = ColorMode::Attribute;
        coloring_.attribute = name;
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  if (!usedColoring_.note.empty()) {
    ImGui::TextDisabled("%s: showing %s", usedColoring_.note.c_str(),
                        colorModeName(usedColoring_.mode).c_str());
  }
  if (!usedColoring_.attribute.empty()) {
    const std::string mapName = coloring_.map ? colorMapName(*coloring_.map) : "default";
    if (ImGui::BeginCombo("Map", mapName.c_str())) {
      if (ImGui::Selectable("default", !coloring_.map)) {
        coloring_.map.reset();
        changed = true;
      }
      for (const std::string& name : colorMapNames()) {
        if (ImGui::Selectable(name.c_str(), name == mapName)) {
          coloring_.map = parseColorMap(name);
          changed = true;
        }
      }
      ImGui::EndCombo();
    }
    bool automatic = !coloring_.range;
    if (ImGui::Checkbox("Auto range (2-98 %)", &automatic)) {
      if (automatic) {
        coloring_.range.reset();
      } else {
        coloring_.range = usedColoring_.range;  // start typing from what is shown
      }
      changed = true;
    }
    if (coloring_.range) {
      double bounds[2] = {coloring_.range->low, coloring_.range->high};
      if (ImGui::InputScalarN("Min, max", ImGuiDataType_Double, bounds, 2, nullptr, nullptr, "%.6g",
                              ImGuiInputTextFlags_EnterReturnsTrue) &&
          std::isfinite(bounds[0]) && std::isfinite(bounds[1]) && bounds[0] < bounds[1]) {
        coloring_.range = ValueRange{bounds[0], bounds[1]};
        changed = true;
      }
    }
  }
  if (changed) recolor();
}

void ViewerWindow::drawErrorWindow() {
  if (errors_.empty()) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(
      ImVec2(viewport->Pos.x + viewport->Size.x * 0.5f, viewport->Pos.y + viewport->Size.y * 0.3f),
      ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  // Not modal: the viewer stays usable with what it had while the message is up.
  if (ImGui::Begin("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
    for (const std::string& message : errors_) {
      ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", message.c_str());
    }
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Dismiss")) errors_.clear();
  }
  ImGui::End();
}

}  // namespace pcv::app
