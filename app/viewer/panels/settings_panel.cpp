// The "Settings" window: the seed's frame time and demo checkbox, plus what a user of the viewer
// needs to see and switch (timings per stage, backend, method, interop path, vsync, camera).
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include "viewer/panels/panels.hpp"

namespace pcv::app {
namespace {

void drawStatus(const ViewerStatus& status) {
  ImGui::Text("Frame time: %6.2f ms (%5.1f fps)", status.frameMs, status.fps);
  if (!status.stages.empty() && ImGui::TreeNodeEx("Stages", ImGuiTreeNodeFlags_DefaultOpen)) {
    for (const StageTiming& stage : status.stages) {
      ImGui::Text("%-10s %7.3f ms", stage.stage.c_str(), stage.milliseconds);
    }
    ImGui::Text("%-10s %7.3f ms", "total", totalMilliseconds(status.stages));
    ImGui::TreePop();
  }
  ImGui::Text("Points: %llu", static_cast<unsigned long long>(status.points));
  ImGui::Text("Backend: %s", status.backend.c_str());
  if (!status.backendNote.empty()) ImGui::TextWrapped("%s", status.backendNote.c_str());
  ImGui::Text("Interop: %s", status.interop.c_str());
  if (!status.interopFallback.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextWrapped("Fallback: %s", status.interopFallback.c_str());
    ImGui::PopTextWrapPos();
  }
}

void drawMethodChoice(const std::vector<RasterMethod>& methods, RenderSettings& settings) {
  const RasterMethod current = settings.method.value_or(methods.front());
  if (ImGui::BeginCombo("Method", methodName(current))) {
    for (const RasterMethod method : methods) {
      if (ImGui::Selectable(methodName(method), method == current)) settings.method = method;
    }
    ImGui::EndCombo();
  }
}

std::optional<CameraMode> drawCamera(const CameraRig& rig) {
  const Camera& camera = rig.camera();
  int mode = rig.mode() == CameraMode::Fly ? 0 : 1;
  ImGui::Text("Camera (Tab switches):");
  ImGui::SameLine();
  ImGui::RadioButton("Fly", &mode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("Orbit", &mode, 1);
  ImGui::Text("Position: %.3f, %.3f, %.3f", camera.eye.x, camera.eye.y, camera.eye.z);
  ImGui::Text("Yaw %.1f deg, pitch %.1f deg", glm::degrees(double(camera.yawRadians)),
              glm::degrees(double(camera.pitchRadians)));
  if (rig.mode() == CameraMode::Fly) {
    ImGui::Text("Speed: %.2f units/s (wheel)", rig.flySpeed());
    ImGui::TextDisabled(rig.mouselook() ? "Mouselook on (Escape releases)" : "Escape: mouselook");
  } else {
    const glm::dvec3& target = rig.orbit().target();
    ImGui::Text("Target: %.3f, %.3f, %.3f  distance %.3f", target.x, target.y, target.z,
                rig.orbit().distance());
  }
  const CameraMode chosen = mode == 0 ? CameraMode::Fly : CameraMode::Orbit;
  if (chosen != rig.mode()) return chosen;
  return std::nullopt;
}

}  // namespace

std::optional<CameraMode> drawSettingsPanel(const ViewerStatus& status,
                                            const std::vector<RasterMethod>& methods,
                                            RenderSettings& settings, const CameraRig& rig,
                                            ViewerToggles& toggles) {
  std::optional<CameraMode> requested;
  if (ImGui::Begin("Settings", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    drawStatus(status);
    drawMethodChoice(methods, settings);
    if (ImGui::Checkbox("Vsync", &toggles.vsync)) glfwSwapInterval(toggles.vsync ? 1 : 0);
    drawQualityControls(settings);
    ImGui::Separator();
    requested = drawCamera(rig);
    if (!status.lastScreenshot.empty()) {
      ImGui::TextWrapped("F12 saved: %s", status.lastScreenshot.c_str());
    }
    ImGui::Separator();
    ImGui::Checkbox("Show ImGui demo", &toggles.showImGuiDemo);
  }
  ImGui::End();
  if (toggles.showImGuiDemo) ImGui::ShowDemoWindow(&toggles.showImGuiDemo);
  return requested;
}

}  // namespace pcv::app
