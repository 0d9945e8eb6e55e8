/// @brief The Polygon tool (Potree's polygon clip): L starts a polygon drawn on the screen;
/// clicks add its corners; Enter, a right click or a double click closes it; Backspace drops
/// the last corner. Closed, it clips what is drawn (RenderSettings::clip.polygon) in the view it
/// was drawn in, keeping the points inside or outside it, and its section exports the
/// selection. Script commands:
///   <seconds> polygon on|off                      (drawing; clicks then add corners)
///   <seconds> polygon_close
///   <seconds> polygon_keep inside|outside
///   <seconds> polygon_plan x0,y0,x1,y1,x2,y2[,...] (world x, y: as --clip-polygon)
///   <seconds> polygon_clear
/// The Filters tool's export_selection writes what the polygon keeps too.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/camera.hpp"
#include "viewer/tools/selection_exporter.hpp"
#include "viewer/tools/tool_host.hpp"
#include "viewer/tools/viewer_tool.hpp"

namespace pcv::app {

class PolygonTool final : public ViewerTool {
 public:
  explicit PolygonTool(ToolHost& host) : host_(host), exporter_(host) {}

  bool onKey(const KeyEvent& event) override;
  bool onClick(const ButtonEvent& event) override;
  bool onDoubleClick(glm::dvec2 atPx) override;
  /// The corners drawn so far; with none, drawing ends (a closed polygon stays).
  bool cancel() override;
  const char* sectionTitle() const override { return "Polygon"; }
  bool inUse() const override {
    return drawing_ || host_.settings().clip.polygon.has_value() || exporter_.running();
  }
  void drawSection() override;
  void drawOverlay(const ScreenProjector& projector) override;
  void addScriptCommands(ScriptCommands& commands) override;

 private:
  void setDrawing(bool on);
  /// Makes the corners drawn the clip polygon (at least three).
  void close();
  void clear();
  void setKeepInside(bool keepInside);

  ToolHost& host_;
  bool drawing_ = false;
  bool keepInside_ = true;
  std::vector<glm::dvec2> corners_;  ///< window coordinates of the polygon being drawn
  /// The view the corners were drawn in (at the first click) and its window size.
  Camera camera_;
  glm::dvec2 windowSize_{0.0};
  /// The closed polygon's corners, drawn over the view while the camera stays where it was.
  std::vector<glm::dvec2> closed_;
  Camera closedCamera_;
  glm::dvec2 closedWindowSize_{0.0};
  SelectionExporter exporter_;
  std::string exportPath_ = "polygon.laz";
};

}  // namespace pcv::app
