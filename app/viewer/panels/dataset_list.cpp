// The Data section's part for a streamed dataset: its totals, the tile boxes' switch, and the
// list of its tiles with each one's state. The list draws only the rows in view (ImGui's list
// clipper), so each frame looks at a few dozen tiles' nodes however many tiles there are; the
// counts by state look at every tile a few times a second.
#include <imgui.h>

#include <filesystem>

#include "pcv/core/number_text.hpp"
#include "viewer/panels/panels.hpp"

namespace pcv::app {
namespace {

constexpr size_t kTileStates = size_t(TileState::Failed) + 1;
constexpr double kCountEverySeconds = 0.25;

ImVec4 stateColor(TileState state) {
  switch (state) {
    case TileState::OverviewOnly:
      return ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    case TileState::Loading:
      return ImVec4(1.0f, 0.8f, 0.3f, 1.0f);
    case TileState::Streaming:
      return ImVec4(0.5f, 0.8f, 1.0f, 1.0f);
    case TileState::Resident:
      return ImVec4(0.5f, 0.9f, 0.5f, 1.0f);
    case TileState::Failed:
      return ImVec4(1.0f, 0.45f, 0.4f, 1.0f);
  }
  return ImGui::GetStyleColorVec4(ImGuiCol_Text);
}

void countStates(const StreamPart& streamed, DatasetListState& list) {
  const double now = ImGui::GetTime();
  if (list.dataset == streamed.tiles() && now - list.countedAtSeconds < kCountEverySeconds) return;
  list.dataset = streamed.tiles();
  list.countedAtSeconds = now;
  list.stateCounts.assign(kTileStates, 0);
  for (size_t i = 0; i < streamed.tiles()->tiles.size(); ++i) {
    ++list.stateCounts[size_t(streamed.tileStatus(i).state)];
  }
}

}  // namespace

void drawDatasetList(SceneModel& scene, const StreamPart& streamed, DatasetListState& list,
                     PanelRequests& requests) {
  const TileSet& tiles = *streamed.tiles();
  ImGui::Text("%zu tiles, %s points", tiles.tiles.size(), countText(tiles.pointCount).c_str());
  ImGui::TextDisabled("%zu COPC, %zu LAZ, %zu LAS%s", tiles.count(TileFormat::Copc),
                      tiles.count(TileFormat::Laz), tiles.count(TileFormat::Las),
                      tiles.overviews.empty() ? "" : "; overview from the VPC");
  bool boxes = scene.parts().tileBoxesShown();
  if (ImGui::Checkbox("Tile boxes", &boxes)) scene.setTileBoxes(boxes);
  countStates(streamed, list);
  for (size_t state = 0; state < kTileStates; ++state) {
    if (list.stateCounts[state] == 0) continue;
    ImGui::SameLine();
    ImGui::TextColored(stateColor(TileState(state)), "%zu %s", list.stateCounts[state],
                       tileStateName(TileState(state)));
  }
  ImGui::TextDisabled("Click a tile to frame it");
  const float rowsHeight = ImGui::GetTextLineHeightWithSpacing() * 12.0f;
  if (ImGui::BeginChild("tiles", ImVec2(0.0f, rowsHeight), true)) {
    ImGuiListClipper clipper;
    clipper.Begin(int(tiles.tiles.size()));
    while (clipper.Step()) {
      for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
        const Tile& tile = tiles.tiles[size_t(row)];
        const TileStatus status = streamed.tileStatus(size_t(row));
        ImGui::PushID(row);
        const std::string name = std::filesystem::path(tile.path).filename().string();
        if (ImGui::Selectable(name.c_str(), false, ImGuiSelectableFlags_AllowItemOverlap)) {
          requests.frameTile = size_t(row);
        }
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip("%s\n%s, %s points%s%s", tile.path.c_str(), tileFormatName(tile.format),
                            countText(tile.pointCount).c_str(), status.error ? "\n" : "",
                            status.error ? status.error->c_str() : "");
        }
        ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::GetFontSize() * 7.0f);
        ImGui::TextColored(stateColor(status.state), "%s", tileStateName(status.state));
        ImGui::PopID();
      }
    }
  }
  ImGui::EndChild();
}

}  // namespace pcv::app
