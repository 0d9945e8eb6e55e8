/// @brief The Profile tool: P starts a polyline drawn on the cloud (clicks pick points; Enter, a
/// right click or a double click cuts the profile; Backspace drops the last point), with a
/// corridor width. The Profile window shows the corridor's points as distance along the line
/// against height, drawn offscreen by the CPU renderer in an orthographic front view; two clicks
/// in it measure the distance, height difference and slope between them. Its section exports the
/// profile as CSV, LAS, LAZ or PNG (by the name). Script commands:
///   <seconds> profile on|off
///   <seconds> profile_width <world units>
///   <seconds> profile_line x0,y0,x1,y1[,...]     (world coordinates, instead of clicks)
///   <seconds> profile_cut
///   <seconds> export_profile <path>               (.csv, .las, .laz or .png)
///   <seconds> profile_select above|below d0,h0 d1,h1 (the corridor's points above or below the
///                                                    line through (distance, height) points,
///                                                    for the Edit tool; "Select above/below"
///                                                    in the window after two clicks)
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/image.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/profile_extract.hpp"
#include "viewer/tools/profile/profile_window.hpp"
#include "viewer/tools/tool_host.hpp"
#include "viewer/tools/viewer_tool.hpp"

namespace pcv::app {

class ProfileTool final : public ViewerTool {
 public:
  explicit ProfileTool(ToolHost& host) : host_(host) {}

  bool onKey(const KeyEvent& event) override;
  bool onClick(const ButtonEvent& event) override;
  bool onDoubleClick(glm::dvec2 atPx) override;
  /// The line's points drawn so far; with none, drawing ends (a profile cut stays).
  bool cancel() override;
  const char* sectionTitle() const override { return "Profile"; }
  bool inUse() const override { return drawing_; }
  void drawSection() override;
  void drawOverlay(const ScreenProjector& projector) override;
  void addScriptCommands(ScriptCommands& commands) override;
  void onSceneShown() override;

 private:
  void setDrawing(bool on);
  /// Cuts the profile of the line drawn (at least two points) from the scene's points.
  void cut();
  void exportTo(const std::string& path);
  /// Makes the line through `from` and `to` (distance, height) the selection of the corridor's
  /// points above or below it.
  void selectSide(glm::dvec2 from, glm::dvec2 to, bool above);

  ToolHost& host_;
  bool drawing_ = false;
  std::vector<glm::dvec3> vertices_;  ///< picked points (world); the line is their x, y
  double widthUnits_ = 0.0;           ///< corridor width; 0: 1 % of the scene's size at first use
  std::optional<ProfilePoints> profile_;
  std::optional<ProfileCorridor> corridor_;  ///< of the profile cut
  std::unique_ptr<Renderer> renderer_;  ///< the CPU renderer the profile image is drawn by
  ProfileView view_;                    ///< the image, its camera and what is measured in it
  std::string exportPath_ = "pcv-profile.csv";
};

}  // namespace pcv::app
