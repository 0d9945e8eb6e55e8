/// @brief What a browser may send pcv serve, parsed and validated before anything acts on it:
/// the WebSocket's text messages (docs/serve.md) are outside data, so every field is checked for
/// type and range here, and nothing else in the server reads JSON from a client.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace pcv::app {

/// The longest text message a client may send (bytes); the WebSocket refuses longer ones.
constexpr size_t kMaxClientMessageBytes = 4096;
/// The view's size in pixels, each way.
constexpr int kMinViewPx = 16;
constexpr int kMaxViewPx = 4096;

struct ViewSizeMessage {
  int width = 0;   ///< pixels, kMinViewPx..kMaxViewPx
  int height = 0;  ///< pixels
};

enum class DragButton { Left, Right, Middle };
struct DragMessage {
  double dx = 0.0;  ///< pixels, rightwards
  double dy = 0.0;  ///< pixels, downwards
  DragButton button = DragButton::Left;
};

struct WheelMessage {
  double notches = 0.0;  ///< positive: towards the scene
};

/// The fly keys held now.
struct KeysMessage {
  bool forward = false, back = false, left = false, right = false, up = false, down = false,
       fast = false;
};

struct ModeMessage {
  bool orbit = true;  ///< false: fly
};

/// A pixel of the view: focus there (double-click) or say which point is drawn there (pick).
struct FocusMessage {
  int x = 0, y = 0;  ///< pixels from the top left
};
struct PickMessage {
  int x = 0, y = 0;  ///< pixels from the top left
  int64_t id = 0;    ///< repeated in the answer
};

struct HomeMessage {};

/// A view to jump to (a bookmark).
struct ViewMessage {
  std::array<double, 3> eye{};
  double yawDegrees = 0.0;
  double pitchDegrees = 0.0;
  std::optional<double> fovDegrees;
};

/// Drawing settings; only the fields the message holds change.
struct SettingsMessage {
  std::optional<int> pointSize;  ///< pixels, 1..16
  std::optional<bool> edl;
  std::optional<bool> hq;
  std::optional<bool> lossless;
  /// The classes drawn: set (possibly to "all", an empty optional inside) when the message has
  /// "classes"; null there means every class.
  std::optional<std::optional<std::vector<uint8_t>>> classes;
  std::optional<std::string> color;     ///< a colour mode's name (checked by the scene)
  std::optional<uint64_t> pointBudget;  ///< points
};

struct AckMessage {
  uint64_t frame = 0;
};

using ClientMessage =
    std::variant<ViewSizeMessage, DragMessage, WheelMessage, KeysMessage, ModeMessage, FocusMessage,
                 PickMessage, HomeMessage, ViewMessage, SettingsMessage, AckMessage>;

/// The message `text` holds, or why it is refused (`error`, for the client): not JSON, not an
/// object, an unknown type, a field missing, of the wrong type or out of range. Never throws.
struct ParsedClientMessage {
  std::optional<ClientMessage> message;
  /// The message's "seq" (any message may carry one): the status of the first frame drawn
  /// after it says it was applied, so a client measures input to frame.
  std::optional<uint64_t> sequence;
  std::string error;
};
ParsedClientMessage parseClientMessage(std::string_view text);

}  // namespace pcv::app
