/// @brief The Filters tool: a legend of the classes present (ASPRS names, point counts) with a
/// toggle each, the return choice and an attribute range, all edited in RenderSettings::filter
/// (the renderer skips what does not pass); and "Export selection...", which writes what the
/// clip region and the filters keep, at full resolution, to LAS, LAZ or COPC on a thread of its
/// own with progress and Cancel. Script commands:
///   <seconds> filter_classes <list>            (as --classes: 2,6 or 3-5)
///   <seconds> filter_returns any|first|last|only|<N>
///   <seconds> filter_range <attribute> <min> <max>
///   <seconds> filter_off
///   <seconds> export_selection <path>          (the script waits until the file is written)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "viewer/tools/selection_exporter.hpp"
#include "viewer/tools/tool_host.hpp"
#include "viewer/tools/viewer_tool.hpp"

namespace pcv::app {

/// What the Filters section shows and edits besides the filter itself.
struct FilterPanel {
  std::array<uint64_t, 256> classCounts{};  ///< points of each class in the files read whole
  bool countsKnown = false;                 ///< false: a stream, whose classes are not counted
  std::vector<std::string> attributes;      ///< the ranges' choices
  std::string rangeAttribute;               ///< chosen; empty: no range
  double rangeLow = 0.0, rangeHigh = 0.0;   ///< the chosen attribute's values span this
  std::string exportPath = "selection.laz";
};

class FilterTool final : public ViewerTool {
 public:
  explicit FilterTool(ToolHost& host) : host_(host), exporter_(host) {}

  const char* sectionTitle() const override { return "Filters"; }
  bool inUse() const override { return host_.settings().filter.active() || exporter_.running(); }
  void drawSection() override;
  void addScriptCommands(ScriptCommands& commands) override;
  void onSceneShown() override;
  /// Counts the classes again when edits changed them.
  void onFrame(double nowSeconds) override;
  /// "classCounts": the legend's points of each class (files read whole), by class.
  void addToReport(nlohmann::json& report) const override;

 private:
  /// Chooses the range attribute: its values go to the renderer, the range spans them.
  void chooseRange(const std::string& attribute);

  ToolHost& host_;
  FilterPanel panel_;
  SelectionExporter exporter_;
  uint64_t editsCounted_ = 0;  ///< the scene's editsVersion() the class counts are of
};

}  // namespace pcv::app
