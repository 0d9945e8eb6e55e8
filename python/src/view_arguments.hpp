/// @brief The keyword arguments pcv.render and pcv.Renderer share, as the session layer's and
/// the renderer's values (the camera request, render settings, colouring), checked as `pcv
/// render` checks its options.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "pcv/core/point_coloring.hpp"
#include "pcv/raster/render_settings.hpp"
#include "pcv/session/scene_camera.hpp"

namespace pcv::python {

/// The camera at `eye` (None: framed on the scene, as `pcv render` without --eye), turned by
/// `yaw` and `pitch` degrees about the `up` axis ("z" or "y"), with a vertical field of view of
/// `fov` degrees and the clip planes given (None: fitted to the scene).
CameraRequest cameraRequestFrom(const std::optional<std::array<double, 3>>& eye, double yaw,
                                double pitch, const std::string& up, double fov,
                                std::optional<float> nearPlane, std::optional<float> farPlane);

/// The method and quality settings of `pcv render`'s --method, --point-size ... options.
RenderSettings renderSettingsFrom(const std::optional<std::string>& method, int pointSize,
                                  const std::string& pointShape, float worldSize, int fillHoles,
                                  const std::string& edl, float edlStrength, int edlRadius, bool hq,
                                  const std::array<int, 3>& background,
                                  const std::optional<std::array<int, 3>>& backgroundTop);

/// "rgb", "elevation", "intensity", "classification", or any other name as an attribute (or x,
/// y, z) mapped through `map` over `range`.
ColoringOptions coloringFrom(const std::string& color, const std::optional<std::string>& map,
                             const std::optional<std::array<double, 2>>& range);

}  // namespace pcv::python
