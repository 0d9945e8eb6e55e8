// The Filters section: classes present (or the ASPRS standard ones for a stream) each with a
// toggle, its name and count; the return choice; one attribute's range; Export selection.
#include "viewer/tools/filter/filter_section.hpp"

#include <imgui.h>

#include <cstdio>

#include "pcv/core/number_text.hpp"
#include "viewer/tools/selection_export_row.hpp"
#include "viewer/tools/text_field.hpp"

namespace pcv::app {
namespace {

/// ASPRS codes shown for a stream, whose classes are not counted: the standard ones.
constexpr uint32_t kStandardClasses = 23;

void drawClassLegend(PointFilter& filter, const FilterPanel& panel) {
  ImGui::TextUnformatted("Classes");
  ImGui::SameLine();
  if (ImGui::SmallButton("All")) filter.classes = ClassSet{};
  ImGui::SameLine();
  if (ImGui::SmallButton("None")) filter.classes = ClassSet::none();
  for (uint32_t code = 0; code < 256; ++code) {
    const uint64_t count = panel.classCounts[code];
    const bool listed = panel.countsKnown ? count > 0 : code < kStandardClasses;
    if (!listed) continue;
    bool kept = filter.classes.contains(code);
    char label[96];
    if (panel.countsKnown) {
      std::snprintf(label, sizeof label, "%3u %s (%s)##class%u", code, asprsClassName(code).c_str(),
                    countText(count).c_str(), code);
    } else {
      std::snprintf(label, sizeof label, "%3u %s##class%u", code, asprsClassName(code).c_str(),
                    code);
    }
    if (ImGui::Checkbox(label, &kept)) filter.classes.set(code, kept);
  }
  if (panel.countsKnown && panel.classCounts == std::array<uint64_t, 256>{}) {
    ImGui::TextDisabled("the points carry no classification");
  }
}

void drawReturnChoice(PointFilter& filter) {
  static const char* const kChoices[] = {"any", "first", "last", "only (single)", "number"};
  int choice = int(filter.returns);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::Combo("Returns", &choice, kChoices, IM_ARRAYSIZE(kChoices))) {
    filter.returns = ReturnChoice(choice);
    if (filter.returns == ReturnChoice::Number && filter.returnNumber == 0) filter.returnNumber = 1;
  }
  if (filter.returns == ReturnChoice::Number) {
    int number = int(filter.returnNumber);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ImGui::SliderInt("Return number", &number, 1, 15)) filter.returnNumber = uint32_t(number);
  }
}

std::optional<std::string> drawRange(PointFilter& filter, const FilterPanel& panel) {
  std::optional<std::string> chosen;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::BeginCombo("Range of",
                        panel.rangeAttribute.empty() ? "(none)" : panel.rangeAttribute.c_str())) {
    if (ImGui::Selectable("(none)", panel.rangeAttribute.empty())) chosen = std::string();
    for (const std::string& name : panel.attributes) {
      if (ImGui::Selectable(name.c_str(), name == panel.rangeAttribute)) chosen = name;
    }
    ImGui::EndCombo();
  }
  if (!filter.ranges.empty() && panel.rangeHigh >= panel.rangeLow) {
    AttributeRange& range = filter.ranges.front();
    float low = float(range.min), high = float(range.max);
    const float speed = float(panel.rangeHigh - panel.rangeLow) / 500.0f;
    if (ImGui::DragFloatRange2("##range", &low, &high, speed > 0 ? speed : 0.01f,
                               float(panel.rangeLow), float(panel.rangeHigh), "%.6g", "%.6g",
                               ImGuiSliderFlags_AlwaysClamp)) {
      range.min = low;
      range.max = high;
    }
  }
  return chosen;
}

}  // namespace

FilterSectionActions drawFilterSection(PointFilter& filter, FilterPanel& panel,
                                       const CopcWriteProgress* progress,
                                       const std::string& outcome) {
  FilterSectionActions actions;
  drawClassLegend(filter, panel);
  ImGui::Separator();
  drawReturnChoice(filter);
  actions.rangeAttribute = drawRange(filter, panel);
  if (filter.active() && ImGui::Button("Clear filters")) {
    filter = {};
    actions.rangeAttribute = std::string();
  }
  ImGui::Separator();
  SelectionExportActions exportRow;
  drawSelectionExportRow(panel.exportPath, progress, outcome, exportRow);
  actions.exportTo = exportRow.exportTo;
  actions.cancelExport = exportRow.cancelExport;
  return actions;
}

}  // namespace pcv::app
