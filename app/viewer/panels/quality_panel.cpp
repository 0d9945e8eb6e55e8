#include "viewer/panels/panels.hpp"

#include <imgui.h>

#include <algorithm>

namespace pcv::app {
namespace {

/// Edits a packed RGBA8 colour with ImGui's float colour picker (alpha stays opaque).
void colorEdit(const char* label, uint32_t& rgba) {
  float color[3] = {redOf(rgba) / 255.0f, greenOf(rgba) / 255.0f, blueOf(rgba) / 255.0f};
  if (ImGui::ColorEdit3(label, color)) {
    auto channel = [](float c) { return uint32_t(c * 255.0f + 0.5f); };
    rgba = packRgba(channel(color[0]), channel(color[1]), channel(color[2]));
  }
}

}  // namespace

void drawQualityControls(RenderSettings& settings) {
  if (!ImGui::TreeNode("Quality")) return;
  QualitySettings& q = settings.quality;
  int sizeMode = q.sizeMode == PointSizeMode::World ? 1 : 0;
  ImGui::RadioButton("Pixels", &sizeMode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("World size", &sizeMode, 1);
  q.sizeMode = sizeMode == 1 ? PointSizeMode::World : PointSizeMode::Screen;
  if (q.sizeMode == PointSizeMode::Screen) {
    ImGui::SliderInt("Point size (px)", &q.pointSizePx, 1, kMaxPointSizePx);
  } else {
    ImGui::DragFloat("Point size (world)", &q.worldSize, q.worldSize * 0.01f + 1e-6f, 1e-5f, 100.0f,
                     "%.4f", ImGuiSliderFlags_Logarithmic);
    ImGui::SliderInt("Largest (px)", &q.maxPointSizePx, 1, kMaxPointSizePx);
  }
  bool round = q.shape == PointShape::Round;
  ImGui::Checkbox("Round points", &round);
  q.shape = round ? PointShape::Round : PointShape::Square;
  ImGui::SliderInt("Fill holes (px)", &q.fillRadiusPx, 0, kMaxFillRadiusPx);

  int edl = int(q.edl);
  ImGui::Text("Eye-dome lighting:");
  ImGui::SameLine();
  ImGui::RadioButton("Off", &edl, int(EdlMode::Off));
  ImGui::SameLine();
  ImGui::RadioButton("On", &edl, int(EdlMode::On));
  ImGui::SameLine();
  ImGui::RadioButton("Auto", &edl, int(EdlMode::Auto));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("On for clouds without colours of their own");
  q.edl = EdlMode(edl);
  if (q.edl != EdlMode::Off) {
    ImGui::SliderFloat("EDL strength", &q.edlStrength, 0.0f, 5.0f);
    ImGui::SliderInt("EDL radius (px)", &q.edlRadiusPx, 1, kMaxEdlRadiusPx);
  }
  ImGui::Checkbox("High quality (blend)", &q.highQuality);
  if (q.highQuality) {
    ImGui::SliderFloat("Depth range", &q.hqDepthRange, 0.0f, 0.1f, "%.3f");
  }

  colorEdit(q.backgroundGradient ? "Background bottom" : "Background", settings.background);
  ImGui::Checkbox("Gradient", &q.backgroundGradient);
  if (q.backgroundGradient) colorEdit("Background top", q.backgroundTop);

  // Ctrl+click lets a slider take any typed value; keep them where the renderer accepts them.
  q.pointSizePx = std::clamp(q.pointSizePx, 1, kMaxPointSizePx);
  q.maxPointSizePx = std::clamp(q.maxPointSizePx, 1, kMaxPointSizePx);
  q.worldSize = std::clamp(q.worldSize, 1e-5f, 100.0f);
  q.fillRadiusPx = std::clamp(q.fillRadiusPx, 0, kMaxFillRadiusPx);
  q.edlStrength = std::clamp(q.edlStrength, 0.0f, 100.0f);
  q.edlRadiusPx = std::clamp(q.edlRadiusPx, 1, kMaxEdlRadiusPx);
  q.hqDepthRange = std::clamp(q.hqDepthRange, 0.0f, 1.0f);
  ImGui::TreePop();
}

}  // namespace pcv::app
