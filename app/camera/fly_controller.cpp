#include "camera/fly_controller.hpp"

#include <algorithm>
#include <cmath>

#include <glm/gtc/constants.hpp>

namespace pcv::app {

void FlyController::move(Camera& camera, const MotionKeys& keys, double dtSeconds) const {
  const double forward = double(keys.forward) - double(keys.back);
  const double right = double(keys.right) - double(keys.left);
  const double up = double(keys.up) - double(keys.down);
  const double distance = speed_ * (keys.fast ? kFastFactor : 1.0) * dtSeconds;
  camera.eye +=
      (camera.forward() * forward + camera.right() * right + camera.worldUp() * up) * distance;
}

void FlyController::look(Camera& camera, glm::dvec2 cursorDeltaPx, int viewportHeightPx) const {
  const double scale = kLookRadiansPerHeight / double(std::max(viewportHeightPx, 1));
  const float halfPi = glm::half_pi<float>();
  camera.pitchRadians =
      std::clamp(camera.pitchRadians - float(cursorDeltaPx.y * scale), -halfPi, halfPi);
  camera.yawRadians =
      std::fmod(camera.yawRadians - float(cursorDeltaPx.x * scale), glm::two_pi<float>());
}

void FlyController::adjustSpeed(double wheelNotches) {
  speed_ = std::clamp(speed_ * std::pow(kWheelStepFactor, wheelNotches), 1e-3, 1e6);
}

}  // namespace pcv::app
