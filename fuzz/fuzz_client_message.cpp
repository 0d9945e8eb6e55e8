// libFuzzer target for what browsers send pcv serve (app/server/client_message.cpp): any bytes
// must parse into a message whose fields lie in their ranges, or be refused with a reason;
// never a crash, a hang or an exception.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <variant>

#include "server/client_message.hpp"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pcv::app;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ParsedClientMessage parsed = parseClientMessage(text);
  check(parsed.message.has_value() != !parsed.error.empty());
  if (!parsed.message) return 0;
  check(size <= kMaxClientMessageBytes);
  if (const auto* view = std::get_if<ViewSizeMessage>(&*parsed.message)) {
    check(view->width >= kMinViewPx && view->width <= kMaxViewPx);
    check(view->height >= kMinViewPx && view->height <= kMaxViewPx);
  } else if (const auto* drag = std::get_if<DragMessage>(&*parsed.message)) {
    check(std::isfinite(drag->dx) && std::isfinite(drag->dy));
  } else if (const auto* focus = std::get_if<FocusMessage>(&*parsed.message)) {
    check(focus->x >= 0 && focus->x < kMaxViewPx && focus->y >= 0 && focus->y < kMaxViewPx);
  } else if (const auto* pick = std::get_if<PickMessage>(&*parsed.message)) {
    check(pick->x >= 0 && pick->x < kMaxViewPx && pick->y >= 0 && pick->y < kMaxViewPx);
  } else if (const auto* view = std::get_if<ViewMessage>(&*parsed.message)) {
    for (const double c : view->eye) check(std::isfinite(c));
    check(view->pitchDegrees >= -90.0 && view->pitchDegrees <= 90.0);
  } else if (const auto* settings = std::get_if<SettingsMessage>(&*parsed.message)) {
    if (settings->pointSize) check(*settings->pointSize >= 1 && *settings->pointSize <= 16);
  }
  return 0;
}
