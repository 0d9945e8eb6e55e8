/// @brief The camera with the seed's conventions: z up, yaw about z, pitch above the horizon,
/// perspective with a vertical field of view, or orthographic (plan, front and side views of
/// LiDAR work) with a width in world units; or y up for models made that way (many meshes).
/// World positions are double so the camera can sit among georeferenced data; the matrices the
/// renderers get are float and relative to a cloud's origin.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/named_values.hpp"

namespace pcv {

/// The world axis that points up: yaw turns about it, pitch tilts towards it.
enum class UpAxis : uint8_t {
  Z,  ///< the seed's (and LiDAR's) convention: yaw 0 looks along +x, 90 along +y
  Y,  ///< y up: yaw 0 looks along +x, 90 along -z (the z-up frame turned about x)
};

/// The names of --up and pcv.render(up=...): "z", "y".
const NameTable<UpAxis>& upAxisTable();
std::vector<std::string> upAxisNames();
/// Throws UnknownNameError listing the known names.
UpAxis parseUpAxis(std::string_view name);
const char* upAxisName(UpAxis axis);

/// How the view maps depth: converging rays (the seed's) or parallel ones.
enum class Projection : uint8_t {
  Perspective,   ///< vertical field of view fovYRadians
  Orthographic,  ///< parallel rays; the image spans orthoWidth world units across
};

struct Camera {
  glm::dvec3 eye{-3.0, 0.0, 0.0};  ///< world position
  float yawRadians = 0.0f;         ///< 0 looks along +x, positive turns left (towards +y, z up)
  float pitchRadians = 0.0f;       ///< 0 is level, positive looks up; limited to +-pi/2
  float fovYRadians = glm::radians(60.0f);
  float nearPlane = 0.01f;  ///< world units
  float farPlane = 100.0f;  ///< world units
  UpAxis upAxis = UpAxis::Z;
  Projection projection = Projection::Perspective;
  double orthoWidth = 2.0;  ///< orthographic: world units across the image's width, > 0

  /// A camera at `eye` turned by yaw and pitch given in degrees (pitch clamped to +-90).
  static Camera lookingFrom(const glm::dvec3& eye, float yawDegrees, float pitchDegrees,
                            UpAxis upAxis = UpAxis::Z);

  glm::dvec3 forward() const;
  glm::dvec3 up() const;     ///< perpendicular to forward, towards worldUp()
  glm::dvec3 right() const;  ///< forward x up
  /// The unit vector of the up axis.
  glm::dvec3 worldUp() const;
  /// Turns yaw and pitch to look along `direction` (world; any length but zero).
  void lookAlong(const glm::dvec3& direction);

  /// Projection * view for points given as offsets from `origin`, computed in double and then
  /// rounded, so large world coordinates cost no precision.
  glm::mat4 viewProjection(const glm::dvec3& origin, float aspect) const;
  /// The same in double, for world positions relative to the eye (overlays, picking rays).
  glm::dmat4 viewProjectionFromEye(double aspect) const;
  /// The view matrix for points as offsets from `origin`, in double.
  glm::dmat4 viewFrom(const glm::dvec3& origin) const;
  bool orthographic() const { return projection == Projection::Orthographic; }
  /// World units one pixel spans at view depth `depth` in an image `heightPx` pixels tall, with
  /// width/height `aspect` (orthographic: the same at every depth).
  double unitsPerPixel(double depth, double heightPx, double aspect) const;
};

}  // namespace pcv
