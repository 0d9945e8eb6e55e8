// The Profile window: the figure of the corridor (distance against height, with axes), shown
// through a GL texture, and two clicks in its data area measured in world units.
#include "viewer/tools/profile/profile_window.hpp"

#include <epoxy/gl.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "pcv/session/profile_extract.hpp"
#include "viewer/tools/text_field.hpp"

namespace pcv::app {
namespace {

void upload(ProfileView& view) {
  if (!view.texture) view.texture = GlTexture::create();
  glBindTexture(GL_TEXTURE_2D, view.texture.id());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, view.image.width, view.image.height, 0, GL_RGBA,
               GL_UNSIGNED_BYTE, view.image.pixels.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  view.uploaded = true;
}

}  // namespace

void drawProfileSection(bool drawing, size_t vertexCount, double& widthUnits,
                        std::string& exportPath, const ProfileView& view,
                        ProfileRequests& requests) {
  if (ImGui::Button(drawing ? "Stop drawing" : "Draw line (P)")) requests.toggleDrawing = true;
  ImGui::SameLine();
  ImGui::Text("%zu points", vertexCount);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  double width = widthUnits;
  if (ImGui::InputDouble("Width", &width, 0.0, 0.0, "%.4g") && width > 0.0) widthUnits = width;
  if (ImGui::Button("Cut profile (Enter)")) requests.cut = true;
  ImGui::SameLine();
  if (ImGui::Button("Clear")) requests.clear = true;
  ImGui::TextDisabled("Clicks pick points; right click or double click cuts");
  if (view.points > 0 || view.length > 0.0) {
    ImGui::Text("%llu points, line %s long", static_cast<unsigned long long>(view.points),
                formatLength(view.length, view.unit).c_str());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
    const bool entered = inputString("##profileExport", exportPath);
    ImGui::SameLine();
    if (ImGui::Button("Export") || entered) requests.exportPath = exportPath;
    ImGui::TextDisabled(".csv, .las, .laz or .png");
  }
}

void drawProfileWindow(ProfileView& view, ProfileWindowRequests& requests) {
  if (!view.open || view.image.width == 0) return;
  if (!view.uploaded) upload(view);
  // At the bottom right, clear of the sidebar at the left, at first.
  const ImVec2 size(float(view.image.width) + 20.0f, float(view.image.height) + 90.0f);
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowSize(size, ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(ImVec2(std::max(display.x - size.x - 10.0f, 0.0f),
                                 std::max(display.y - size.y - 60.0f, 0.0f)),
                          ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Profile", &view.open)) {
    ImGui::End();
    return;
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // The image's row 0 is its bottom: the texture is drawn with v flipped.
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(view.texture.id())),
               ImVec2(float(view.image.width), float(view.image.height)), ImVec2(0, 1),
               ImVec2(1, 0));
  // The data area's top left corner in the window: the figure's margins are around it.
  const ImVec2 dataOrigin(origin.x + float(view.dataLeft),
                          origin.y + float(view.image.height - view.dataBottom - view.dataHeight));
  if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) {
    const ImVec2 mouse = ImGui::GetMousePos();
    const double x = mouse.x - dataOrigin.x;
    const double y = double(view.dataHeight) - (mouse.y - dataOrigin.y);
    if (x >= 0.0 && y >= 0.0 && x < view.dataWidth && y < view.dataHeight) {
      if (view.measured.size() == 2) view.measured.clear();
      view.measured.push_back(
          profileImagePosition(view.camera, view.dataWidth, view.dataHeight, x, y));
    }
  }
  ImDrawList& draw = *ImGui::GetWindowDrawList();
  const double pixelsPerUnit = double(view.dataWidth) / view.camera.orthoWidth;
  auto toScreen = [&](const glm::dvec2& p) {
    const double x = (p.x - view.camera.eye.x) * pixelsPerUnit + 0.5 * view.dataWidth;
    const double y = 0.5 * view.dataHeight - (p.y - view.camera.eye.z) * pixelsPerUnit;
    return ImVec2(dataOrigin.x + float(x), dataOrigin.y + float(y));
  };
  for (const glm::dvec2& p : view.measured) {
    draw.AddCircleFilled(toScreen(p), 4.0f, IM_COL32(255, 220, 0, 255));
  }
  if (view.selectionLine) {
    // Extended across the data area, as the selection extends it across the corridor.
    const auto [a, b] = *view.selectionLine;
    const double left = view.camera.eye.x - 0.5 * view.dataWidth / pixelsPerUnit;
    const double right = view.camera.eye.x + 0.5 * view.dataWidth / pixelsPerUnit;
    const auto at = [&](double x) {
      return glm::dvec2(x, a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x));
    };
    draw.PushClipRect(
        dataOrigin,
        ImVec2(dataOrigin.x + float(view.dataWidth), dataOrigin.y + float(view.dataHeight)), true);
    draw.AddLine(toScreen(at(left)), toScreen(at(right)), IM_COL32(0, 220, 255, 255), 2.0f);
    draw.PopClipRect();
    ImGui::TextDisabled("Selected: the corridor's points %s the blue line",
                        view.selectsAbove ? "above" : "below");
  }
  if (view.measured.size() == 2) {
    draw.AddLine(toScreen(view.measured[0]), toScreen(view.measured[1]), IM_COL32(255, 220, 0, 255),
                 2.0f);
    const glm::dvec2 d = view.measured[1] - view.measured[0];
    ImGui::Text("Along %s, height %s, distance %s, slope %.2f %%",
                formatLength(d.x, view.unit).c_str(), formatLength(d.y, view.unit).c_str(),
                formatLength(glm::length(d), view.unit).c_str(),
                d.x != 0.0 ? 100.0 * d.y / d.x : 0.0);
    // The line through the two points divides the corridor: its points above or below are
    // the Edit tool's "profile line" selection.
    ImGui::BeginDisabled(d.x == 0.0);
    if (ImGui::Button("Select above")) requests.selectAbove = true;
    ImGui::SameLine();
    if (ImGui::Button("Select below")) requests.selectAbove = false;
    ImGui::EndDisabled();
  } else {
    ImGui::TextDisabled("Click two points to measure (distance along the line, height)");
  }
  ImGui::End();
}

}  // namespace pcv::app
