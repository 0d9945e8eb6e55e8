// The input script tests drive the viewer with: the window's own commands parsed into calls on
// the window, comments, errors naming the line, and the player's clock and waiting.
#include <sstream>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "pcv/core/error.hpp"
#include "test_support.hpp"
#include "viewer/input/input_script.hpp"
#include "viewer/window_commands.hpp"

namespace pcv::app {
namespace {

/// Records each call as one line of text.
class RecordingWindow : public ScriptedWindow {
 public:
  std::vector<std::string> calls;
  bool isLoading = false;

  void key(int key, int action) override { record("key", key, action); }
  void cursor(glm::dvec2 at) override { record("cursor", at.x, at.y); }
  void mouseButton(int button, int action) override { record("button", button, action); }
  void scroll(double notches) override { record("scroll", notches); }
  void doubleClick(glm::dvec2 at) override { record("double_click", at.x, at.y); }
  void resize(int width, int height) override { record("resize", width, height); }
  void shoot(ShotKind kind, const std::string& path) override { record("shot", int(kind), path); }
  void setMode(CameraMode mode) override { record("mode", mode == CameraMode::Orbit ? 1 : 0); }
  void openFile(const std::string& path, bool replace) override { record("open", path, replace); }
  void drop(const std::string& path) override { record("drop", path); }
  void closeStream() override { record("close_stream"); }
  void removeFiles() override { record("remove_files"); }
  void frameTile(size_t index) override { record("frame_tile", int(index)); }
  void showTileBoxes(bool shown) override { record("tile_boxes", shown ? 1 : 0); }
  void collapseSidebar(bool collapsed) override { record("sidebar", collapsed ? 1 : 0); }
  void color(const std::string& mode, const std::string& attribute) override {
    record("color", mode, attribute);
  }
  bool loading() const override { return isLoading; }
  void quit() override { record("quit"); }

