// The sidebar's Data section: the files shown and the one loading (progress, cancel), an Open
// field with the scan to read of multi-scan files (files dropped on the window open too), the
// colouring (mode, attribute, map, range), and the picked point in world coordinates.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "viewer/panels/panels.hpp"

namespace pcv::app {
namespace {

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

void drawPicked(const SceneModel& scene) {
  const std::optional<PickedWorldPoint>& picked = scene.picked();
  if (!picked) {
    ImGui::TextDisabled("Double-click a point to pick it");
    return;
  }
  const glm::dvec3& world = picked->position;
  ImGui::TextWrapped("Picked (world): %.3f, %.3f, %.3f", world.x, world.y, world.z);
  const PointCloud& cloud = scene.parts().inCore.cloud();
  const std::optional<uint64_t> index = picked->inCoreIndex;
  if (!index || *index >= cloud.size()) return;
  for (const ScalarAttribute& attribute : cloud.attributes) {
    // Wide values (GPS time at 3e8 s) with every digit they keep.
    ImGui::Text("  %s: %.*g", attribute.name.c_str(), attribute.wide() ? 17 : 7,
                attribute.value(*index));
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
  ColoringOptions coloring = scene.coloring().asked;
  const Coloring& used = scene.coloring().used;
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
    for (const std::string& name : scene.parts().colorableAttributes()) {
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

void drawDataSection(PanelContext& context, PanelRequests& requests) {
  SceneModel& scene = context.scene;
  std::string& openPath = context.openPath;
  const SceneParts& parts = scene.parts();
  if (!parts.holdsFiles()) {
    ImGui::TextDisabled(scene.loader() ? "No points loaded yet"
                                       : "Cylinder scene (no file loaded)");
  } else {
    // A stream and the files read whole beside it, each with its own Close.
    if (const StreamPart* streamed = parts.stream.get()) {
      if (streamed->tiles()) {
        ImGui::TextWrapped("%s", streamed->path().c_str());
        drawDatasetList(scene, *streamed, context.datasetList, requests);
      } else {
        ImGui::Text("%llu points, streamed from the octree",
                    static_cast<unsigned long long>(streamed->pointCount()));
        ImGui::BulletText("%s",
                          std::filesystem::path(streamed->path()).filename().string().c_str());
      }
      if (!parts.inCore.files().empty() && ImGui::SmallButton("Close stream")) scene.closeStream();
    }
    if (!parts.inCore.files().empty()) {
      ImGui::Text("%llu points from %zu file(s)",
                  static_cast<unsigned long long>(parts.inCore.cloud().size()),
                  parts.inCore.files().size());
      for (const std::string& file : parts.inCore.files()) {
        ImGui::BulletText("%s", std::filesystem::path(file).filename().string().c_str());
      }
      if (parts.stream && ImGui::SmallButton("Remove files")) scene.removeFiles();
    }
  }
  for (const std::string& warning : context.fileWarnings) {
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%s", warning.c_str());
  }
  drawLoading(scene.loader());
  if (const SceneOpening* opening = scene.opening()) {
    // The headers, hierarchies and overview are read on a thread; the window draws meanwhile.
    ImGui::TextWrapped("Opening %s: tile headers and overview, %.1f s", opening->label().c_str(),
                       opening->seconds());
  }
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 7.5f);
  const bool entered = inputString("##open", openPath);
  ImGui::SameLine();
  if ((ImGui::Button("Open") || entered) && !openPath.empty()) {
    requests.open = OpenRequest{openPath, true};
  }
  ImGui::SameLine();
  if (ImGui::Button("Add") && !openPath.empty()) requests.open = OpenRequest{openPath, false};
  ImGui::TextDisabled("Or drop files on the window (Shift adds)");
  // Multi-scan files (E57): which scan Open and Add read; -1 merges every scan with its pose.
  int scan = context.openOptions.scan ? int(*context.openOptions.scan) : -1;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  if (ImGui::InputInt("Scan (E57, -1: all)", &scan)) {
    context.openOptions.scan = scan < 0 ? std::nullopt : std::optional<uint32_t>(uint32_t(scan));
  }
  if (parts.holdsFiles()) {
    ImGui::Separator();
    drawColoringControls(scene);
  }
  ImGui::Separator();
  drawPicked(scene);
}

}  // namespace pcv::app
