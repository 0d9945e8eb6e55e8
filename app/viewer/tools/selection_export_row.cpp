// The export row the Filters and Polygon sections share.
#include "viewer/tools/selection_export_row.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "pcv/core/number_text.hpp"
#include "viewer/tools/text_field.hpp"

namespace pcv::app {

void drawSelectionExportRow(std::string& path, const CopcWriteProgress* progress,
                            const std::string& outcome, SelectionExportActions& actions) {
  // What the clip region and the filters keep, at full resolution, from the files.
  if (progress) {
    const uint64_t total = std::max<uint64_t>(1, progress->pointsTotal.load());
    const uint64_t read = progress->pointsRead.load();
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%s written",
                  countText(progress->pointsWritten).c_str());
    ImGui::ProgressBar(float(double(std::min(read, total)) / double(total)),
                       ImVec2(ImGui::GetFontSize() * 12, 0), overlay);
    ImGui::SameLine();
    if (ImGui::Button("Cancel##export")) actions.cancelExport = true;
  } else {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    const bool entered = inputString("##exportPath", path);
    ImGui::SameLine();
    if (ImGui::Button("Export selection...") || entered) actions.exportTo = path;
    if (!outcome.empty()) ImGui::TextWrapped("%s", outcome.c_str());
  }
}

}  // namespace pcv::app
