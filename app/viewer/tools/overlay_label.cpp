// Labels over the scene: the overlays' measurements and the notice while the scene is prepared.
#include "viewer/tools/overlay_label.hpp"

#include <string>

namespace pcv::app {

void drawLabel(ImDrawList& draw, glm::dvec2 at, const char* text, ImU32 colour) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  const ImVec2 corner(float(at.x) + 6.0f, float(at.y) - size.y - 4.0f);
  draw.AddRectFilled(ImVec2(corner.x - 3.0f, corner.y - 2.0f),
                     ImVec2(corner.x + size.x + 3.0f, corner.y + size.y + 2.0f),
                     IM_COL32(0, 0, 0, 170), 3.0f);
  draw.AddText(corner, colour, text);
}

void drawNotice(const std::string& notice) {
  if (notice.empty()) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const ImVec2 size = ImGui::CalcTextSize(notice.c_str());
  drawLabel(*ImGui::GetBackgroundDrawList(),
            glm::dvec2(viewport->Pos.x + 0.5 * (viewport->Size.x - size.x) - 6.0,
                       viewport->Pos.y + 0.5 * (viewport->Size.y + size.y)),
            notice.c_str(), IM_COL32(230, 230, 230, 255));
}

}  // namespace pcv::app
