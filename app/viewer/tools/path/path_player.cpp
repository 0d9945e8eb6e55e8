#include "viewer/tools/path/path_player.hpp"

#include <algorithm>
#include <cmath>

namespace pcv::app {

CameraKey keyOf(const Camera& camera) {
  // Degrees in double: applyTo() rounds them back to the same float radians.
  return {camera.eye, glm::degrees(double(camera.yawRadians)),
          glm::degrees(double(camera.pitchRadians))};
}

void PathPlayer::add(const CameraKey& key) {
  std::vector<CameraKey> keys = keys_;
  // A key typed with a time among keys without (or the reverse) would make no path: the
  // viewer's keys are timed by the path.
  keys.push_back({key.eye, key.yawDegrees, key.pitchDegrees});
  for (CameraKey& k : keys) k.timeSeconds.reset();
  replace(std::move(keys));
}

void PathPlayer::remove(size_t index) {
  if (index >= keys_.size()) return;
  std::vector<CameraKey> keys = keys_;
  keys.erase(keys.begin() + std::ptrdiff_t(index));
  replace(std::move(keys));
}

void PathPlayer::replace(std::vector<CameraKey> keys) {
  if (!keys.empty()) CameraPath{keys};  // throws before anything changes
  keys_ = std::move(keys);
  rebuild();
}

void PathPlayer::clear() {
  keys_.clear();
  rebuild();
}

void PathPlayer::rebuild() {
  path_.reset();
  if (!keys_.empty()) path_.emplace(keys_);
  position_ = 0.0;
  if (keys_.size() < 2) playing_ = false;
}

void PathPlayer::setPlaying(bool playing) {
  if (playing && (!path_ || keys_.size() < 2)) playing = false;
  if (playing && !looping_ && position_ >= path_->durationSeconds()) position_ = 0.0;
  playing_ = playing;
}

void PathPlayer::setSpeed(double speed) {
  speed_ = std::isfinite(speed) ? std::clamp(speed, 0.05, 20.0) : 1.0;
}

void PathPlayer::seek(double seconds) {
  if (!path_) return;
  position_ = std::isfinite(seconds) ? std::clamp(seconds, 0.0, path_->durationSeconds()) : 0.0;
}

std::optional<CameraPose> PathPlayer::advance(double dtSeconds) {
  if (!playing_ || !path_) return std::nullopt;
  const double duration = path_->durationSeconds();
  position_ += std::max(0.0, dtSeconds) * speed_;
  if (position_ >= duration) {
    if (looping_ && duration > 0.0) {
      position_ = std::fmod(position_, duration);
    } else {
      position_ = duration;
      playing_ = false;
    }
  }
  return pose();
}

std::optional<CameraPose> PathPlayer::pose() const {
  if (!path_) return std::nullopt;
  return path_->at(path_->startSeconds() + position_);
}

}  // namespace pcv::app
