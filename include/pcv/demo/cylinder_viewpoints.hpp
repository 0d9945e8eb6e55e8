/// @brief The fixed viewpoints of the seed's demo cylinders (which span about [-2, 2]^3): the
/// benchmark times these, and the CUDA-vs-CPU tests compare the backends at the same ones.
#pragma once

#include <glm/glm.hpp>

#include "pcv/core/camera.hpp"

namespace pcv {

struct CylinderViewpoint {
  const char* name;
  glm::dvec3 eye;
  float yawDegrees, pitchDegrees;

  Camera camera() const { return Camera::lookingFrom(eye, yawDegrees, pitchDegrees); }
};

inline const CylinderViewpoint kCylinderViewpoints[] = {
    {"overview", {-3.0, 0.0, 0.0}, 0.0f, 0.0f},      // the seed's start: everything in view
    {"close-up", {-0.8, -0.6, 0.9}, 35.0f, -40.0f},  // a few cylinders fill the screen
    {"inside", {0.1, 0.0, 0.05}, 120.0f, 10.0f},     // among the cylinders, half culled
    {"far", {-30.0, 12.0, 9.0}, -21.0f, -16.0f},     // all the cylinders in a few pixels
};

}  // namespace pcv