 private:
  template <typename... Args>
  void record(const char* name, const Args&... args) {
    std::ostringstream line;
    line << name;
    ((line << " " << args), ...);
    calls.push_back(line.str());
  }
};

/// Parses `text` with the window's commands and runs every event.
std::vector<std::string> run(const std::string& text) {
  RecordingWindow window;
  ScriptCommands commands;
  addWindowCommands(commands, window);
  std::istringstream input(text);
  ScriptPlayer player(parseInputScript(input, "test", commands));
  player.advance(1e9);
  return window.calls;
}

/// The error the script gives, or empty.
std::string errorOf(const std::string& text) {
  RecordingWindow window;
  ScriptCommands commands;
  addWindowCommands(commands, window);
  std::istringstream input(text);
  try {
    parseInputScript(input, "s.txt", commands);
  } catch (const InputError& error) {
    return error.what();
  }
  return {};
}

TEST(InputScript, ParsesEveryWindowCommandWithComments) {
  const std::vector<std::string> calls =
      run("# warm up\n"
          "0.0 key_down W\n"
          "0.5 key_up w   # lower case too\n"
          "\n"
          "0.6 key_press Escape\n"
          "0.7 mouse_move 10 20.5\n"
          "0.7 mouse_down right\n"
          "0.7 mouse_up middle\n"
          "0.8 scroll -2\n"
          "0.9 resize 640 480\n"
          "1.0 screenshot /tmp/a.png\n"
          "1.0 window_shot /tmp/b.png\n"
          "1.0 ui_shot /tmp/c.png\n"
          "1.0 mode orbit\n"
          "1.1 double_click 5 6\n"
          "2 quit\n");
  const std::vector<std::string> expected = {
      "key " + std::to_string(GLFW_KEY_W) + " " + std::to_string(GLFW_PRESS),
      "key " + std::to_string(GLFW_KEY_W) + " " + std::to_string(GLFW_RELEASE),
      "key " + std::to_string(GLFW_KEY_ESCAPE) + " " + std::to_string(GLFW_PRESS),
      "key " + std::to_string(GLFW_KEY_ESCAPE) + " " + std::to_string(GLFW_RELEASE),
      "cursor 10 20.5",
      "button " + std::to_string(GLFW_MOUSE_BUTTON_RIGHT) + " " + std::to_string(GLFW_PRESS),
      "button " + std::to_string(GLFW_MOUSE_BUTTON_MIDDLE) + " " + std::to_string(GLFW_RELEASE),
      "scroll -2",
      "resize 640 480",
      "shot 0 /tmp/a.png",
      "shot 1 /tmp/b.png",
      "shot 2 /tmp/c.png",
      "mode 1",
      "double_click 5 6",
      "quit"};
  EXPECT_EQ(calls, expected);
}

TEST(InputScript, ParsesFileAndColorCommands) {
  const std::vector<std::string> calls =
      run("0 open a.las\n0 add b.ply\n0 drop c.xyz\n0 wait_load\n1 color classification\n"
          "1 color attribute gps_time\n2 close_stream\n2 remove_files\n");
  const std::vector<std::string> expected = {"open a.las 1",
                                             "open b.ply 0",
                                             "drop c.xyz",
                                             "color classification ",
                                             "color attribute gps_time",
                                             "close_stream",
                                             "remove_files"};
  EXPECT_EQ(calls, expected);
  for (const char* bad :
       {"0 open\n", "0 color\n", "0 color height\n", "0 color attribute\n", "0 mode walk\n",
        "0 mouse_down thumb\n", "0 double_click 5\n", "0 close_stream now\n"}) {
    EXPECT_FALSE(errorOf(bad).empty()) << bad;
  }
}

TEST(InputScript, ParsesSidebarCommand) {
  const std::vector<std::string> expected = {"sidebar 1", "sidebar 0"};
  EXPECT_EQ(run("0 sidebar collapsed\n1 sidebar open\n"), expected);
  for (const char* bad : {"0 sidebar\n", "0 sidebar hidden\n", "0 sidebar open now\n"}) {
    EXPECT_FALSE(errorOf(bad).empty()) << bad;
  }
}

TEST(InputScript, RejectsUnknownKeyWithTheLineNumber) {
  const std::string error = errorOf("0 key_down W\n1 key_down Hyper\n");
  EXPECT_TRUE(error.starts_with("s.txt:2: ")) << error;
}

TEST(InputScript, RejectsDecreasingTimesAndTrailingWords) {
  EXPECT_TRUE(errorOf("1 quit\n0.5 quit\n").starts_with("s.txt:2: "));
  EXPECT_TRUE(errorOf("1 quit now\n").starts_with("s.txt:1: "));
  EXPECT_TRUE(errorOf("1 resize 0 10\n").starts_with("s.txt:1: "));
  EXPECT_TRUE(errorOf("quit\n").starts_with("s.txt:1: "));
  EXPECT_TRUE(errorOf("1\n").starts_with("s.txt:1: "));
}

TEST(InputScript, WaitLoadHoldsLaterEventsUntilLoadingEnds) {
  RecordingWindow window;
  ScriptCommands commands;
  addWindowCommands(commands, window);
  std::istringstream input("0 wait_load\n0.1 quit\n");
  ScriptPlayer player(parseInputScript(input, "test", commands));
  window.isLoading = true;
  player.advance(1.0);
  EXPECT_TRUE(window.calls.empty());
  window.isLoading = false;
  player.advance(1.0);
  EXPECT_EQ(window.calls, std::vector<std::string>{"quit"});
}

TEST(InputScript, EventsRunWhenTheClockReachesThem) {
  RecordingWindow window;
  ScriptCommands commands;
  addWindowCommands(commands, window);
  std::istringstream input("0.5 scroll 1\n1.5 scroll 2\n");
  ScriptPlayer player(parseInputScript(input, "test", commands));
  player.advance(0.4);
  EXPECT_TRUE(window.calls.empty());
  player.advance(1.0);
  EXPECT_EQ(window.calls, std::vector<std::string>{"scroll 1"});
  player.advance(1.5);
  EXPECT_EQ(window.calls.size(), 2u);
}

TEST(InputScript, KeyNames) {
  EXPECT_EQ(keyFromName("F12"), GLFW_KEY_F12);
  EXPECT_EQ(keyFromName("LeftShift"), GLFW_KEY_LEFT_SHIFT);
  EXPECT_EQ(keyFromName("7"), GLFW_KEY_7);
  EXPECT_EQ(keyFromName("Delete"), GLFW_KEY_DELETE);
  EXPECT_EQ(keyFromName("F99"), -1);
  EXPECT_EQ(buttonFromName("middle"), GLFW_MOUSE_BUTTON_MIDDLE);
  EXPECT_EQ(buttonFromName("thumb"), -1);
}

}  // namespace
}  // namespace pcv::app
