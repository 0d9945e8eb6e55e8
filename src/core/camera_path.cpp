#include "pcv/core/camera_path.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pcv {
namespace {

/// Samples per segment for the path's length: enough that equal steps along a path of tens of
/// keys are equal to well under a percent.
constexpr int kLengthSamplesPerSegment = 64;

/// The Catmull-Rom value at `t` in [knots[1], knots[2]] of the four values around a segment,
/// by Barry and Goldman's pyramid of linear interpolations (non-uniform knots). The curve it
/// makes passes through values[1] at knots[1] and values[2] at knots[2], and its derivative at
/// a key depends only on the key and its two neighbours, which makes joined segments C1.
template <typename Value>
Value catmullRom(const Value (&values)[4], const double (&knots)[4], double t) {
  const auto lerp = [t](const Value& a, const Value& b, double ta, double tb) {
    return a * ((tb - t) / (tb - ta)) + b * ((t - ta) / (tb - ta));
  };
  const Value a1 = lerp(values[0], values[1], knots[0], knots[1]);
  const Value a2 = lerp(values[1], values[2], knots[1], knots[2]);
  const Value a3 = lerp(values[2], values[3], knots[2], knots[3]);
  const Value b1 = lerp(a1, a2, knots[0], knots[2]);
  const Value b2 = lerp(a2, a3, knots[1], knots[3]);
  return lerp(b1, b2, knots[1], knots[2]);
}

/// The four values and knots around segment `segment` of `values` at `times`; past the ends,
/// a phantom mirrors the neighbour through the end key.
template <typename Value>
void segmentStencil(const std::vector<Value>& values, const std::vector<double>& times,
                    size_t segment, Value (&out)[4], double (&knots)[4]) {
  const size_t n = values.size();
  out[1] = values[segment];
  out[2] = values[segment + 1];
  knots[1] = times[segment];
  knots[2] = times[segment + 1];
  if (segment > 0) {
    out[0] = values[segment - 1];
    knots[0] = times[segment - 1];
  } else {
    out[0] = out[1] * 2.0 - out[2];
    knots[0] = 2.0 * knots[1] - knots[2];
  }
  if (segment + 2 < n) {
    out[3] = values[segment + 2];
    knots[3] = times[segment + 2];
  } else {
    out[3] = out[2] * 2.0 - out[1];
    knots[3] = 2.0 * knots[2] - knots[1];
  }
}

/// The largest coordinate, time or angle a key may have: far beyond any survey (UTM northings
/// are 1e7), and small enough that differences and the spline's sums stay finite.
constexpr double kMaxMagnitude = 1e12;

bool inRange(double value) {
  return std::isfinite(value) && std::abs(value) <= kMaxMagnitude;
}

bool finite(const glm::dvec3& v) {
  return inRange(v.x) && inRange(v.y) && inRange(v.z);
}

std::string keyName(size_t key) {
  return "camera path key " + std::to_string(key);
}

void checkKeys(const std::vector<CameraKey>& keys) {
  if (keys.empty()) {
    throw CameraPathError("a camera path needs at least one key, got none", std::nullopt, "");
  }
  const bool timed = keys.front().timeSeconds.has_value();
  for (size_t i = 0; i < keys.size(); ++i) {
    const CameraKey& key = keys[i];
    if (!finite(key.eye)) {
      throw CameraPathError(keyName(i) + ": \"eye\" must be three finite numbers within +-1e12", i,
                            "eye");
    }
    if (!inRange(key.yawDegrees)) {
      throw CameraPathError(keyName(i) +
                                ": \"yaw\" must be a finite number of degrees within "
                                "+-1e12",
                            i, "yaw");
    }
    if (!(key.pitchDegrees >= -90.0 && key.pitchDegrees <= 90.0)) {
      throw CameraPathError(keyName(i) + ": \"pitch\" must be degrees in [-90, 90]", i, "pitch");
    }
    if (key.timeSeconds.has_value() != timed) {
      throw CameraPathError(keyName(i) + ": \"time\" is given on " +
                                (timed ? "key 0 but not here" : "this key but not on key 0") +
                                "; give it on every key or none",
                            i, "time");
    }
    if (!timed) continue;
    if (!inRange(*key.timeSeconds)) {
      throw CameraPathError(keyName(i) +
                                ": \"time\" must be a finite number of seconds within "
                                "+-1e12",
                            i, "time");
    }
    if (i > 0 && !(*key.timeSeconds > *keys[i - 1].timeSeconds)) {
      throw CameraPathError(keyName(i) + ": \"time\" must be later than the previous key's", i,
                            "time");
    }
  }
}

/// Centripetal key times (see the header): the square root of each segment's length, at least
/// a quarter of the mean, scaled to kDefaultSecondsPerSegment per segment on average.
std::vector<double> centripetalTimes(const std::vector<CameraKey>& keys) {
  std::vector<double> spans(keys.size() - 1);
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    spans[i] = std::sqrt(glm::length(keys[i + 1].eye - keys[i].eye));
  }
  const double mean =
      spans.empty() ? 0.0 : std::accumulate(spans.begin(), spans.end(), 0.0) / spans.size();
  for (double& span : spans) span = mean > 0.0 ? std::max(span, 0.25 * mean) : 1.0;
  const double total = std::accumulate(spans.begin(), spans.end(), 0.0);
  std::vector<double> times(keys.size(), 0.0);
  for (size_t i = 0; i < spans.size(); ++i) {
    times[i + 1] =
        times[i] + spans[i] * CameraPath::kDefaultSecondsPerSegment * double(spans.size()) / total;
  }
  return times;
}

}  // namespace

