// Labels over the scene, for the tools' overlays and the window's notice.
#include "viewer/tools/overlay_label.hpp"

namespace pcv::app {

void drawLabel(ImDrawList& draw, glm::dvec2 at, const char* text, ImU32 color) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  const ImVec2 corner(float(at.x) + 6.0f, float(at.y) - size.y - 4.0f);
  draw.AddRectFilled(ImVec2(corner.x - 3.0f, corner.y - 2.0f),
                     ImVec2(corner.x + size.x + 3.0f, corner.y + size.y + 2.0f),
                     IM_COL32(0, 0, 0, 170), 3.0f);
  draw.AddText(corner, color, text);
}
}  // namespace pcv::app
