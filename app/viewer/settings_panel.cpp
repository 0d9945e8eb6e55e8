// The "Settings" window: the seed's frame time and demo checkbox, plus what a user of the viewer
// needs to see and switch (timings per stage, backend, method, interop path, vsync, camera).
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include "viewer/quality_panel.hpp"
#include "viewer/viewer_window.hpp"

namespace pcv::app {

void ViewerWindow::drawSettingsPanel() {
  if (ImGui::Begin("Settings", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::Text("Frame time: %6.2f ms (%5.1f fps)", stats_.smoothedFrameMs, stats_.fps());
    if (!stageTimings_.empty() && ImGui::TreeNodeEx("Stages", ImGuiTreeNodeFlags_DefaultOpen)) {
      for (const StageTiming& stage : stageTimings_) {
        ImGui::Text("%-10s %7.3f ms", stage.stage.c_str(), stage.milliseconds);
      }
      ImGui::Text("%-10s %7.3f ms", "total", totalMilliseconds(stageTimings_));
      ImGui::TreePop();
    }
    ImGui::Text("Points: %llu", static_cast<unsigned long long>(backend_->pointCount()));
    ImGui::Text("Backend: %s", backend_->name().c_str());
    if (!backendNote_.empty()) ImGui::TextWrapped("%s", backendNote_.c_str());
    ImGui::Text("Interop: %s", interopPathName(presenter_->path()));
    if (!presenter_->fallbackReason().empty()) {
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
      ImGui::TextWrapped("Fallback: %s", presenter_->fallbackReason().c_str());
      ImGui::PopTextWrapPos();
    }
    const std::vector<std::string> methods = backend_->methods();
    if (ImGui::BeginCombo("Method", settings_.method.c_str())) {
      for (const std::string& method : methods) {
        if (ImGui::Selectable(method.c_str(), method == settings_.method))
          settings_.method = method;
      }
      ImGui::EndCombo();
    }
    if (ImGui::Checkbox("Vsync", &vsync_)) glfwSwapInterval(vsync_ ? 1 : 0);
    drawQualityControls(settings_);

    ImGui::Separator();
    int mode = mode_ == CameraMode::Fly ? 0 : 1;
    ImGui::Text("Camera (Tab switches):");
    ImGui::SameLine();
    ImGui::RadioButton("Fly", &mode, 0);
    ImGui::SameLine();
    ImGui::RadioButton("Orbit", &mode, 1);
    const CameraMode chosen = mode == 0 ? CameraMode::Fly : CameraMode::Orbit;
    if (chosen != mode_) setMode(chosen);
    ImGui::Text("Position: %.3f, %.3f, %.3f", camera_.eye.x, camera_.eye.y, camera_.eye.z);
    ImGui::Text("Yaw %.1f deg, pitch %.1f deg", glm::degrees(double(camera_.yawRadians)),
                glm::degrees(double(camera_.pitchRadians)));
    if (mode_ == CameraMode::Fly) {
      ImGui::Text("Speed: %.2f units/s (wheel)", fly_.speedUnitsPerSecond());
      ImGui::TextDisabled(mouselook_ ? "Mouselook on (Escape releases)" : "Escape: mouselook");
    } else {
      ImGui::Text("Target: %.3f, %.3f, %.3f  distance %.3f", orbit_.target().x, orbit_.target().y,
                  orbit_.target().z, orbit_.distance());
    }
    if (!lastScreenshot_.empty()) ImGui::TextWrapped("F12 saved: %s", lastScreenshot_.c_str());

    ImGui::Separator();
    ImGui::Checkbox("Show ImGui demo", &showDemo_);
  }
  ImGui::End();
  if (showDemo_) ImGui::ShowDemoWindow(&showDemo_);
}

}  // namespace pcv::app
