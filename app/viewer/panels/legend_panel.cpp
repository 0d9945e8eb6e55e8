// The "Legend" window: what a colour means. Scalar modes draw the map as a gradient bar with the
// range's ends and middle; classification lists the classes present with their swatches.
#include <imgui.h>

#include <cstdio>

#include "viewer/panels/panels.hpp"

namespace pcv::app {
namespace {

ImU32 imguiColour(uint32_t rgba) {
  return IM_COL32(redOf(rgba), greenOf(rgba), blueOf(rgba), 255);
}

void drawGradient(ColorMap map, float widthPx, float heightPx) {
  constexpr int kSegments = 32;  // piecewise linear bands: smooth enough for viridis and turbo
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  for (int s = 0; s < kSegments; ++s) {
    const float t0 = float(s) / kSegments, t1 = float(s + 1) / kSegments;
    const ImU32 left = imguiColour(colorMapRgba(map, t0));
    const ImU32 right = imguiColour(colorMapRgba(map, t1));
    draw->AddRectFilledMultiColor(ImVec2(origin.x + t0 * widthPx, origin.y),
                                  ImVec2(origin.x + t1 * widthPx, origin.y + heightPx), left, right,
                                  right, left);
  }
  ImGui::Dummy(ImVec2(widthPx, heightPx));
}

}  // namespace

void drawLegend(const SceneModel& scene) {
  if (!scene.hasCloud()) return;
  const Coloring& used = scene.usedColoring();
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
                scene.coloring().range ? "typed range" : "2-98 %");
    const float widthPx = ImGui::GetFontSize() * 16.0f;
    drawGradient(used.map, widthPx, ImGui::GetFontSize() * 1.2f);
    // Ends and middle under the bar; values beyond the ends take the end colours.
    char low[32], middle[32], high[32];
    std::snprintf(low, sizeof low, "%.6g", range.low);
    std::snprintf(middle, sizeof middle, "%.6g", 0.5 * (range.low + range.high));
    std::snprintf(high, sizeof high, "%.6g", range.high);
    const float startX = ImGui::GetCursorPosX();
    ImGui::TextUnformatted(low);
    ImGui::SameLine(startX + 0.5f * (widthPx - ImGui::CalcTextSize(middle).x));
    ImGui::TextUnformatted(middle);
    ImGui::SameLine(startX + widthPx - ImGui::CalcTextSize(high).x);
    ImGui::TextUnformatted(high);
  } else {
    ImGui::TextUnformatted("classification (ASPRS)");
    const float swatch = ImGui::GetFontSize();
    for (uint32_t c : used.classes) {
      const ImVec2 at = ImGui::GetCursorScreenPos();
      ImGui::GetWindowDrawList()->AddRectFilled(at, ImVec2(at.x + swatch, at.y + swatch),
                                                imguiColour(classificationRgba(c)));
      ImGui::Dummy(ImVec2(swatch, swatch));
      ImGui::SameLine();
      ImGui::Text("%3u %s", c, classificationName(c).c_str());
    }
  }
  ImGui::End();
}

}  // namespace pcv::app
