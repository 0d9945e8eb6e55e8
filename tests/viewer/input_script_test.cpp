// The input script format tests drive the viewer with.
#include <sstream>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "pcv/core/error.hpp"
#include "test_support.hpp"
#include "viewer/input_script.hpp"

namespace pcv::app {
namespace {

TEST(InputScript, ParsesEveryActionWithComments) {
  std::istringstream text(
      "# warm up\n"
      "0.0 key_down W\n"
      "0.5 key_up w   # lower case too\n"
      "\n"
      "0.6 key_press Escape\n"
      "0.7 mouse_move 10 20.5\n"
      "0.7 mouse_down right\n"
      "0.8 scroll -2\n"
      "0.9 resize 640 480\n"
      "1.0 screenshot /tmp/a.png\n"
      "1.0 mode orbit\n"
      "1.1 double_click 5 6\n"
      "2 quit\n");
  const auto events = parseInputScript(text, "test");
  ASSERT_EQ(events.size(), 11u);
  EXPECT_EQ(events[0].action, ScriptAction::KeyDown);
  EXPECT_EQ(events[0].key, GLFW_KEY_W);
  EXPECT_EQ(events[1].key, GLFW_KEY_W);
  EXPECT_EQ(events[2].key, GLFW_KEY_ESCAPE);
  EXPECT_DOUBLE_EQ(events[3].y, 20.5);
  EXPECT_EQ(events[4].key, GLFW_MOUSE_BUTTON_RIGHT);
  EXPECT_DOUBLE_EQ(events[5].x, -2.0);
  EXPECT_DOUBLE_EQ(events[6].x, 640.0);
  EXPECT_EQ(events[7].text, "/tmp/a.png");
  EXPECT_EQ(events[8].text, "orbit");
  EXPECT_EQ(events[10].action, ScriptAction::Quit);
}

TEST(InputScript, ParsesFileAndColourActions) {
  std::istringstream text(
      "0 open a.las\n0 add b.ply\n0 wait_load\n1 color classification\n"
      "1 color attribute gps_time\n");
  const auto events = parseInputScript(text, "test");
  ASSERT_EQ(events.size(), 5u);
  EXPECT_EQ(events[0].action, ScriptAction::Open);
  EXPECT_EQ(events[0].text, "a.las");
  EXPECT_EQ(events[1].action, ScriptAction::Add);
  EXPECT_EQ(events[2].action, ScriptAction::WaitLoad);
  EXPECT_EQ(events[3].text, "classification");
  EXPECT_EQ(events[4].text, "attribute");
  EXPECT_EQ(events[4].attribute, "gps_time");
  for (const char* bad : {"0 open\n", "0 color\n", "0 color height\n", "0 color attribute\n"}) {
    std::istringstream line(bad);
    EXPECT_THROW(parseInputScript(line, "s"), InputError) << bad;
  }
}

TEST(InputScript, RejectsUnknownKeyWithTheLineNumber) {
  std::istringstream text("0 key_down W\n1 key_down Hyper\n");
  try {
    parseInputScript(text, "s.txt");
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("s.txt:2"), std::string::npos) << error.what();
  }
}

TEST(InputScript, RejectsDecreasingTimesAndTrailingWords) {
  std::istringstream decreasing("1 quit\n0.5 quit\n");
  EXPECT_THROW(parseInputScript(decreasing, "s"), InputError);
  std::istringstream trailing("1 quit now\n");
  EXPECT_THROW(parseInputScript(trailing, "s"), InputError);
  std::istringstream badSize("1 resize 0 10\n");
  EXPECT_THROW(parseInputScript(badSize, "s"), InputError);
}

TEST(InputScript, KeyNames) {
  EXPECT_EQ(keyFromName("F12"), GLFW_KEY_F12);
  EXPECT_EQ(keyFromName("LeftShift"), GLFW_KEY_LEFT_SHIFT);
  EXPECT_EQ(keyFromName("7"), GLFW_KEY_7);
  EXPECT_EQ(keyFromName("F99"), -1);
}

}  // namespace
}  // namespace pcv::app
