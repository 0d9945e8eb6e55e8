/// @brief The Path tool's state without a window: keyframes taken from views or bookmarks, the
/// path they make (pcv/core/camera_path.hpp), and playing it at a speed, once or in a loop,
/// on the viewer's clock. The tool (path_tool.hpp) draws its section and moves the camera.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "pcv/core/camera.hpp"
#include "pcv/core/camera_path.hpp"

namespace pcv::app {

/// A camera's eye, yaw and pitch as a key (degrees, no time: the path times it).
CameraKey keyOf(const Camera& camera);

class PathPlayer {
 public:
  const std::vector<CameraKey>& keys() const { return keys_; }
  /// Appends a key; the path is made again and playback goes back to its start.
  void add(const CameraKey& key);
  /// Removes key `index` (ignored when there is none).
  void remove(size_t index);
  /// Replaces every key (a file loaded, the bookmarks taken). Throws CameraPathError for keys
  /// that make no path, keeping the old ones.
  void replace(std::vector<CameraKey> keys);
  void clear();

  /// The path of the keys; null while there are none.
  const CameraPath* path() const { return path_ ? &*path_ : nullptr; }

  bool playing() const { return playing_; }
  /// Starts (from the start when the end was reached and not looping) or pauses. Playing needs
  /// two keys or more; with fewer it stays paused.
  void setPlaying(bool playing);
  bool looping() const { return looping_; }
  void setLooping(bool looping) { looping_ = looping; }
  /// Path seconds per second of the viewer's clock (0.05 .. 20).
  double speed() const { return speed_; }
  void setSpeed(double speed);
  /// Seconds since the path's start (0 .. its duration).
  double position() const { return position_; }
  /// Jumps to `seconds` since the start (clamped).
  void seek(double seconds);

  /// Advances the clock by `dtSeconds` of the viewer's time; while playing, returns the pose
  /// to show (the end, once, when a path not looping finishes there and stops).
  std::optional<CameraPose> advance(double dtSeconds);
  /// The pose at the current position; empty without keys.
  std::optional<CameraPose> pose() const;

 private:
  void rebuild();
  std::vector<CameraKey> keys_;
  std::optional<CameraPath> path_;
  bool playing_ = false;
  bool looping_ = true;
  double speed_ = 1.0;
  double position_ = 0.0;
};

}  // namespace pcv::app
