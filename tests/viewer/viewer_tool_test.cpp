// The seam the viewer's tools plug into: input offered to the tools in order before the camera,
// a taken event kept from the camera and from later tools, clicks and double clicks, and script
// commands registered by a tool reaching it, with errors naming the line.
#include <sstream>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "pcv/core/error.hpp"
#include "test_support.hpp"
#include "viewer/input_router.hpp"
#include "viewer/input/input_script.hpp"
#include "viewer/tools/tool_list.hpp"

namespace pcv::app {
namespace {

/// A tool that takes what it is told to and counts what it sees.
class ProbeTool : public ViewerTool {
 public:
  bool takesKeys = false, takesPresses = false, takesClicks = false, takesDoubleClicks = false;
  bool takesScroll = false;
  int keys = 0, clicks = 0, doubleClicks = 0, cursorMoves = 0;
  bool grabbed = false;
  std::vector<std::string> painted;

  bool onKey(const KeyEvent&) override {
    ++keys;
    return takesKeys;
  }
  bool onButton(const ButtonEvent& event) override {
    if (event.action == GLFW_PRESS && takesPresses) grabbed = true;
    if (event.action == GLFW_RELEASE && grabbed) {
      grabbed = false;
      return true;
    }
    return grabbed;
  }
  bool onClick(const ButtonEvent&) override {
    ++clicks;
    return takesClicks;
  }
  bool onDoubleClick(glm::dvec2) override {
    ++doubleClicks;
    return takesDoubleClicks;
  }
  bool onCursor(const CursorEvent&) override {
    ++cursorMoves;
    return grabbed;  // a drag of the tool's, not the camera's
  }
  bool onScroll(double) override { return takesScroll; }
  bool cancels = false;
  int cancelsAsked = 0;
  bool cancel() override {
    ++cancelsAsked;
    return cancels;
  }
  void addScriptCommands(ScriptCommands& commands) override {
    commands.add("paint", [this](ScriptLine& line) {
      const std::string color = line.oneOf({"red", "blue"}, "red or blue");
      return stepOf([this, color] { painted.push_back(color); });
    });
  }
};

/// A camera in orbit mode, the tools and the router between them.
struct Seam {
  ToolList tools;
  CameraRig rig;
  std::vector<glm::dvec2> focused;
  InputRouter input{tools, rig, [this](glm::dvec2 at) { focused.push_back(at); }};
  ProbeTool& probe;

  Seam() : probe(static_cast<ProbeTool&>(tools.add(std::make_unique<ProbeTool>()))) {
    rig.setMode(CameraMode::Orbit, 5.0);
  }
  /// A left drag from (100, 100) to (160, 130).
  void drag() {
    input.cursor({100, 100}, false, 720);
    input.button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, {100, 100}, 0.0);
    input.cursor({160, 130}, false, 720);
    input.button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, {160, 130}, 0.1);
  }
};

TEST(ViewerToolSeam, ADragAToolTakesLeavesTheCameraStill) {
  Seam free;
  free.drag();
  EXPECT_NE(free.rig.camera().eye, CameraRig().camera().eye);  // the camera orbits otherwise
  Seam taken;
  const Camera before = taken.rig.camera();
  taken.probe.takesPresses = true;
  taken.drag();
  EXPECT_EQ(taken.rig.camera().eye, before.eye);
  EXPECT_EQ(taken.rig.camera().yawRadians, before.yawRadians);
  EXPECT_EQ(taken.probe.clicks, 0);  // the end of a tool's drag is no click
}

TEST(ViewerToolSeam, EscapeCancelsInTheFirstToolWithSomethingToCancel) {
  Seam seam;
  ProbeTool& second = static_cast<ProbeTool&>(seam.tools.add(std::make_unique<ProbeTool>()));
  EXPECT_EQ(seam.tools.cancel(), nullptr);  // nothing in progress: the window's mouselook
  EXPECT_EQ(second.cancelsAsked, 1);
  second.cancels = true;
  EXPECT_EQ(seam.tools.cancel(), &second);
  seam.probe.cancels = true;
  EXPECT_EQ(seam.tools.cancel(), &seam.probe);
  EXPECT_EQ(second.cancelsAsked, 2);  // the first tool's cancel ends it
}

