// What a browser may send pcv serve: every message type parsed with its fields, and anything
// else refused with a reason, never a throw.
#include <gtest/gtest.h>

#include <string>

#include "server/client_message.hpp"

namespace pcv::app {
namespace {

template <class Message>
Message parsedAs(const std::string& text) {
  const ParsedClientMessage parsed = parseClientMessage(text);
  EXPECT_TRUE(parsed.message) << text << ": " << parsed.error;
  if (!parsed.message) return {};
  EXPECT_TRUE(std::holds_alternative<Message>(*parsed.message)) << text;
  return std::holds_alternative<Message>(*parsed.message) ? std::get<Message>(*parsed.message)
                                                          : Message{};
}

void expectRefused(const std::string& text) {
  const ParsedClientMessage parsed = parseClientMessage(text);
  EXPECT_FALSE(parsed.message) << text;
  EXPECT_FALSE(parsed.error.empty()) << text;
}

TEST(ClientMessage, EveryTypeIsParsedWithItsFields) {
  const auto size = parsedAs<ViewSizeMessage>(R"({"type":"size","width":640,"height":360})");
  EXPECT_EQ(size.width, 640);
  EXPECT_EQ(size.height, 360);
  const auto drag = parsedAs<DragMessage>(R"({"type":"drag","dx":-3.5,"dy":2,"button":"right"})");
  EXPECT_EQ(drag.dx, -3.5);
  EXPECT_EQ(drag.dy, 2.0);
  EXPECT_EQ(drag.button, DragButton::Right);
  EXPECT_EQ(parsedAs<WheelMessage>(R"({"type":"wheel","notches":-1.5})").notches, -1.5);
  const auto keys = parsedAs<KeysMessage>(R"({"type":"keys","held":["forward","fast"]})");
  EXPECT_TRUE(keys.forward && keys.fast);
  EXPECT_FALSE(keys.back || keys.left || keys.right || keys.up || keys.down);
  EXPECT_FALSE(parsedAs<ModeMessage>(R"({"type":"mode","camera":"fly"})").orbit);
  const auto focus = parsedAs<FocusMessage>(R"({"type":"focus","x":10,"y":20})");
  EXPECT_EQ(focus.x, 10);
  EXPECT_EQ(focus.y, 20);
  const auto pick = parsedAs<PickMessage>(R"({"type":"pick","x":1,"y":2,"id":77})");
  EXPECT_EQ(pick.id, 77);
  parsedAs<HomeMessage>(R"({"type":"home"})");
  const auto view =
      parsedAs<ViewMessage>(R"({"type":"view","eye":[500000.25,-2,3],"yaw":-30,"pitch":12.5})");
  EXPECT_EQ(view.eye[0], 500000.25);
  EXPECT_EQ(view.yawDegrees, -30.0);
  EXPECT_FALSE(view.fovDegrees);
  const auto settings = parsedAs<SettingsMessage>(
      R"({"type":"settings","pointSize":3,"edl":true,"classes":[2,6],"lossless":true})");
  EXPECT_EQ(settings.pointSize, 3);
  EXPECT_EQ(settings.edl, true);
  EXPECT_EQ(settings.lossless, true);
  EXPECT_FALSE(settings.hq);
  ASSERT_TRUE(settings.classes && *settings.classes);
  EXPECT_EQ(**settings.classes, (std::vector<uint8_t>{2, 6}));
  const auto all = parsedAs<SettingsMessage>(R"({"type":"settings","classes":null})");
  ASSERT_TRUE(all.classes);
  EXPECT_FALSE(*all.classes);
  EXPECT_EQ(parsedAs<AckMessage>(R"({"type":"ack","frame":12})").frame, 12u);
}

TEST(ClientMessage, MalformedMessagesAreRefusedWithAReason) {
  expectRefused("");
  expectRefused("not json");
  expectRefused("[1,2]");
  expectRefused(R"({"width":3})");                                  // no type
  expectRefused(R"({"type":7})");                                   // type not a string
  expectRefused(R"({"type":"shutdown"})");                          // unknown type
  expectRefused(R"({"type":"size","width":640})");                  // a field missing
  expectRefused(R"({"type":"size","width":"640","height":360})");   // the wrong type
  expectRefused(R"({"type":"size","width":100000,"height":360})");  // out of range
  expectRefused(R"({"type":"size","width":8,"height":360})");       // too small
  expectRefused(R"({"type":"drag","dx":1e300,"dy":0,"button":"left"})");
  expectRefused(R"({"type":"drag","dx":1,"dy":0,"button":"thumb"})");
  expectRefused(R"({"type":"keys","held":["jump"]})");
  expectRefused(R"({"type":"focus","x":-1,"y":0})");
  expectRefused(R"({"type":"view","eye":[1,2],"yaw":0,"pitch":0})");
  expectRefused(R"({"type":"view","eye":[1,2,3],"yaw":0,"pitch":91})");
  expectRefused(R"({"type":"settings","pointSize":0})");
  expectRefused(R"({"type":"settings","classes":[300]})");
  expectRefused(R"({"type":"settings","path":"/etc/passwd"})");  // unknown setting
  expectRefused(R"({"type":"settings","pointBudget":-5})");
  expectRefused(R"({"type":"ack","frame":-1})");
}

TEST(ClientMessage, OversizedAndDeeplyNestedMessagesAreRefused) {
  expectRefused(R"({"type":"home","pad":")" + std::string(kMaxClientMessageBytes, 'x') + "\"}");
  // Nesting as deep as the size allows is refused, not a stack overflow.
  const size_t depth = kMaxClientMessageBytes / 2 - 1;
  expectRefused(std::string(depth, '[') + std::string(depth, ']'));
}

}  // namespace
}  // namespace pcv::app
