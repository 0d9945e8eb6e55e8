#include "viewer/tools/tool_list.hpp"

#include <nlohmann/json.hpp>

namespace pcv::app {

ViewerTool& ToolList::add(std::unique_ptr<ViewerTool> tool) {
  entries_.push_back(Entry{.tool = std::move(tool)});
  return *entries_.back().tool;
}

bool ToolList::key(const KeyEvent& event) {
  return firstTaker([&](ViewerTool& tool) { return tool.onKey(event); });
}

bool ToolList::button(const ButtonEvent& event) {
  return firstTaker([&](ViewerTool& tool) { return tool.onButton(event); });
}

bool ToolList::click(const ButtonEvent& event) {
  return firstTaker([&](ViewerTool& tool) { return tool.onClick(event); });
}

bool ToolList::doubleClick(glm::dvec2 atPx) {
  return firstTaker([&](ViewerTool& tool) { return tool.onDoubleClick(atPx); });
}

bool ToolList::cursor(const CursorEvent& event) {
  return firstTaker([&](ViewerTool& tool) { return tool.onCursor(event); });
}

bool ToolList::scroll(double notches) {
  return firstTaker([&](ViewerTool& tool) { return tool.onScroll(notches); });
}

ViewerTool* ToolList::cancel() {
  for (Entry& entry : entries_) {
    if (entry.tool->cancel()) return entry.tool.get();
  }
  return nullptr;
}

void ToolList::addScriptCommands(ScriptCommands& commands) {
  for (Entry& entry : entries_) entry.tool->addScriptCommands(commands);
}

void ToolList::drawOverlays(const ScreenProjector& projector) {
  // Last first: the tool that sees input first is drawn on top.
  for (auto entry = entries_.rbegin(); entry != entries_.rend(); ++entry) {
    entry->tool->drawOverlay(projector);
  }
}

void ToolList::frame(double nowSeconds) {
  for (Entry& entry : entries_) entry.tool->onFrame(nowSeconds);
}

void ToolList::addToReport(nlohmann::json& report) const {
  for (const Entry& entry : entries_) entry.tool->addToReport(report);
}

void ToolList::sceneShown() {
  for (Entry& entry : entries_) entry.tool->onSceneShown();
}

}  // namespace pcv::app
