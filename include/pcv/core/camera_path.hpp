/// @brief A camera path: keyframes (eye, yaw, pitch, optional time) joined by a smooth curve, for
/// flying through a scene in the viewer and rendering the flight to frames or a video. No file
/// format here (pcv/session/camera_path_file.hpp reads and writes the JSON).
//
// The choices, and why:
// - Shape and timing are one curve: each key is reached at its time, and the eye follows a
//   non-uniform Catmull-Rom spline whose knots are the key times (the Barry-Goldman form). It
//   passes through every key exactly and is C1 in time (the velocity is continuous at the
//   keys), so a video has no jolts there.
// - Key times: given on every key ("per-key timing"), or, when no key has one, centripetal:
//   the time between two keys grows with the square root of the distance between their eyes
//   (the centripetal Catmull-Rom of Yuksel et al., which makes no cusps or loops within a
//   segment). A key that only turns (its eye where the last one was) still gets a quarter of
//   the mean segment's time, so the turn is not instantaneous. The default path lasts
//   kDefaultSecondsPerSegment per segment on average.
// - Speed is therefore not constant: longer segments are flown faster (as the square root of
//   their length). timeAtDistance() gives the times of equal steps along the path instead, for
//   a constant-speed flight.
// - Angles: yaw is unwrapped key by key (each key's yaw moved by whole turns to within 180
//   degrees of the previous key's), so 350 -> 10 turns 20 degrees, not 340. Yaw and pitch
//   follow the same spline in time as the eye; pitch is clamped to [-90, 90] after.
// - The ends: phantom keys mirror the second key (and the second-to-last) through the end key,
//   so a path of two keys is a straight line at constant speed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/camera.hpp"
#include "pcv/core/error.hpp"

namespace pcv {

/// A path that cannot be made, or a path file that cannot be read: besides the message (the
/// source, where, what was expected), which key and field it concerns, for callers and tests.
class CameraPathError : public InputError {
 public:
  CameraPathError(const std::string& message, std::optional<size_t> key, std::string field,
                  std::optional<size_t> byteOffset = std::nullopt)
      : InputError(message), key_(key), field_(std::move(field)), byteOffset_(byteOffset) {}
  /// The key (0-based) at fault; empty for the file as a whole.
  std::optional<size_t> key() const { return key_; }
  /// "eye", "yaw", "pitch", "time", or "" for the key or file as a whole.
  const std::string& field() const { return field_; }
  /// Where in the text a JSON syntax error is; empty for errors found after parsing.
  std::optional<size_t> byteOffset() const { return byteOffset_; }

 private:
  std::optional<size_t> key_;
  std::string field_;
  std::optional<size_t> byteOffset_;
};

/// One keyframe; angles in degrees with the Camera's conventions (yaw about the up axis, 0
/// along +x; pitch above the horizon).
struct CameraKey {
  glm::dvec3 eye{0.0};
  double yawDegrees = 0.0;
  double pitchDegrees = 0.0;
  std::optional<double> timeSeconds;  ///< when the path reaches this key; all keys or none

  bool operator==(const CameraKey&) const = default;
};

/// Where the camera is at a time along a path.
struct CameraPose {
  glm::dvec3 eye{0.0};
  double yawDegrees = 0.0;  ///< unwrapped: may lie outside [-180, 180]
  double pitchDegrees = 0.0;

  /// `base` (its field of view, near, far and up axis) moved to this pose. The angles are
  /// converted as pcv render's --yaw and --pitch are, so a key renders as those flags do.
  Camera applyTo(Camera base) const;
};

class CameraPath {
 public:
  /// Seconds per segment of a path whose keys have no times, on average.
  static constexpr double kDefaultSecondsPerSegment = 2.0;

  /// A path through `keys` (at least one). Throws CameraPathError when there is none, when some
  /// keys have times and others not, when times do not increase strictly, when a number is not
  /// finite or a pitch lies outside [-90, 90].
  explicit CameraPath(std::vector<CameraKey> keys);

  /// The keys as given.
  const std::vector<CameraKey>& keys() const { return keys_; }
  /// When the path reaches each key (given, or the centripetal defaults); the first is where
  /// the path starts, not necessarily 0.
  const std::vector<double>& keyTimes() const { return times_; }
  double startSeconds() const { return times_.front(); }
  double endSeconds() const { return times_.back(); }
  double durationSeconds() const { return times_.back() - times_.front(); }

  /// The pose at `seconds`, clamped to the path's span. At a key's time it is that key exactly
  /// (the yaw unwrapped).
  CameraPose at(double seconds) const;
  /// The time of frame `frame` of `frameCount` spread evenly over the path, first and last
  /// frame on the first and last key exactly.
  double frameTime(uint64_t frame, uint64_t frameCount) const;

  /// The time at which the eye has travelled `fraction` (0..1) of the path's length (measured
  /// on a dense sampling of the curve): for constant-speed frames. A path whose eye does not
  /// move falls back to time.
  double timeAtDistance(double fraction) const;
  /// The eye's path length (world units), from the same sampling.
  double length() const { return cumulativeLength_.empty() ? 0.0 : cumulativeLength_.back(); }

 private:
  /// Catmull-Rom of the values of segment `segment` (between key segment and segment + 1) at t.
  glm::dvec3 eyeAt(size_t segment, double t) const;
  void sampleLength();

  std::vector<CameraKey> keys_;
  std::vector<double> times_;
  std::vector<glm::dvec3> eyes_;          ///< the keys' eyes, for the spline
  std::vector<double> pitches_;           ///< degrees, key by key
  std::vector<double> unwrappedYaw_;      ///< degrees, key by key
  std::vector<double> sampleTimes_;       ///< the length sampling: times ...
  std::vector<double> cumulativeLength_;  ///< ... and the length travelled up to each
};

/// `degrees` moved by whole turns into (-180, 180].
double wrapDegrees(double degrees);

}  // namespace pcv
