#include "server/client_view.hpp"

#include <algorithm>
#include <type_traits>

#include <glm/glm.hpp>

namespace pcv::app {
namespace {

/// While a stream is still loading, a still view is redrawn this often to show what arrived.
constexpr std::chrono::milliseconds kLoadingRedraw{100};
/// A still view whose stream never settles (a server that stopped answering) still gets its
/// final frame after this long.
constexpr std::chrono::seconds kFinalAnyway{5};

std::chrono::nanoseconds frameInterval(double maxFps) {
  return std::chrono::nanoseconds(int64_t(1e9 / std::max(1.0, maxFps)));
}

}  // namespace

ClientView::ClientView(const PacingLimits& limits) : limits_(limits) {}

bool ClientView::keysHeld() const {
  return keys_.forward || keys_.back || keys_.left || keys_.right || keys_.up || keys_.down;
}

bool ClientView::flying() const {
  return keysHeld() && rig_.mode() == CameraMode::Fly;
}

void ClientView::touched(ServerClock::time_point now) {
  changed_ = true;
  finalSent_ = false;
  lastInput_ = now;
}

void ClientView::apply(const ClientMessage& message, ServerClock::time_point now) {
  if (const auto* ack = std::get_if<AckMessage>(&message)) {
    // An acknowledgement of a frame never sent is a confused client: it frees nothing more.
    framesAcknowledged_ = std::max(framesAcknowledged_, std::min(ack->frame, framesSent_));
    return;
  }
  std::visit(
      [&](const auto& m) {
        using Message = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<Message, ViewSizeMessage>) {
          widthPx_ = m.width;
          heightPx_ = m.height;
          sized_ = true;
        } else if constexpr (std::is_same_v<Message, DragMessage>) {
          const glm::dvec2 delta(m.dx, m.dy);
          if (rig_.mode() == CameraMode::Fly) {
            // A drag in fly mode turns the camera, as mouselook does in the window.
            rig_.setMouselook(true);
            rig_.cursorMoved(delta, heightPx_, false, false);
            rig_.setMouselook(false);
          } else {
            rig_.cursorMoved(delta, heightPx_, m.button == DragButton::Left,
                             m.button != DragButton::Left);
          }
        } else if constexpr (std::is_same_v<Message, WheelMessage>) {
          rig_.scrolled(m.notches);
        } else if constexpr (std::is_same_v<Message, KeysMessage>) {
          if (!keysHeld()) lastAdvance_ = now;  // the time without keys is no motion
          keys_ = MotionKeys{m.forward, m.back, m.left, m.right, m.up, m.down, m.fast};
        } else if constexpr (std::is_same_v<Message, ModeMessage>) {
          rig_.setMode(m.orbit ? CameraMode::Orbit : CameraMode::Fly, rig_.orbit().distance());
        } else if constexpr (std::is_same_v<Message, ViewMessage>) {
          Camera camera = rig_.camera();
          camera.eye = glm::dvec3(m.eye[0], m.eye[1], m.eye[2]);
          // Degrees to radians in double, rounded once: the status camera's degrees read back
          // to the same float angles, as `pcv render --yaw --pitch` reads them.
          camera.yawRadians = float(glm::radians(m.yawDegrees));
          camera.pitchRadians = float(glm::radians(m.pitchDegrees));
          if (m.fovDegrees) camera.fovYRadians = float(glm::radians(*m.fovDegrees));
          rig_.jumpTo(camera);
        } else if constexpr (std::is_same_v<Message, SettingsMessage>) {
          if (m.pointSize) settings_.pointSizePx = *m.pointSize;
          if (m.edl) settings_.edl = *m.edl;
          if (m.hq) settings_.hq = *m.hq;
          if (m.lossless) settings_.lossless = *m.lossless;
          if (m.classes) settings_.classes = *m.classes;
        }
      },
      message);
  touched(now);
}

FrameKind ClientView::owed(ServerClock::time_point now, bool sceneSettled) const {
  if (!sized_) return FrameKind::None;
  if (framesInFlight() >= limits_.framesInFlight) return FrameKind::None;
  if (framesSent_ > 0 && now - lastFrame_ < frameInterval(limits_.maxFps)) return FrameKind::None;
  if (changed_ || flying()) return FrameKind::Moving;
  if (finalSent_) return FrameKind::None;
  const auto still = std::chrono::duration<double>(limits_.stillSeconds);
  if (now - lastInput_ < still) return FrameKind::None;
  if (sceneSettled || now - lastInput_ >= kFinalAnyway) return FrameKind::Final;
  return now - lastFrame_ >= kLoadingRedraw ? FrameKind::Moving : FrameKind::None;
}

std::optional<ServerClock::time_point> ClientView::nextChance(ServerClock::time_point now,
                                                              bool sceneSettled) const {
  if (!sized_) return std::nullopt;                                     // its size first
  if (framesInFlight() >= limits_.framesInFlight) return std::nullopt;  // an ack first
  const ServerClock::time_point rateFree =
      framesSent_ > 0 ? lastFrame_ + frameInterval(limits_.maxFps) : now;
  if (changed_ || flying()) return std::max(now, rateFree);
  if (finalSent_) return std::nullopt;
  const auto stillAt = lastInput_ + std::chrono::duration_cast<ServerClock::duration>(
                                        std::chrono::duration<double>(limits_.stillSeconds));
  ServerClock::time_point chance = std::max(rateFree, stillAt);
  if (!sceneSettled) {
    chance = std::min(std::max(chance, lastFrame_ + kLoadingRedraw), lastInput_ + kFinalAnyway);
    chance = std::max({chance, rateFree, stillAt});
  }
  return std::max(now, chance);
}

void ClientView::advance(ServerClock::time_point now) {
  const double dtSeconds = std::chrono::duration<double>(now - lastAdvance_).count();
  lastAdvance_ = now;
  // A long gap (the server busy) moves at most a tenth of a second's worth: no jumps.
  if (keysHeld()) rig_.move(keys_, std::clamp(dtSeconds, 0.0, 0.1));
}

RenderSettings ClientView::renderSettings(const RenderSettings& base, FrameKind kind) const {
  RenderSettings settings = base;
  settings.quality.pointSizePx = settings_.pointSizePx;
  settings.quality.edl = settings_.edl ? EdlMode::On : EdlMode::Off;
  settings.quality.highQuality = settings_.hq && kind == FrameKind::Final;
  if (settings_.classes) {
    settings.filter.classes = ClassSet::none();
    for (const uint8_t c : *settings_.classes) settings.filter.classes.set(c, true);
  }
  return settings;
}

uint64_t ClientView::frameSent(FrameKind kind, ServerClock::time_point now) {
  ++framesSent_;
  lastFrame_ = now;
  changed_ = false;
  if (kind == FrameKind::Final) finalSent_ = true;
  return framesSent_;
}

}  // namespace pcv::app
