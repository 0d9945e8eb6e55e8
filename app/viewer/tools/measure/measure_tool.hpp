/// @brief The Measure tool: M turns it on, 1-4 pick the kind, clicks on the scene add picked
/// points (Enter, a right click or a double click ends a polyline or polygon, Backspace takes
/// the last point back, Delete the last measurement); its section lists and exports the
/// measurements, its overlay draws them with their lengths. Script commands:
///   <seconds> measure distance|polyline|height|area|off   (as M and 1-4)
///   <seconds> export_measures <path>                     (.json, else CSV)
#pragma once

#include <string>

#include "viewer/tools/measure/measure_state.hpp"
#include "viewer/tools/tool_host.hpp"
#include "viewer/tools/viewer_tool.hpp"

namespace pcv::app {

class MeasureTool final : public ViewerTool {
 public:
  explicit MeasureTool(ToolHost& host) : host_(host) {}

  bool onKey(const KeyEvent& event) override;
  bool onClick(const ButtonEvent& event) override;
  bool onDoubleClick(glm::dvec2 atPx) override;
  /// The points of the measurement in progress; with none, measuring ends.
  bool cancel() override;
  const char* sectionTitle() const override { return "Measure"; }
  bool inUse() const override { return state_.active(); }
  void drawSection() override;
  void drawOverlay(const ScreenProjector& projector) override;
  void addScriptCommands(ScriptCommands& commands) override;

 private:
  void addPoint(glm::dvec2 atPx);
  void finish();
  /// The last finished measurement's numbers on stderr, every digit: scripts read them back.
  void reportLast() const;
  /// To `path`: JSON for a .json path, else CSV.
  void exportTo(const std::string& path);

  ToolHost& host_;
  MeasureState state_;
  std::string exportPath_ = "pcv-measurements.csv";  ///< the section's export field
};

}  // namespace pcv::app
