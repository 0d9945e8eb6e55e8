/// @brief The Clip tool: X toggles a box over the middle of the scene (startingClipBox: in a plan
/// view, the whole height); its handles in the view are dragged (before the camera sees the drag;
/// Escape puts a dragged handle back); its section types the box's corners and sets up a slab;
/// its overlay draws the box and the handles. It edits RenderSettings::clip, which the renderer
/// reads. Script commands:
///   <seconds> clip_box <x0> <y0> <z0> <x1> <y1> <z1>     (as typed in the Clip section)
///   <seconds> clip_keep inside|outside
///   <seconds> clip_off
#pragma once

#include "viewer/tools/clip/clip_section.hpp"
#include "viewer/tools/clip/clip_handles.hpp"
#include "viewer/tools/tool_host.hpp"
#include "viewer/tools/viewer_tool.hpp"

namespace pcv::app {

class ClipTool final : public ViewerTool {
 public:
  explicit ClipTool(ToolHost& host) : host_(host) {}

  bool onKey(const KeyEvent& event) override;
  bool onButton(const ButtonEvent& event) override;
  bool onCursor(const CursorEvent& event) override;
  /// A handle being dragged goes back to where it was grabbed.
  bool cancel() override;
  const char* sectionTitle() const override { return "Clip"; }
  bool inUse() const override { return host_.settings().clip.hasRegion(); }
  void drawSection() override;
  void drawOverlay(const ScreenProjector& projector) override;
  void addScriptCommands(ScriptCommands& commands) override;

 private:
  /// The handle within grabbing distance of the cursor, or None.
  ClipHandle handleUnder(glm::dvec2 atPx) const;
  void toggleBox();
  /// The box's corners on stderr (scripts and tests read them).
  void reportBox() const;

  ToolHost& host_;
  ClipPanel panel_;
  ClipHandle hovered_ = ClipHandle::None;
  ClipHandle dragged_ = ClipHandle::None;
  ClipSettings beforeDrag_;  ///< the clip settings when the dragged handle was grabbed
};

}  // namespace pcv::app
