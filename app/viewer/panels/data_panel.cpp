// The "Data" window: the files shown and the one loading (progress, cancel), an Open field with
// the scan to read of multi-scan files, the colouring (mode, attribute, map, range), and world
// coordinates of the camera and picked point.
// Beside settings_panel.cpp rather than in it: it is the loaded data's concern, not the renderer's.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "viewer/panels/panels.hpp"

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

void drawLoading(CloudLoader* loader) {
  if (!loader || !loader->busy()) return;
  const std::string current = loader->currentFile();
  if (current.empty()) return;
  const std::string label = std::filesystem::path(current).filename().string();
  ImGui::ProgressBar(float(loader->currentFraction()), ImVec2(ImGui::GetFontSize() * 16, 0),
                     label.c_str());
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) loader->cancel();
  if (const size_t queued = loader->queuedFiles()) ImGui::Text("%zu more queued", queued);
}

void drawPicked(const SceneModel& scene, const Camera& camera) {
  const PointCloud& cloud = scene.cloud();
  // World coordinates in double: the float offsets the renderer uses would show UTM
  // coordinates to the metre only.
  ImGui::Text("Camera (world): %.3f, %.3f, %.3f", camera.eye.x, camera.eye.y, camera.eye.z);
  ImGui::Text("Origin:         %.3f, %.3f, %.3f", cloud.origin.x, cloud.origin.y, cloud.origin.z);
  const std::optional<uint64_t> picked = scene.pickedIndex();
  if (!picked || *picked >= cloud.size()) {
    ImGui::TextDisabled("Double-click a point to pick it");
    return;
  }
  const Point& p = cloud.points[*picked];
  const glm::dvec3 world = cloud.origin + glm::dvec3(p.x, p.y, p.z);
  ImGui::Text("Picked (world): %.3f, %.3f, %.3f", world.x, world.y, world.z);
  for (const ScalarAttribute& attribute : cloud.attributes) {
    ImGui::Text("  %s: %g", attribute.name.c_str(), double(attribute.values[*picked]));
  }
}

/// The colour map and range of scalar modes; true when they changed.
bool drawMapAndRange(const Coloring& used, ColoringOptions& coloring) {
  bool changed = false;
  const std::string mapName = coloring.map ? colorMapName(*coloring.map) : "default";
  if (ImGui::BeginCombo("Map", mapName.c_str())) {
    if (ImGui::Selectable("default", !coloring.map)) {
      coloring.map.reset();
      changed = true;
    }
    for (const std::string& name : colorMapNames()) {
      if (ImGui::Selectable(name.c_str(), name == mapName)) {
        coloring.map = parseColorMap(name);
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  bool automatic = !coloring.range;
  if (ImGui::Checkbox("Auto range (2-98 %)", &automatic)) {
    if (automatic) {
      coloring.range.reset();
    } else {
      coloring.range = used.range;  // start typing from what is shown
    }
    changed = true;
  }
  if (coloring.range) {
    double bounds[2] = {coloring.range->low, coloring.range->high};
    if (ImGui::InputScalarN("Min, max", ImGuiDataType_Double, bounds, 2, nullptr, nullptr, "%.6g",
                            ImGuiInputTextFlags_EnterReturnsTrue) &&
        std::isfinite(bounds[0]) && std::isfinite(bounds[1]) && bounds[0] < bounds[1]) {
      coloring.range = ValueRange{bounds[0], bounds[1]};
      changed = true;
    }
  }
  return changed;
}

void drawColoringControls(SceneModel& scene) {
  ColoringOptions coloring = scene.coloring();
  const Coloring& used = scene.usedColoring();
  // The choices: the fixed modes, then every scalar the cloud carries.
  const std::string current =
      coloring.mode == ColorMode::Attribute ? coloring.attribute : colorModeName(coloring.mode);
  bool changed = false;
  if (ImGui::BeginCombo("Colour", current.c_str())) {
    for (const std::string& name : colorModeNames()) {
      if (name == "attribute") continue;
      if (ImGui::Selectable(name.c_str(), name == current)) {
        coloring.mode = parseColorMode(name);
        coloring.attribute.clear();
        changed = true;
      }
    }
    ImGui::Separator();
    for (const std::string& name : colorableAttributes(scene.cloud())) {
      if (ImGui::Selectable(name.c_str(), name == current)) {
        coloring.mode = ColorMode::Attribute;
        coloring.attribute = name;
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  if (!used.note.empty()) {
    ImGui::TextDisabled("%s: showing %s", used.note.c_str(), colorModeName(used.mode).c_str());
  }
  if (!used.attribute.empty()) changed = drawMapAndRange(used, coloring) || changed;
  if (changed) scene.setColoring(coloring);
}

}  // namespace

std::optional<OpenRequest> drawDataPanel(SceneModel& scene, const Camera& camera,
                                         std::string& openPath, ReadOptions& openOptions,
                                         float uiScale) {
  ImGui::SetNextWindowPos(ImVec2(10.0f, 400.0f * uiScale), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Data", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return std::nullopt;
  }
  if (!scene.hasCloud()) {
    ImGui::TextDisabled(scene.loader() ? "No points loaded yet"
                                       : "Cylinder scene (no file loaded)");
  } else {
    ImGui::Text("%llu points from %zu file(s)",
                static_cast<unsigned long long>(scene.cloud().size()), scene.files().size());
    for (const std::string& file : scene.files()) {
      ImGui::BulletText("%s", std::filesystem::path(file).filename().string().c_str());
    }
  }
  for (const std::string& warning : scene.warnings()) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%s", warning.c_str());
    ImGui::PopTextWrapPos();
  }
  drawLoading(scene.loader());
  std::optional<OpenRequest> request;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  const bool entered = inputPath("##open", openPath);
  ImGui::SameLine();
  if ((ImGui::Button("Open") || entered) && !openPath.empty())
    request = OpenRequest{openPath, true};
  ImGui::SameLine();
  if (ImGui::Button("Add") && !openPath.empty()) request = OpenRequest{openPath, false};
  // Multi-scan files (E57): which scan Open and Add read; -1 merges every scan with its pose.
  int scan = openOptions.scan ? int(*openOptions.scan) : -1;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  if (ImGui::InputInt("Scan (E57, -1: all)", &scan)) {
    openOptions.scan = scan < 0 ? std::nullopt : std::optional<uint32_t>(uint32_t(scan));
  }
  if (scene.hasCloud()) {
    ImGui::Separator();
    drawColoringControls(scene);
    ImGui::Separator();
    drawPicked(scene, camera);
  }
  ImGui::End();
  return request;
}

void drawErrorWindow(std::vector<std::string>& errors) {
  if (errors.empty()) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(
      ImVec2(viewport->Pos.x + viewport->Size.x * 0.5f, viewport->Pos.y + viewport->Size.y * 0.3f),
      ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  // Not modal: the viewer stays usable with what it had while the message is up.
  if (ImGui::Begin("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
    for (const std::string& message : errors) {
      ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", message.c_str());
    }
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Dismiss")) errors.clear();
  }
  ImGui::End();
}

}  // namespace pcv::app
