#include "view_arguments.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "pcv/core/color_map.hpp"
#include "pcv/core/error.hpp"
#include "pcv/raster/raster_method.hpp"

namespace pcv::python {
namespace {

uint32_t opaqueColor(const std::array<int, 3>& rgb, const char* what) {
  for (int channel : rgb) {
    if (channel < 0 || channel > 255) {
      throw InputError(std::string(what) + " channels must be 0..255");
    }
  }
  return packRgba(uint32_t(rgb[0]), uint32_t(rgb[1]), uint32_t(rgb[2]));
}

}  // namespace

CameraRequest cameraRequestFrom(const std::optional<std::array<double, 3>>& eye, double yaw,
                                double pitch, const std::string& up, double fov,
                                std::optional<float> nearPlane, std::optional<float> farPlane) {
  return pcv::cameraRequestFrom(
      {.eye = eye ? std::optional(glm::dvec3((*eye)[0], (*eye)[1], (*eye)[2])) : std::nullopt,
       .yawDegrees = yaw,
       .pitchDegrees = pitch,
       .up = parseUpAxis(up),
       .fovYDegrees = fov,
       .nearPlane = nearPlane,
       .farPlane = farPlane});
}

RenderSettings renderSettingsFrom(const std::optional<std::string>& method, int pointSize,
                                  const std::string& pointShape, float worldSize, int fillHoles,
                                  const std::string& edl, float edlStrength, int edlRadius, bool hq,
                                  const std::array<int, 3>& background,
                                  const std::optional<std::array<int, 3>>& backgroundTop) {
  RenderSettings settings;
  if (method) settings.method = parseMethod(*method);
  QualitySettings& q = settings.quality;
  q.pointSizePx = pointSize;
  q.shape = parsePointShape(pointShape);
  if (worldSize < 0.0f) throw InputError("world_size must be >= 0");
  q.sizeMode = worldSize > 0.0f ? PointSizeMode::World : PointSizeMode::Screen;
  if (worldSize > 0.0f) q.worldSize = worldSize;
  q.fillRadiusPx = fillHoles;
  q.edl = parseEdlMode(edl);
  q.edlStrength = edlStrength;
  q.edlRadiusPx = edlRadius;
  q.highQuality = hq;
  settings.background = opaqueColor(background, "background");
  q.backgroundGradient = backgroundTop.has_value();
  if (backgroundTop) q.backgroundTop = opaqueColor(*backgroundTop, "background_top");
  validateQualitySettings(q);
  return settings;
}

ColoringOptions coloringFrom(const std::string& color, const std::optional<std::string>& map,
                             const std::optional<std::array<double, 2>>& range) {
  ColoringOptions coloring;
  const std::vector<std::string> modes = colorModeNames();
  if (color != "attribute" && std::find(modes.begin(), modes.end(), color) != modes.end()) {
    coloring.mode = parseColorMode(color);
  } else {  // any other name is an attribute (or x, y, z) to map
    coloring.mode = ColorMode::Attribute;
    coloring.attribute = color;
  }
  if (map) coloring.map = parseColorMap(*map);
  if (range) {
    if (!((*range)[0] < (*range)[1]))
      throw InputError("color_range must be (low, high), low < high");
    coloring.range = ValueRange{(*range)[0], (*range)[1]};
  }
  return coloring;
}

}  // namespace pcv::python
