/// @brief The Profile window and section drawing: the profile figure (a GL texture of the
/// figure `pcv profile --out` writes: the points the renderer drew, axes with numbers, a title),
/// clicks in its data measured as distance along the line and height, and the section's width,
/// line and export fields.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/camera.hpp"
#include "pcv/core/image.hpp"
#include "pcv/core/length_unit.hpp"
#include "pcv/gl/gl_objects.hpp"

namespace pcv::app {

/// The profile's image and what is measured in it.
struct ProfileView {
  Image image;    ///< the figure (row 0 at the bottom): data, axes, title
  Camera camera;  ///< the front view its data area was drawn from
  /// Where the data lies in the figure: clicks are measured there.
  int dataLeft = 0, dataBottom = 0, dataWidth = 0, dataHeight = 0;
  GlTexture texture;                 ///< the image uploaded; made at first draw
  bool uploaded = false;             ///< the texture holds `image`
  bool open = false;                 ///< the window is shown
  std::vector<glm::dvec2> measured;  ///< up to two (distance, height) points clicked
  uint64_t points = 0;               ///< in the corridor
  double length = 0.0;               ///< of the line
  LengthUnit unit;                   ///< of the scene's coordinates; unknown when undeclared
  /// The selection line (distance, height: from, to) and its side, drawn over the figure.
  std::optional<std::pair<glm::dvec2, glm::dvec2>> selectionLine;
  bool selectsAbove = false;
};

/// What the Profile window asked for this frame: the two points measured made the selection
/// line, the points above it (true) or below.
struct ProfileWindowRequests {
  std::optional<bool> selectAbove;
};

/// What the section asked for this frame.
struct ProfileRequests {
  bool toggleDrawing = false;
  bool cut = false;
  bool clear = false;
  std::optional<std::string> exportPath;
};

/// The section: drawing on/off, the points of the line, the width, Cut, the export field.
void drawProfileSection(bool drawing, size_t vertexCount, double& widthUnits,
                        std::string& exportPath, const ProfileView& view,
                        ProfileRequests& requests);

/// The Profile window with the image; clicks in it add measured points (a third starts again).
void drawProfileWindow(ProfileView& view, ProfileWindowRequests& requests);

}  // namespace pcv::app
