/// @brief One browser's view of the shared scene: its camera rig, size and drawing settings,
/// the keys it holds, and when it is owed a frame (moving, the final frame of a still view)
/// under the frame-rate limit and the acknowledgement window. Plain state driven by parsed
/// messages and a clock, so the pacing is tested without a network or a renderer.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "camera/camera_rig.hpp"
#include "camera/motion_keys.hpp"
#include "pcv/raster/render_settings.hpp"
#include "server/client_message.hpp"

namespace pcv::app {

using ServerClock = std::chrono::steady_clock;

/// A client's own drawing settings (the colouring and the point budget are the scene's).
struct ClientSettings {
  int pointSizePx = 1;    ///< 1..16
  bool edl = false;       ///< eye-dome lighting
  bool hq = true;         ///< blend the closest points' colours in the final frame
  bool lossless = false;  ///< the final frame as PNG instead of JPEG
  std::optional<std::vector<uint8_t>> classes;  ///< drawn classes; empty: all
};

enum class FrameKind {
  None,    ///< nothing owed now
  Moving,  ///< the view changes: a fast frame (no HQ, JPEG)
  Final,   ///< the view stopped: every pass asked for, losslessly if asked
};

struct PacingLimits {
  double maxFps = 75.0;        ///< frames a second per client at most
  int framesInFlight = 2;      ///< frames sent and not yet acknowledged, at most
  double stillSeconds = 0.15;  ///< no input for this long: the view is still
};

class ClientView {
 public:
  explicit ClientView(const PacingLimits& limits = {});

  CameraRig& rig() { return rig_; }
  const CameraRig& rig() const { return rig_; }
  int widthPx() const { return widthPx_; }
  int heightPx() const { return heightPx_; }
  float aspect() const { return float(widthPx_) / float(heightPx_); }
  const ClientSettings& settings() const { return settings_; }

  /// Applies what the view itself answers: size, drag, wheel, keys, mode, a bookmark, its own
  /// settings, acknowledgements. Focus, pick, home and the scene's settings are the caller's
  /// (they need the scene); any message counts as input that changes the view.
  void apply(const ClientMessage& message, ServerClock::time_point now);
  /// A message with this "seq" was taken (by apply() or the caller): frames drawn from now on
  /// say so.
  void noteSequence(uint64_t sequence) { inputSequence_ = std::max(inputSequence_, sequence); }
  /// The "seq" of the last message taken that carried one (0: none yet).
  uint64_t inputSequence() const { return inputSequence_; }
  /// Something the caller changed (focus, home, the scene): a frame is owed.
  void touched(ServerClock::time_point now);
  /// The scene shown changed (nodes arrived, files loaded): a moving frame is owed, and the
  /// final one after it.
  void sceneChanged() {
    changed_ = true;
    finalSent_ = false;
  }

  /// The frame owed at `now`: none before the client said its size (a frame at another size
  /// would be wasted), while two frames await acknowledgement or the frame-rate limit holds; moving
  /// while the view changes or keys are held; the final frame once still and `sceneSettled` (every
  /// node the view wants resident).
  FrameKind owed(ServerClock::time_point now, bool sceneSettled) const;
  /// When owed() may next say something other than None without new input (for the render
  /// loop's wait); nullopt when only input or an acknowledgement can change it.
  std::optional<ServerClock::time_point> nextChance(ServerClock::time_point now,
                                                    bool sceneSettled) const;
  /// Moves the camera by the keys held since the last call (fly mode).
  void advance(ServerClock::time_point now);
  /// `base` (the scene's settings) with this client's, for a frame of `kind`.
  RenderSettings renderSettings(const RenderSettings& base, FrameKind kind) const;
  /// A frame that could not be drawn (the renderer refused it): nothing more is owed until the
  /// client changes something, so the failure is not repeated at the frame rate.
  void drawFailed() {
    changed_ = false;
    finalSent_ = true;
  }
  /// Records a frame drawn and sent; returns its number (from 1).
  uint64_t frameSent(FrameKind kind, ServerClock::time_point now);
  uint64_t framesSent() const { return framesSent_; }
  int framesInFlight() const { return int(framesSent_ - framesAcknowledged_); }

 private:
  bool keysHeld() const;
  bool flying() const;  ///< keys held in fly mode: the camera moves every frame

  PacingLimits limits_;
  CameraRig rig_;
  int widthPx_ = 1280;
  int heightPx_ = 720;
  ClientSettings settings_;
  MotionKeys keys_;
  bool sized_ = false;   // the client said its size
  bool changed_ = true;  // a frame is owed for input or a scene change
  bool finalSent_ = false;
  ServerClock::time_point lastInput_{};
  ServerClock::time_point lastFrame_{};
  ServerClock::time_point lastAdvance_{};
  uint64_t inputSequence_ = 0;
  uint64_t framesSent_ = 0;
  uint64_t framesAcknowledged_ = 0;
};

}  // namespace pcv::app