TEST(ViewerToolSeam, AKeyAToolTakesIsNotHeldForTheCameraNorTheWindow) {
  Seam seam;
  EXPECT_TRUE(seam.input.key(GLFW_KEY_W, GLFW_PRESS));  // no tool took it: the window's turn
  EXPECT_TRUE(seam.input.state().motionKeys().forward);
  seam.input.key(GLFW_KEY_W, GLFW_RELEASE);
  seam.probe.takesKeys = true;
  EXPECT_FALSE(seam.input.key(GLFW_KEY_W, GLFW_PRESS));
  EXPECT_FALSE(seam.input.key(GLFW_KEY_W, GLFW_REPEAT));
  EXPECT_FALSE(seam.input.state().motionKeys().forward);
  EXPECT_EQ(seam.probe.keys, 3);
}

TEST(ViewerToolSeam, AnEarlierToolThatTakesAnEventHidesItFromLaterOnes) {
  Seam seam;
  auto& second = static_cast<ProbeTool&>(seam.tools.add(std::make_unique<ProbeTool>()));
  seam.input.key(GLFW_KEY_M, GLFW_PRESS);
  EXPECT_EQ(second.keys, 1);  // the first did not take it
  seam.probe.takesKeys = true;
  seam.input.key(GLFW_KEY_M, GLFW_PRESS);
  EXPECT_EQ(seam.probe.keys, 2);
  EXPECT_EQ(second.keys, 1);
}

TEST(ViewerToolSeam, ClicksGoToToolsAndUntakenDoubleClicksFocusTheCamera) {
  Seam seam;
  // Press and release in place: a click; a second press soon after at the same place: a double
  // click, whose release is no click.
  seam.input.cursor({50, 60}, false, 720);
  seam.input.button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, {50, 60}, 1.0);
  seam.input.button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, {50, 60}, 1.05);
  EXPECT_EQ(seam.probe.clicks, 1);
  seam.input.button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, {51, 60}, 1.2);
  seam.input.button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, {51, 60}, 1.25);
  EXPECT_EQ(seam.probe.clicks, 1);
  EXPECT_EQ(seam.probe.doubleClicks, 1);
  ASSERT_EQ(seam.focused.size(), 1u);
  EXPECT_EQ(seam.focused[0], glm::dvec2(51, 60));
  // A tool that takes double clicks keeps them from the camera.
  seam.probe.takesDoubleClicks = true;
  seam.input.doubleClick({7, 8});
  EXPECT_EQ(seam.focused.size(), 1u);
  EXPECT_EQ(seam.probe.doubleClicks, 2);
}

TEST(ViewerToolSeam, AScrollAToolTakesLeavesTheCameraStill) {
  Seam seam;
  const Camera before = seam.rig.camera();
  seam.probe.takesScroll = true;
  seam.input.scroll(3.0);
  EXPECT_EQ(seam.rig.camera().eye, before.eye);
  seam.probe.takesScroll = false;
  seam.input.scroll(3.0);  // orbit zoom
  EXPECT_NE(seam.rig.camera().eye, before.eye);
}

TEST(ViewerToolSeam, AToolsScriptCommandReachesIt) {
  Seam seam;
  ScriptCommands commands;
  seam.tools.addScriptCommands(commands);
  std::istringstream text("0.5 paint red\n1.5 paint blue # later\n");
  ScriptPlayer player(parseInputScript(text, "s.txt", commands));
  player.advance(1.0);
  EXPECT_EQ(seam.probe.painted, std::vector<std::string>{"red"});
  player.advance(2.0);
  EXPECT_EQ(seam.probe.painted, (std::vector<std::string>{"red", "blue"}));
}

/// The error parsing `text` with the probe's commands gives, or empty.
std::string scriptError(const std::string& text) {
  Seam seam;
  ScriptCommands commands;
  seam.tools.addScriptCommands(commands);
  std::istringstream input(text);
  try {
    parseInputScript(input, "s.txt", commands);
  } catch (const InputError& error) {
    return error.what();
  }
  return {};
}

TEST(ViewerToolSeam, AnUnknownCommandIsAnErrorNamingTheLine) {
  EXPECT_EQ(scriptError("0 paint red\n"), "");
  const std::string unknown = scriptError("0 paint red\n\n1 sculpt red\n");
  EXPECT_TRUE(unknown.starts_with("s.txt:3: ")) << unknown;
  EXPECT_NE(unknown.find("sculpt"), std::string::npos) << unknown;
  // The tool's own parsing names the line too.
  EXPECT_TRUE(scriptError("0 paint red\n1 paint green\n").starts_with("s.txt:2: "));
  EXPECT_TRUE(scriptError("0 paint\n").starts_with("s.txt:1: "));
}

TEST(ViewerToolSeam, ACommandRegisteredTwiceIsRefused) {
  ScriptCommands commands;
  ProbeTool a, b;
  a.addScriptCommands(commands);
  EXPECT_THROW(b.addScriptCommands(commands), std::logic_error);
}

}  // namespace
}  // namespace pcv::app
