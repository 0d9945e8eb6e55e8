/// @brief The seed's fly camera: WASD along the view direction at 3 units/s, mouselook turning
/// 3 radians per window height, z up; plus up/down keys, a speed modifier and wheel speed.
#pragma once

#include <glm/glm.hpp>

#include "pcv/core/camera.hpp"
#include "camera/motion_keys.hpp"

namespace pcv::app {

class FlyController {
 public:
  static constexpr double kDefaultSpeedUnitsPerSecond = 3.0;  ///< the seed's WASD speed
  static constexpr double kFastFactor = 4.0;                  ///< while Shift is held
  static constexpr double kWheelStepFactor = 1.25;            ///< speed change per wheel notch
  static constexpr double kLookRadiansPerHeight = 3.0;        ///< the seed's mouse sensitivity

  /// Moves the eye for `dtSeconds` of held keys: forward/back along forward() (pitch included,
  /// as the seed), left/right along right(), up/down along world z.
  void move(Camera& camera, const MotionKeys& keys, double dtSeconds) const;
  /// Turns by a cursor motion in pixels; pitch is clamped to +-pi/2, yaw wrapped to +-2pi.
  void look(Camera& camera, glm::dvec2 cursorDeltaPx, int viewportHeightPx) const;
  /// Multiplies the speed by kWheelStepFactor per notch (negative slows down).
  void adjustSpeed(double wheelNotches);
  double speedUnitsPerSecond() const { return speed_; }
  void setSpeedUnitsPerSecond(double speed) { speed_ = speed; }

 private:
  double speed_ = kDefaultSpeedUnitsPerSecond;
};

}  // namespace pcv::app
