// The sidebar: one window docked at the left edge, full height and a fixed width in font units
// (so it scales with HiDPI fonts and never covers another panel), its sections collapsible; and
// the Error window, centred in the rest of the window.
#include <imgui.h>

#include <algorithm>

#include "viewer/panels/panels.hpp"

namespace pcv::app {
namespace {

/// Sidebar width in font heights: room for the quality sliders and a path field.
constexpr float kSidebarEms = 24.0f;

/// A section header, forced open while `forceOpen` (a tool turned on by its key shows itself)
/// and then scrolled to the top of the sidebar.
bool section(const char* title, bool defaultOpen, bool forceOpen = false,
             SectionScroll* scroll = nullptr) {
  if (forceOpen) ImGui::SetNextItemOpen(true);
  const bool open =
      ImGui::CollapsingHeader(title, defaultOpen ? ImGuiTreeNodeFlags_DefaultOpen : 0);
  if (scroll) {
    if (forceOpen && !scroll->forcedOpen) scroll->framesLeft = 3;
    if (scroll->framesLeft > 0) {
      ImGui::SetScrollHereY(0.0f);
      --scroll->framesLeft;
    }
    scroll->forcedOpen = forceOpen;
  }
  return open;
}

}  // namespace

float drawSidebar(PanelContext& c, ToolList& tools, PanelRequests& requests) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float width = std::min(ImGui::GetFontSize() * kSidebarEms, viewport->Size.x * 0.5f);
  ImGui::SetNextWindowPos(viewport->Pos);
  ImGui::SetNextWindowSize(ImVec2(width, viewport->Size.y));
  ImGui::SetNextWindowBgAlpha(0.94f);
  constexpr ImGuiWindowFlags kDocked =
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings;
  const bool expanded = ImGui::Begin("pcv", nullptr, kDocked);
  if (expanded) {
    if (section("Renderer", true)) {
      drawStatusSection(c.status);
      drawRenderingSection(c.methods, c.settings, c.toggles);
    }
    // The tools above the data: opened by their keys, they show without scrolling at 720 px.
    for (ToolList::Entry& entry : tools.entries()) {
      ViewerTool& tool = *entry.tool;
      if (!tool.sectionTitle()) continue;
      ImGui::PushID(&tool);
      if (section(tool.sectionTitle(), tool.sectionOpenByDefault(), tool.inUse(), &entry.scroll)) {
        tool.drawSection();
      }
      ImGui::PopID();
    }
    if (section("Data", true)) drawDataSection(c, requests);
    if (StreamPart* streamed = c.scene.stream(); streamed && section("Streaming", true)) {
      drawStreamingSection(*streamed);
    }
  }
  ImGui::End();
  if (c.toggles.showImGuiDemo) ImGui::ShowDemoWindow(&c.toggles.showImGuiDemo);
  return expanded ? width : 0.0f;
}

void drawErrorWindow(std::vector<std::string>& errors, float sidebarWidth) {
  if (errors.empty()) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float free = viewport->Size.x - sidebarWidth;
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + sidebarWidth + free * 0.5f,
                                 viewport->Pos.y + viewport->Size.y * 0.3f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  // Not modal: the viewer stays usable with what it had while the message is up.
  if (ImGui::Begin("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::PushTextWrapPos(std::min(ImGui::GetFontSize() * 40.0f, free * 0.9f));
    for (const std::string& message : errors) {
      ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", message.c_str());
    }
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Dismiss")) errors.clear();
  }
  ImGui::End();
}

}  // namespace pcv::app
