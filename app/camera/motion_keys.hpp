/// @brief Which movement keys are held this frame, whatever device or script pressed them; the
/// camera controllers read this instead of the window, so they are testable without one.
#pragma once

namespace pcv::app {

struct MotionKeys {
  bool forward = false;  ///< W
  bool back = false;     ///< S
  bool left = false;     ///< A
  bool right = false;    ///< D
  bool up = false;       ///< E or Space: along world +z
  bool down = false;     ///< Q or Ctrl: along world -z
  bool fast = false;     ///< Shift: FlyController::kFastFactor times the speed
};

}  // namespace pcv::app
