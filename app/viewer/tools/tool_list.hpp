/// @brief The viewer's tools in order: input is offered to each until one takes it, the script
/// commands of all of them are registered together, and each keeps the sidebar's memory of its
/// section.
#pragma once

#include <memory>
#include <vector>

#include "viewer/tools/viewer_tool.hpp"

namespace pcv::app {

/// How a tool's section is brought into view when its tool comes into use: scrolled to the top
/// of the sidebar for a few frames (the sidebar's height is only known a frame after it opened).
struct SectionScroll {
  bool forcedOpen = false;  ///< last frame
  int framesLeft = 0;       ///< frames to scroll to it yet
};

class ToolList {
 public:
  struct Entry {
    std::unique_ptr<ViewerTool> tool;
    SectionScroll scroll;
  };

  /// Adds `tool` after the others: it sees input they leave, its section comes below theirs.
  ViewerTool& add(std::unique_ptr<ViewerTool> tool);
  std::vector<Entry>& entries() { return entries_; }

  // True when a tool took the event.
  bool key(const KeyEvent& event);
  bool button(const ButtonEvent& event);
  bool click(const ButtonEvent& event);
  bool doubleClick(glm::dvec2 atPx);
  bool cursor(const CursorEvent& event);
  bool scroll(double notches);
  /// Escape offered to each tool in order: the one that cancelled something, or null.
  ViewerTool* cancel();

  void addScriptCommands(ScriptCommands& commands);
  /// Each tool's overlay, the first tool's on top.
  void drawOverlays(const ScreenProjector& projector);
  void sceneShown();
  /// Each tool's onFrame, in order.
  void frame(double nowSeconds);
  /// Each tool's part of the run report.
  void addToReport(nlohmann::json& report) const;

 private:
  /// The first tool for which `offer` returns true, as a bool.
  template <typename Offer>
  bool firstTaker(Offer offer) {
    for (Entry& entry : entries_) {
      if (offer(*entry.tool)) return true;
    }
    return false;
  }
  std::vector<Entry> entries_;
};

}  // namespace pcv::app
