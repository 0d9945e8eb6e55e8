// The sidebar's first sections: the seed's frame time (and its ImGui demo checkbox), the stages,
// backend and interop path; then what the renderer is asked to draw (method, vsync, quality).
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include "viewer/panels/panels.hpp"

namespace pcv::app {

void drawStatusSection(const ViewerStatus& status) {
  ImGui::Text("Frame time: %6.2f ms (%5.1f fps)", status.frameMs, status.fps);
  if (!status.stages.empty() && ImGui::TreeNode("Stages")) {
    for (const StageTiming& stage : status.stages) {
      ImGui::Text("%-12s %7.3f ms", stage.stage.c_str(), stage.milliseconds);
    }
    ImGui::Text("%-12s %7.3f ms", "total", totalMilliseconds(status.stages));
    ImGui::TreePop();
  }
  ImGui::Text("Points: %llu", static_cast<unsigned long long>(status.points));
  ImGui::Text("Backend: %s, interop: %s", status.backend.c_str(), status.interop.c_str());
  if (!status.backendNote.empty()) ImGui::TextWrapped("%s", status.backendNote.c_str());
  if (!status.interopFallback.empty()) {
    ImGui::TextWrapped("Fallback: %s", status.interopFallback.c_str());
  }
  if (!status.lastScreenshot.empty()) {
    ImGui::TextWrapped("F12 saved: %s", status.lastScreenshot.c_str());
  }
}

void drawRenderingSection(const std::vector<RasterMethod>& methods, RenderSettings& settings,
                          ViewerToggles& toggles) {
  // Clipping draws from the compact layout: the 16-byte methods wait until it is off.
  const bool clipping = settings.clip.active();
  const RasterMethod current =
      clipping ? methods.front() : settings.method.value_or(methods.front());
  ImGui::BeginDisabled(clipping);
  if (ImGui::BeginCombo("Method", methodName(current))) {
    for (const RasterMethod method : methods) {
      if (ImGui::Selectable(methodName(method), method == current)) settings.method = method;
    }
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
  if (clipping && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("Clipping draws with the compact method");
  }
  if (ImGui::Checkbox("Vsync", &toggles.vsync)) glfwSwapInterval(toggles.vsync ? 1 : 0);
  ImGui::SameLine();
  ImGui::Checkbox("ImGui demo", &toggles.showImGuiDemo);
  drawQualityControls(settings);
}

}  // namespace pcv::app
