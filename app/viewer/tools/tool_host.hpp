/// @brief What the window lends its tools: the camera, the scene, the render settings, picking,
/// the projection to window coordinates and the error window. Tools reach the window through
/// this alone.
#pragma once

#include <optional>
#include <string>

#include <glm/glm.hpp>

#include "pcv/core/profile_line_selection.hpp"
#include "pcv/io/coordinate_system.hpp"
#include "pcv/raster/render_settings.hpp"
#include "options/render_arguments.hpp"
#include "camera/camera_rig.hpp"
#include "pcv/session/scene_model.hpp"
#include "viewer/tools/screen_projector.hpp"

namespace pcv::app {

class ToolHost {
 public:
  virtual ~ToolHost() = default;

  virtual CameraRig& rig() = 0;
  /// Switches fly/orbit as Tab does (mouselook off for orbit, the orbit's distance from the scene).
  virtual void setMode(CameraMode mode) = 0;
  /// Width / height of the view.
  virtual float aspect() const = 0;
  /// The share of the view's width the sidebar covers (0 when collapsed): framing fits the data
  /// into the rest.
  virtual double sidebarShare() const { return 0.0; }
  virtual SceneModel& scene() = 0;
  /// What the renderer draws with next frame; the Clip tool edits `clip`.
  virtual RenderSettings& settings() = 0;
  /// This frame's view as `pcv render` would need it: camera, size, settings, files, colouring.
  virtual ViewDescription describeView() const = 0;

  /// World positions to window coordinates for this frame.
  virtual ScreenProjector projector() const = 0;
  /// The world position of the point drawn under a window position, or empty (said on stderr).
  virtual std::optional<glm::dvec3> pickAt(glm::dvec2 windowPx) = 0;
  /// HiDPI content scale (1 on ordinary screens): grab radii in window pixels scale with it.
  virtual float uiScale() const = 0;
  /// The CRS the scene's files declare (declaredCoordinateSystem): lengths are labelled in its
  /// unit. Unknown for the cylinders and files that declare none.
  virtual const CoordinateSystem& coordinateSystem() const = 0;

  /// The line drawn in the Profile window that selects the corridor's points above or below it:
  /// the Profile tool sets it, the Edit tool acts on it. Empty when none is drawn.
  virtual std::optional<ProfileLineSelection>& profileLine() = 0;

  /// Shown in the Error window until dismissed.
  virtual void showError(const std::string& message) = 0;
  virtual void setClipboard(const std::string& text) = 0;
};

}  // namespace pcv::app
