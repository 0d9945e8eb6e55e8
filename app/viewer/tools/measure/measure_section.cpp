// The sidebar's Measure section: the kind measured, the points in progress, the list of
// measurements (each with Delete) and the export to CSV or JSON.
#include <imgui.h>

#include <algorithm>

#include "viewer/tools/measure/measure_section.hpp"
#include "viewer/tools/text_field.hpp"

namespace pcv::app {
namespace {

void drawKindChoice(MeasureState& measure) {
  int kind = int(measure.kind());
  const char* labels[] = {"Distance", "Polyline", "Height", "Area"};
  for (int k = 0; k < 4; ++k) {
    if (k % 2) ImGui::SameLine();
    char label[32];
    std::snprintf(label, sizeof label, "%s (%d)", labels[k], k + 1);
    ImGui::RadioButton(label, &kind, k);
  }
  if (kind != int(measure.kind())) measure.setKind(MeasureKind(kind));
}

void drawList(MeasureState& measure, const LengthUnit& unit) {
  const std::vector<Measurement>& list = measure.finished();
  std::optional<size_t> deleted;
  for (size_t i = 0; i < list.size(); ++i) {
    ImGui::PushID(int(i));
    if (ImGui::SmallButton("Delete")) deleted = i;
    ImGui::SameLine();
    ImGui::Text("%zu %s: %s", i + 1, measureKindName(list[i].kind),
                summaryText(list[i], 3, unit).c_str());
    ImGui::PopID();
  }
  if (deleted) measure.remove(*deleted);
}

}  // namespace

std::optional<std::string> drawMeasureSection(MeasureState& measure, std::string& exportPath,
                                              const LengthUnit& unit) {
  bool active = measure.active();
  if (ImGui::Checkbox("Measure with clicks (M)", &active)) measure.setActive(active);
  drawKindChoice(measure);
  const Measurement& current = measure.current();
  if (measure.active()) {
    ImGui::TextDisabled(completePoints(current.kind) > 0
                            ? "Click two points"
                            : "Click points; Enter, right click or double click ends");
    ImGui::TextDisabled("Backspace removes the last point");
  }
  if (!current.points.empty()) {
    ImGui::Text("In progress: %zu point(s), %s", current.points.size(),
                summaryText(current, 3, unit).c_str());
    if (ImGui::SmallButton("Finish")) measure.finish();
  }
  drawList(measure, unit);
  if (measure.finished().empty()) return std::nullopt;
  if (ImGui::SmallButton("Delete all")) measure.clear();
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5.0f);
  const bool entered = inputString("##export", exportPath);
  ImGui::SameLine();
  const bool exported = (ImGui::Button("Export") || entered) && !exportPath.empty();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("A .json path writes JSON, any other CSV");
  return exported ? std::optional<std::string>(exportPath) : std::nullopt;
}

}  // namespace pcv::app
