#include <cmath>
#include "viewer/window_commands.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key codes only; nothing here calls GLFW

#include "pcv/core/color_map.hpp"
#include "pcv/core/error.hpp"

namespace pcv::app {
namespace {

void addKeyCommands(ScriptCommands& commands, ScriptedWindow& w) {
  const auto keyOf = [](ScriptLine& line) {
    const int key = keyFromName(line.word("a key name (W, Escape, F12, LeftShift ...)"));
    if (key < 0) line.fail("expected a key name (W, Escape, F12, LeftShift ...)");
    return key;
  };
  commands.add("key_down", [&w, keyOf](ScriptLine& line) {
    return stepOf([&w, key = keyOf(line)] { w.key(key, GLFW_PRESS); });
  });
  commands.add("key_up", [&w, keyOf](ScriptLine& line) {
    return stepOf([&w, key = keyOf(line)] { w.key(key, GLFW_RELEASE); });
  });
  commands.add("key_press", [&w, keyOf](ScriptLine& line) {
    return stepOf([&w, key = keyOf(line)] {
      w.key(key, GLFW_PRESS);
      w.key(key, GLFW_RELEASE);
    });
  });
}

void addMouseCommands(ScriptCommands& commands, ScriptedWindow& w) {
  const auto pointOf = [](ScriptLine& line) {
    const double x = line.number("x y in pixels");
    return glm::dvec2(x, line.number("x y in pixels"));
  };
  const auto buttonOf = [](ScriptLine& line) {
    const int button = buttonFromName(line.word("left, right or middle"));
    if (button < 0) line.fail("expected left, right or middle");
    return button;
  };
  commands.add("mouse_move", [&w, pointOf](ScriptLine& line) {
    return stepOf([&w, at = pointOf(line)] { w.cursor(at); });
  });
  commands.add("double_click", [&w, pointOf](ScriptLine& line) {
    return stepOf([&w, at = pointOf(line)] { w.doubleClick(at); });
  });
  commands.add("mouse_down", [&w, buttonOf](ScriptLine& line) {
    return stepOf([&w, button = buttonOf(line)] { w.mouseButton(button, GLFW_PRESS); });
  });
  commands.add("mouse_up", [&w, buttonOf](ScriptLine& line) {
    return stepOf([&w, button = buttonOf(line)] { w.mouseButton(button, GLFW_RELEASE); });
  });
  commands.add("scroll", [&w](ScriptLine& line) {
    return stepOf([&w, notches = line.number("wheel notches")] { w.scroll(notches); });
  });
}

void addShotCommands(ScriptCommands& commands, ScriptedWindow& w) {
  for (const auto& [name, kind] :
       {std::pair{"screenshot", ShotKind::Scene}, std::pair{"window_shot", ShotKind::Window},
        std::pair{"ui_shot", ShotKind::Ui}}) {
    commands.add(name, [&w, kind = kind](ScriptLine& line) {
      return stepOf([&w, kind, path = line.word("a PNG path")] { w.shoot(kind, path); });
    });
  }
  commands.add("resize", [&w](ScriptLine& line) {
    const double width = line.number("width height in pixels");
    const double height = line.number("width height in pixels");
    if (width < 1 || height < 1) line.fail("expected width height in pixels");
    return stepOf([&w, width, height] { w.resize(int(width), int(height)); });
  });
}

void addSceneCommands(ScriptCommands& commands, ScriptedWindow& w) {
  for (const bool replace : {true, false}) {
    commands.add(replace ? "open" : "add", [&w, replace](ScriptLine& line) {
      return stepOf(
          [&w, replace, path = line.word("a point cloud path")] { w.openFile(path, replace); });
    });
  }
  commands.add("drop", [&w](ScriptLine& line) {
    return stepOf([&w, path = line.word("a point cloud path")] { w.drop(path); });
  });
  commands.add("close_stream", [&w](ScriptLine&) { return stepOf([&w] { w.closeStream(); }); });
  commands.add("remove_files", [&w](ScriptLine&) { return stepOf([&w] { w.removeFiles(); }); });
  commands.add("frame_tile", [&w](ScriptLine& line) {
    const double index = line.number("a tile index");
    if (index < 0 || index != std::floor(index)) line.fail("expected a tile index (0, 1, ...)");
    return stepOf([&w, index] { w.frameTile(size_t(index)); });
  });
  commands.add("tile_boxes", [&w](ScriptLine& line) {
    const bool shown = line.oneOf({"on", "off"}, "on or off") == "on";
    return stepOf([&w, shown] { w.showTileBoxes(shown); });
  });
  commands.add("sidebar", [&w](ScriptLine& line) {
    const bool collapsed = line.oneOf({"open", "collapsed"}, "open or collapsed") == "collapsed";
    return stepOf([&w, collapsed] { w.collapseSidebar(collapsed); });
  });
  commands.add("color", [&w](ScriptLine& line) {
    const std::string mode = line.word("a colour mode");
    try {
      parseColorMode(mode);
    } catch (const InputError&) {
      line.fail("expected rgb, elevation, intensity, classification or attribute NAME");
    }
    const std::string attribute =
        mode == "attribute" ? line.word("an attribute name after 'attribute'") : "";
    return stepOf([&w, mode, attribute] { w.color(mode, attribute); });
  });
  commands.add("mode", [&w](ScriptLine& line) {
    const CameraMode mode = line.oneOf({"fly", "orbit"}, "fly or orbit") == "orbit"
                                ? CameraMode::Orbit
                                : CameraMode::Fly;
    return stepOf([&w, mode] { w.setMode(mode); });
  });
  commands.add("wait_load",
               [&w](ScriptLine&) -> ScriptStep { return [&w] { return !w.loading(); }; });
  commands.add("quit", [&w](ScriptLine&) { return stepOf([&w] { w.quit(); }); });
}

}  // namespace

void addWindowCommands(ScriptCommands& commands, ScriptedWindow& window) {
  addKeyCommands(commands, window);
  addMouseCommands(commands, window);
  addShotCommands(commands, window);
  addSceneCommands(commands, window);
}

}  // namespace pcv::app
