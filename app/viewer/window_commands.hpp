/// @brief The script commands of the window itself (input, shots, files, colours, the camera
/// mode, waiting and quitting), registered the way the tools register theirs, over an interface
/// the window implements and the tests record.
#pragma once

#include <string>

#include <glm/glm.hpp>

#include "camera/camera_rig.hpp"
#include "viewer/input/input_script.hpp"

namespace pcv::app {

/// Which picture a shot command takes.
enum class ShotKind {
  Scene,   ///< the rendered scene, as F12 (screenshot)
  Window,  ///< the window's back buffer before the panels (window_shot)
  Ui,      ///< the whole window, panels and overlay too (ui_shot)
};

/// What the window's commands act on.
class ScriptedWindow {
 public:
  virtual ~ScriptedWindow() = default;
  virtual void key(int key, int action) = 0;  ///< GLFW key and action
  virtual void cursor(glm::dvec2 atPx) = 0;   ///< window pixels
  virtual void mouseButton(int button, int action) = 0;
  virtual void scroll(double notches) = 0;
  virtual void doubleClick(glm::dvec2 atPx) = 0;
  virtual void resize(int widthPx, int heightPx) = 0;
  virtual void shoot(ShotKind kind, const std::string& path) = 0;
  virtual void setMode(CameraMode mode) = 0;
  /// Loads `path` in place of the scene (`replace`) or into it.
  virtual void openFile(const std::string& path, bool replace) = 0;
  /// `path` dropped on the window (Shift held adds it).
  virtual void drop(const std::string& path) = 0;
  /// Stops the streamed file; the files read whole beside it stay.
  virtual void closeStream() = 0;
  /// Removes the files read whole; a streamed file stays.
  virtual void removeFiles() = 0;
  /// Frames tile `index` of the streamed dataset, as a click on it in the Data section does.
  virtual void frameTile(size_t index) = 0;
  /// Draws the dataset's tile boxes, or not (the Data section's checkbox).
  virtual void showTileBoxes(bool shown) = 0;
  /// Collapses the sidebar or opens it again, as a double click on its title bar does.
  virtual void collapseSidebar(bool collapsed) = 0;
  /// A colour mode (parseColorMode's names) and, for "attribute", the attribute's name.
  virtual void color(const std::string& mode, const std::string& attribute) = 0;
  virtual bool loading() const = 0;
  virtual void quit() = 0;
};

/// Registers, for `window`:
///   key_down|key_up|key_press <Key>     (W, Escape, F12, LeftShift, Space, Home, Delete ...)
///   mouse_move <x> <y>                  (cursor position, window pixels)
///   mouse_down|mouse_up <left|right|middle>
///   scroll <notches>
///   double_click <x> <y>
///   resize <width> <height>             (window size)
///   screenshot|window_shot|ui_shot <path.png>
///   mode fly|orbit
///   open <path> | add <path>            (in place of the scene, into it)
///   drop <path>                         (a file dropped on the window; Shift adds)
///   close_stream | remove_files         (the streamed file, the files read whole beside it)
///   color <mode> [attribute]            (rgb, elevation ..., attribute NAME)
///   sidebar open|collapsed              (as a double click on its title bar)
///   wait_load                           (later events wait until loading is done)
///   quit
void addWindowCommands(ScriptCommands& commands, ScriptedWindow& window);

}  // namespace pcv::app
