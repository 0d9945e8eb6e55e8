// The "Legend" window: what a colour means. Scalar modes draw the map as a gradient bar with the
// range's ends and middle; classification lists the classes present with their swatches.
#include <imgui.h>

#include <cstdio>

#include "pcv/core/number_text.hpp"

#include "viewer/panels/panels.hpp"

namespace pcv::app {
namespace {

ImU32 imguiColor(uint32_t rgba) {
  return IM_COL32(redOf(rgba), greenOf(rgba), blueOf(rgba), 255);
}

void drawGradient(ColorMap map, float widthPx, float heightPx) {
  constexpr int kSegments = 32;  // piecewise linear bands: smooth enough for viridis and turbo
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  for (int s = 0; s < kSegments; ++s) {
    const float t0 = float(s) / kSegments, t1 = float(s + 1) / kSegments;
    const ImU32 left = imguiColor(colorMapRgba(map, t0));
    const ImU32 right = imguiColor(colorMapRgba(map, t1));
    draw->AddRectFilledMultiColor(ImVec2(origin.x + t0 * widthPx, origin.y),
                                  ImVec2(origin.x + t1 * widthPx, origin.y + heightPx), left, right,
                                  right, left);
  }
  ImGui::Dummy(ImVec2(widthPx, heightPx));
}

/// The range's ends under the bar and its middle where it fits with a space to each, to the
/// range's precision (a small range no longer prints -0.04456520.00509024 0.0547456).
void drawRangeLabels(const ValueRange& range, float widthPx) {
  const int decimals = decimalsForSpan(range.low, range.high);
  const std::string low = fixedText(range.low, decimals);
  const std::string middle = fixedText(0.5 * (range.low + range.high), decimals);
  const std::string high = fixedText(range.high, decimals);
  const float space = ImGui::CalcTextSize(" ").x;
  const float lowWidth = ImGui::CalcTextSize(low.c_str()).x;
  const float middleWidth = ImGui::CalcTextSize(middle.c_str()).x;
  const float highWidth = ImGui::CalcTextSize(high.c_str()).x;
  const float startX = ImGui::GetCursorPosX();
  ImGui::TextUnformatted(low.c_str());
  if (lowWidth + space + highWidth > widthPx) {
    ImGui::TextUnformatted(high.c_str());  // no room beside each other: one under the other
    return;
  }
  const float middleX = 0.5f * (widthPx - middleWidth);
  if (middleX >= lowWidth + 2.0f * space &&
      middleX + middleWidth + 2.0f * space <= widthPx - highWidth) {
    ImGui::SameLine(startX + middleX);
    ImGui::TextUnformatted(middle.c_str());
  }
  ImGui::SameLine(startX + widthPx - highWidth);
  ImGui::TextUnformatted(high.c_str());
}

}  // namespace

void drawLegend(const SceneModel& scene) {
  if (!scene.parts().holdsFiles()) return;
  const Coloring& used = scene.coloring().used;
  const bool scalar = !used.attribute.empty();
  const bool classes = used.mode == ColorMode::Classification;
  if (!scalar && !classes) return;  // the file's own colours need no key
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(
      ImVec2(viewport->Pos.x + viewport->Size.x - 10.0f, viewport->Pos.y + 10.0f),
      ImGuiCond_FirstUseEver, ImVec2(1.0f, 0.0f));
  if (!ImGui::Begin("Legend", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  if (scalar) {
    const ValueRange& range = used.range;
    ImGui::Text("%s (%s, %s)", used.attribute.c_str(), colorMapName(used.map).c_str(),
                scene.coloring().asked.range ? "typed range" : "2-98 %");
    const float widthPx = ImGui::GetFontSize() * 16.0f;
    drawGradient(used.map, widthPx, ImGui::GetFontSize() * 1.2f);
    drawRangeLabels(range, widthPx);
  } else {
    ImGui::TextUnformatted("classification (ASPRS)");
    const float swatch = ImGui::GetFontSize();
    for (uint32_t c : used.classes) {
      const ImVec2 at = ImGui::GetCursorScreenPos();
      ImGui::GetWindowDrawList()->AddRectFilled(at, ImVec2(at.x + swatch, at.y + swatch),
                                                imguiColor(classificationRgba(c)));
      ImGui::Dummy(ImVec2(swatch, swatch));
      ImGui::SameLine();
      ImGui::Text("%3u %s", c, classificationName(c).c_str());
    }
  }
  ImGui::End();
}

}  // namespace pcv::app
