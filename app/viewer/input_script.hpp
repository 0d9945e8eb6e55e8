/// @brief Timed input for tests and demos (`pcv view --script FILE`): the viewer feeds these
/// events through the same handlers as real input. One event per line:
///   <seconds> key_down|key_up|key_press <Key>     (W, Escape, F12, LeftShift, Space ...)
///   <seconds> mouse_move <x> <y>                   (cursor position, window pixels)
///   <seconds> mouse_down|mouse_up <left|right|middle>
///   <seconds> scroll <notches>
///   <seconds> double_click <x> <y>
///   <seconds> resize <width> <height>              (window size)
///   <seconds> screenshot <path.png>                (the rendered scene, as F12)
///   <seconds> window_shot <path.png>               (the window's back buffer, before the UI)
///   <seconds> ui_shot <path.png>                   (the whole window, panels and overlay too)
///   <seconds> mode fly|orbit
///   <seconds> open <path>                          (load a file in place of the scene)
///   <seconds> add <path>                           (load a file into the scene)
///   <seconds> color <mode> [attribute]             (rgb, elevation ..., attribute NAME)
///   <seconds> drop <path>                          (a file dropped on the window; Shift adds)
///   <seconds> measure distance|polyline|height|area|off   (the Measure tool, as M and 1-4)
///   <seconds> export_measures <path>               (.json, else CSV)
///   <seconds> clip_box <x0> <y0> <z0> <x1> <y1> <z1>      (typed in the Clip section)
///   <seconds> clip_keep inside|outside
///   <seconds> clip_off
///   <seconds> bookmark_save <name> | bookmark_restore <name>
///   <seconds> wait_load                            (later events wait until loading is done)
///   <seconds> quit
/// Times are seconds since the first frame after the cylinder scene is laid out (at once with
/// files), non-decreasing; '#' starts a comment. Keys include Home, Backspace and Delete.
#pragma once

#include <istream>
#include <string>
#include <vector>

namespace pcv::app {

enum class ScriptAction {
  KeyDown,
  KeyUp,
  KeyPress,
  MouseMove,
  MouseDown,
  MouseUp,
  Scroll,
  DoubleClick,
  Resize,
  Screenshot,
  WindowShot,
  UiShot,
  Mode,
  Open,
  Add,
  Color,
  Drop,
  Measure,
  ExportMeasures,
  ClipBox,
  ClipKeep,
  ClipOff,
  BookmarkSave,
  BookmarkRestore,
  WaitLoad,
  Quit,
};

struct ScriptEvent {
  double timeSeconds = 0.0;
  ScriptAction action = ScriptAction::Quit;
  int key = -1;           ///< GLFW key code (KeyDown/KeyUp/KeyPress) or mouse button
  double x = 0.0;         ///< cursor x, width, or scroll notches
  double y = 0.0;         ///< cursor y or height
  std::string text;       ///< path (Screenshot, WindowShot, UiShot, Open, Add, Drop, Export...),
                          ///< name (Mode, Color, Measure, ClipKeep, Bookmark...)
  std::string attribute;  ///< Color attribute: the attribute's name
  std::vector<double> numbers;  ///< ClipBox: x0 y0 z0 x1 y1 z1
};

/// Parses a script; throws InputError naming `sourceName`, the line and what was expected.
std::vector<ScriptEvent> parseInputScript(std::istream& input, const std::string& sourceName);
std::vector<ScriptEvent> loadInputScript(const std::string& path);

/// GLFW key code for a name ("W", "Escape", "F12", "LeftShift" ...), or -1.
int keyFromName(const std::string& name);

}  // namespace pcv::app
