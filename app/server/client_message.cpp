#include "server/client_message.hpp"

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

namespace pcv::app {
namespace {

using nlohmann::json;

/// A field refused: the message is dropped with this text.
struct Refusal {
  std::string what;
};

const json& field(const json& object, const char* name) {
  const auto it = object.find(name);
  if (it == object.end()) throw Refusal{std::string("'") + name + "' is missing"};
  return *it;
}

double number(const json& object, const char* name, double low, double high) {
  const json& value = field(object, name);
  if (!value.is_number()) throw Refusal{std::string("'") + name + "' must be a number"};
  const double x = value.get<double>();
  if (!std::isfinite(x) || x < low || x > high) {
    throw Refusal{std::string("'") + name + "' must lie in [" + json(low).dump() + ", " +
                  json(high).dump() + "]"};
  }
  return x;
}

int integer(const json& object, const char* name, int low, int high) {
  const json& value = field(object, name);
  if (!value.is_number_integer()) throw Refusal{std::string("'") + name + "' must be an integer"};
  const int64_t x = value.get<int64_t>();
  if (x < low || x > high) {
    throw Refusal{std::string("'") + name + "' must lie in [" + std::to_string(low) + ", " +
                  std::to_string(high) + "]"};
  }
  return int(x);
}

bool boolean(const json& value, const char* name) {
  if (!value.is_boolean()) throw Refusal{std::string("'") + name + "' must be true or false"};
  return value.get<bool>();
}

/// Pixel coordinates: inside the largest view.
constexpr int kMaxPixel = kMaxViewPx - 1;
/// A drag or wheel larger than any screen is a forged message, not a hand.
constexpr double kMaxDragPx = 1.0e5;
constexpr double kMaxNotches = 1.0e3;
/// World coordinates: projected and geocentric systems stay far inside this.
constexpr double kMaxCoordinate = 1.0e9;

DragMessage parseDrag(const json& message) {
  DragMessage drag{number(message, "dx", -kMaxDragPx, kMaxDragPx),
                   number(message, "dy", -kMaxDragPx, kMaxDragPx)};
  const json& button = field(message, "button");
  if (button == "left") {
    drag.button = DragButton::Left;
  } else if (button == "right") {
    drag.button = DragButton::Right;
  } else if (button == "middle") {
    drag.button = DragButton::Middle;
  } else {
    throw Refusal{"'button' must be \"left\", \"right\" or \"middle\""};
  }
  return drag;
}

KeysMessage parseKeys(const json& message) {
  const json& held = field(message, "held");
  if (!held.is_array() || held.size() > 16) throw Refusal{"'held' must be a short list of keys"};
  KeysMessage keys;
  for (const json& key : held) {
    if (key == "forward") {
      keys.forward = true;
    } else if (key == "back") {
      keys.back = true;
    } else if (key == "left") {
      keys.left = true;
    } else if (key == "right") {
      keys.right = true;
    } else if (key == "up") {
      keys.up = true;
    } else if (key == "down") {
      keys.down = true;
    } else if (key == "fast") {
      keys.fast = true;
    } else {
      throw Refusal{"'held' names forward, back, left, right, up, down and fast only"};
    }
  }
  return keys;
}

ViewMessage parseView(const json& message) {
  const json& eye = field(message, "eye");
  if (!eye.is_array() || eye.size() != 3) throw Refusal{"'eye' must be [x, y, z]"};
  ViewMessage view;
  for (size_t i = 0; i < 3; ++i) {
    if (!eye[i].is_number() || !std::isfinite(eye[i].get<double>()) ||
        std::abs(eye[i].get<double>()) > kMaxCoordinate) {
      throw Refusal{"'eye' must hold three finite coordinates"};
    }
    view.eye[i] = eye[i].get<double>();
  }
  view.yawDegrees = number(message, "yaw", -3600.0, 3600.0);
  view.pitchDegrees = number(message, "pitch", -90.0, 90.0);
  if (message.contains("fov")) view.fovDegrees = number(message, "fov", 1.0, 170.0);
  return view;
}

SettingsMessage parseSettings(const json& message) {
  SettingsMessage settings;
  for (const auto& [name, value] : message.items()) {
    if (name == "type" || name == "seq") continue;
    if (name == "pointSize") {
      settings.pointSize = integer(message, "pointSize", 1, 16);
    } else if (name == "edl") {
      settings.edl = boolean(value, "edl");
    } else if (name == "hq") {
      settings.hq = boolean(value, "hq");
    } else if (name == "lossless") {
      settings.lossless = boolean(value, "lossless");
    } else if (name == "classes") {
      if (value.is_null()) {
        settings.classes = std::optional<std::vector<uint8_t>>();
        continue;
      }
      if (!value.is_array() || value.size() > 256) {
        throw Refusal{"'classes' must be null or a list of classes 0-255"};
      }
      std::vector<uint8_t> classes;
      for (const json& c : value) {
        if (!c.is_number_integer() || c.get<int64_t>() < 0 || c.get<int64_t>() > 255) {
          throw Refusal{"'classes' must be null or a list of classes 0-255"};
        }
        classes.push_back(uint8_t(c.get<int64_t>()));
      }
      settings.classes = std::optional<std::vector<uint8_t>>(std::move(classes));
    } else if (name == "color") {
      if (!value.is_string() || value.get<std::string>().size() > 64) {
        throw Refusal{"'color' must be a colour mode's name"};
      }
      settings.color = value.get<std::string>();
    } else if (name == "pointBudget") {
      if (!value.is_number_unsigned() || value.get<uint64_t>() < 1000 ||
          value.get<uint64_t>() > (uint64_t(1) << 40)) {
        throw Refusal{"'pointBudget' must be a number of points from 1000"};
      }
      settings.pointBudget = value.get<uint64_t>();
    } else {
      throw Refusal{"unknown setting '" + name + "'"};
    }
  }
  return settings;
}

ClientMessage parseObject(const json& message) {
  const json& type = field(message, "type");
  if (!type.is_string()) throw Refusal{"'type' must be a string"};
  const std::string& name = type.get_ref<const std::string&>();
  if (name == "size") {
    return ViewSizeMessage{integer(message, "width", kMinViewPx, kMaxViewPx),
                           integer(message, "height", kMinViewPx, kMaxViewPx)};
  }
  if (name == "drag") return parseDrag(message);
  if (name == "wheel") return WheelMessage{number(message, "notches", -kMaxNotches, kMaxNotches)};
  if (name == "keys") return parseKeys(message);
  if (name == "mode") {
    const json& camera = field(message, "camera");
    if (camera != "orbit" && camera != "fly")
      throw Refusal{"'camera' must be \"orbit\" or \"fly\""};
    return ModeMessage{camera == "orbit"};
  }
  if (name == "focus") {
    return FocusMessage{integer(message, "x", 0, kMaxPixel), integer(message, "y", 0, kMaxPixel)};
  }
  if (name == "pick") {
    const json& id = field(message, "id");
    if (!id.is_number_integer()) throw Refusal{"'id' must be an integer"};
    return PickMessage{integer(message, "x", 0, kMaxPixel), integer(message, "y", 0, kMaxPixel),
                       id.get<int64_t>()};
  }
  if (name == "home") return HomeMessage{};
  if (name == "view") return parseView(message);
  if (name == "settings") return parseSettings(message);
  if (name == "ack") {
    const json& frame = field(message, "frame");
    if (!frame.is_number_unsigned()) throw Refusal{"'frame' must be a frame number"};
    return AckMessage{frame.get<uint64_t>()};
  }
  throw Refusal{"unknown message type '" + name.substr(0, 32) + "'"};
}

}  // namespace

ParsedClientMessage parseClientMessage(std::string_view text) {
  if (text.size() > kMaxClientMessageBytes) {
    return {std::nullopt, std::nullopt,
            "a message may hold " + std::to_string(kMaxClientMessageBytes) + " bytes at most"};
  }
  const json message = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) return {std::nullopt, std::nullopt, "not JSON"};
  if (!message.is_object()) return {std::nullopt, std::nullopt, "a message must be a JSON object"};
  try {
    std::optional<uint64_t> sequence;
    if (const auto seq = message.find("seq"); seq != message.end()) {
      if (!seq->is_number_unsigned()) throw Refusal{"'seq' must be a number from 0"};
      sequence = seq->get<uint64_t>();
    }
    return {parseObject(message), sequence, {}};
  } catch (const Refusal& refusal) {
    return {std::nullopt, std::nullopt, refusal.what};
  } catch (const json::exception& error) {
    return {std::nullopt, std::nullopt, std::string("malformed message: ") + error.what()};
  }
}

}  // namespace pcv::app
