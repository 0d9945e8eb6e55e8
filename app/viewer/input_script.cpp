#include "viewer/input_script.hpp"

#include <fstream>
#include <map>
#include <sstream>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key codes only; nothing here calls GLFW

#include "pcv/core/color_map.hpp"
#include "pcv/core/error.hpp"
#include "viewer/tools/measurement.hpp"

namespace pcv::app {

int keyFromName(const std::string& name) {
  if (name.size() == 1 && name[0] >= 'A' && name[0] <= 'Z') return GLFW_KEY_A + (name[0] - 'A');
  if (name.size() == 1 && name[0] >= 'a' && name[0] <= 'z') return GLFW_KEY_A + (name[0] - 'a');
  if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') return GLFW_KEY_0 + (name[0] - '0');
  if (name.size() >= 2 && name[0] == 'F' && name.size() <= 3) {
    const int number = std::atoi(name.c_str() + 1);
    if (number >= 1 && number <= 25) return GLFW_KEY_F1 + number - 1;
  }
  static const std::map<std::string, int> named = {
      {"Escape", GLFW_KEY_ESCAPE},
      {"Space", GLFW_KEY_SPACE},
      {"Enter", GLFW_KEY_ENTER},
      {"Tab", GLFW_KEY_TAB},
      {"LeftShift", GLFW_KEY_LEFT_SHIFT},
      {"RightShift", GLFW_KEY_RIGHT_SHIFT},
      {"LeftControl", GLFW_KEY_LEFT_CONTROL},
      {"RightControl", GLFW_KEY_RIGHT_CONTROL},
      {"Left", GLFW_KEY_LEFT},
      {"Right", GLFW_KEY_RIGHT},
      {"Up", GLFW_KEY_UP},
      {"Down", GLFW_KEY_DOWN},
      {"Home", GLFW_KEY_HOME},
      {"Backspace", GLFW_KEY_BACKSPACE},
      {"Delete", GLFW_KEY_DELETE},
  };
  const auto found = named.find(name);
  return found == named.end() ? -1 : found->second;
}

namespace {

int buttonFromName(const std::string& name) {
  if (name == "left") return GLFW_MOUSE_BUTTON_LEFT;
  if (name == "right") return GLFW_MOUSE_BUTTON_RIGHT;
  if (name == "middle") return GLFW_MOUSE_BUTTON_MIDDLE;
  return -1;
}

}  // namespace

std::vector<ScriptEvent> parseInputScript(std::istream& input, const std::string& sourceName) {
  static const std::map<std::string, ScriptAction> actions = {
      {"key_down", ScriptAction::KeyDown},
      {"key_up", ScriptAction::KeyUp},
      {"key_press", ScriptAction::KeyPress},
      {"mouse_move", ScriptAction::MouseMove},
      {"mouse_down", ScriptAction::MouseDown},
      {"mouse_up", ScriptAction::MouseUp},
      {"scroll", ScriptAction::Scroll},
      {"double_click", ScriptAction::DoubleClick},
      {"resize", ScriptAction::Resize},
      {"screenshot", ScriptAction::Screenshot},
      {"window_shot", ScriptAction::WindowShot},
      {"ui_shot", ScriptAction::UiShot},
      {"mode", ScriptAction::Mode},
      {"open", ScriptAction::Open},
      {"add", ScriptAction::Add},
      {"color", ScriptAction::Color},
      {"drop", ScriptAction::Drop},
      {"measure", ScriptAction::Measure},
      {"export_measures", ScriptAction::ExportMeasures},
      {"clip_box", ScriptAction::ClipBox},
      {"clip_keep", ScriptAction::ClipKeep},
      {"clip_off", ScriptAction::ClipOff},
      {"bookmark_save", ScriptAction::BookmarkSave},
      {"bookmark_restore", ScriptAction::BookmarkRestore},
      {"wait_load", ScriptAction::WaitLoad},
      {"quit", ScriptAction::Quit},
  };
  std::vector<ScriptEvent> events;
  std::string line;
  for (int lineNumber = 1; std::getline(input, line); ++lineNumber) {
    const auto fail = [&](const std::string& what) {
      return InputError(sourceName + ":" + std::to_string(lineNumber) + ": " + what + " in '" +
                        line + "'");
    };
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    ScriptEvent event;
    std::string actionName;
    if (!(fields >> event.timeSeconds)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      throw fail("expected a time in seconds");
    }
    if (!(fields >> actionName)) throw fail("expected an action after the time");
    const auto action = actions.find(actionName);
    if (action == actions.end()) throw fail("unknown action '" + actionName + "'");
    event.action = action->second;
    if (!events.empty() && event.timeSeconds < events.back().timeSeconds) {
      throw fail("times must not decrease");
    }
    std::string word;
    switch (event.action) {
      case ScriptAction::KeyDown:
      case ScriptAction::KeyUp:
      case ScriptAction::KeyPress:
        if (!(fields >> word) || (event.key = keyFromName(word)) < 0) {
          throw fail("expected a key name (W, Escape, F12, LeftShift ...)");
        }
        break;
      case ScriptAction::MouseDown:
      case ScriptAction::MouseUp:
        if (!(fields >> word) || (event.key = buttonFromName(word)) < 0) {
          throw fail("expected left, right or middle");
        }
        break;
      case ScriptAction::MouseMove:
      case ScriptAction::DoubleClick:
        if (!(fields >> event.x >> event.y)) throw fail("expected x y in pixels");
        break;
      case ScriptAction::Resize:
        if (!(fields >> event.x >> event.y) || event.x < 1 || event.y < 1) {
          throw fail("expected width height in pixels");
        }
        break;
      case ScriptAction::Scroll:
        if (!(fields >> event.x)) throw fail("expected wheel notches");
        break;
      case ScriptAction::Screenshot:
      case ScriptAction::WindowShot:
      case ScriptAction::UiShot:
        if (!(fields >> event.text)) throw fail("expected a PNG path");
        break;
      case ScriptAction::Mode:
        if (!(fields >> event.text) || (event.text != "fly" && event.text != "orbit")) {
          throw fail("expected fly or orbit");
        }
        break;
      case ScriptAction::Open:
      case ScriptAction::Add:
      case ScriptAction::Drop:
        if (!(fields >> event.text)) throw fail("expected a point cloud path");
        break;
      case ScriptAction::ExportMeasures:
        if (!(fields >> event.text)) throw fail("expected a CSV or JSON path");
        break;
      case ScriptAction::Measure: {
        MeasureKind kind;
        if (!(fields >> event.text) ||
            (event.text != "off" && !parseMeasureKind(event.text, kind))) {
          throw fail("expected distance, polyline, height, area or off");
        }
        break;
      }
      case ScriptAction::ClipBox:
        event.numbers.resize(6);
        for (double& number : event.numbers) {
          if (!(fields >> number)) throw fail("expected x0 y0 z0 x1 y1 z1");
        }
        break;
      case ScriptAction::ClipKeep:
        if (!(fields >> event.text) || (event.text != "inside" && event.text != "outside")) {
          throw fail("expected inside or outside");
        }
        break;
      case ScriptAction::BookmarkSave:
      case ScriptAction::BookmarkRestore:
        if (!(fields >> event.text)) throw fail("expected a bookmark name");
        break;
      case ScriptAction::Color:
        if (!(fields >> event.text)) throw fail("expected a colour mode");
        try {
          parseColorMode(event.text);
        } catch (const InputError&) {
          throw fail("expected rgb, elevation, intensity, classification or attribute NAME");
        }
        if (event.text == "attribute" && !(fields >> event.attribute)) {
          throw fail("expected an attribute name after 'attribute'");
        }
        break;
      case ScriptAction::ClipOff:
      case ScriptAction::WaitLoad:
      case ScriptAction::Quit:
        break;
    }
    if (fields >> word) throw fail("unexpected '" + word + "'");
    events.push_back(event);
  }
  return events;
}

std::vector<ScriptEvent> loadInputScript(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw InputError("cannot open the input script '" + path + "'");
  return parseInputScript(file, path);
}

}  // namespace pcv::app