double wrapDegrees(double degrees) {
  double wrapped = std::fmod(degrees, 360.0);
  if (wrapped > 180.0) wrapped -= 360.0;
  if (wrapped <= -180.0) wrapped += 360.0;
  return wrapped;
}

Camera CameraPose::applyTo(Camera base) const {
  base.eye = eye;
  // As cameraFrom() converts --yaw and --pitch: in double, rounded once.
  base.yawRadians = float(glm::radians(yawDegrees));
  base.pitchRadians = float(glm::radians(std::clamp(pitchDegrees, -90.0, 90.0)));
  return base;
}

CameraPath::CameraPath(std::vector<CameraKey> keys) : keys_(std::move(keys)) {
  checkKeys(keys_);
  if (keys_.front().timeSeconds) {
    for (const CameraKey& key : keys_) times_.push_back(*key.timeSeconds);
  } else {
    times_ = centripetalTimes(keys_);
  }
  for (const CameraKey& key : keys_) {
    eyes_.push_back(key.eye);
    pitches_.push_back(key.pitchDegrees);
  }
  unwrappedYaw_.push_back(keys_.front().yawDegrees);
  for (size_t i = 1; i < keys_.size(); ++i) {
    unwrappedYaw_.push_back(unwrappedYaw_.back() +
                            wrapDegrees(keys_[i].yawDegrees - keys_[i - 1].yawDegrees));
  }
  sampleLength();
}

glm::dvec3 CameraPath::eyeAt(size_t segment, double t) const {
  glm::dvec3 values[4];
  double knots[4];
  segmentStencil(eyes_, times_, segment, values, knots);
  return catmullRom(values, knots, t);
}

CameraPose CameraPath::at(double seconds) const {
  const double t = std::clamp(seconds, times_.front(), times_.back());
  // The segment whose span holds t; a key's own time gives the key exactly (no rounding of
  // the interpolation's weights).
  const auto next = std::upper_bound(times_.begin(), times_.end(), t);
  const size_t key = size_t(next - times_.begin()) - 1;
  if (t == times_[key]) {
    return {keys_[key].eye, unwrappedYaw_[key], keys_[key].pitchDegrees};
  }
  double values[4], knots[4];
  CameraPose pose;
  pose.eye = eyeAt(key, t);
  segmentStencil(unwrappedYaw_, times_, key, values, knots);
  pose.yawDegrees = catmullRom(values, knots, t);
  segmentStencil(pitches_, times_, key, values, knots);
  pose.pitchDegrees = std::clamp(catmullRom(values, knots, t), -90.0, 90.0);
  return pose;
}

double CameraPath::frameTime(uint64_t frame, uint64_t frameCount) const {
  if (frameCount <= 1 || frame == 0) return startSeconds();
  if (frame + 1 >= frameCount) return endSeconds();
  return startSeconds() + durationSeconds() * (double(frame) / double(frameCount - 1));
}

void CameraPath::sampleLength() {
  sampleTimes_.push_back(times_.front());
  cumulativeLength_.push_back(0.0);
  glm::dvec3 last = keys_.front().eye;
  for (size_t segment = 0; segment + 1 < keys_.size(); ++segment) {
    for (int s = 1; s <= kLengthSamplesPerSegment; ++s) {
      const double t = s == kLengthSamplesPerSegment
                           ? times_[segment + 1]
                           : times_[segment] + (times_[segment + 1] - times_[segment]) *
                                                   (double(s) / kLengthSamplesPerSegment);
      const glm::dvec3 eye =
          s == kLengthSamplesPerSegment ? keys_[segment + 1].eye : eyeAt(segment, t);
      sampleTimes_.push_back(t);
      cumulativeLength_.push_back(cumulativeLength_.back() + glm::length(eye - last));
      last = eye;
    }
  }
}

double CameraPath::timeAtDistance(double fraction) const {
  const double total = length();
  if (!(total > 0.0)) return startSeconds() + durationSeconds() * std::clamp(fraction, 0.0, 1.0);
  if (fraction <= 0.0) return startSeconds();
  if (fraction >= 1.0) return endSeconds();
  const double wanted = fraction * total;
  const auto after = std::lower_bound(cumulativeLength_.begin(), cumulativeLength_.end(), wanted);
  const size_t i = size_t(after - cumulativeLength_.begin());
  const double l0 = cumulativeLength_[i - 1], l1 = cumulativeLength_[i];
  const double w = l1 > l0 ? (wanted - l0) / (l1 - l0) : 0.0;
  return sampleTimes_[i - 1] + (sampleTimes_[i] - sampleTimes_[i - 1]) * w;
}

}  // namespace pcv
