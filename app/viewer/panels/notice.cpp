// The notice while the scene is prepared, in the middle of the window.
#include <imgui.h>

#include "viewer/panels/panels.hpp"
#include "viewer/tools/overlay_label.hpp"

namespace pcv::app {

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
