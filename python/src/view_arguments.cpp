#include "view_arguments.hpp"

#include <algorithm>
#include <vector>

#include "pcv/core/color_map.hpp"
#include "pcv/core/error.hpp"
#include "pcv/raster/raster_method.hpp"

namespace pcv::python {
namespace {

uint32_t opaqueColour(const std::array<int, 3>& rgb, const char* what) {
  for (int channel : rgb) {
    if (channel < 0 || channel > 255) {
      throw InputError(std::string(what) + " channels must be 0..255");
    }
  }
  return packRgba(uint32_t(rgb[0]), uint32_t(rgb[1]), uint32_t(rgb[2]));
}

}  // namespace

void checkImageSize(const std::array<int, 2>& size) {
  if (size[0] <= 0 || size[1] <= 0 || size[0] > 16384 || size[1] > 16384) {
    throw InputError("size must be (width, height), each 1..16384 pixels");
  }
}

CameraRequest cameraRequestFrom(const std::optional<std::array<double, 3>>& eye, double yaw,
                                double pitch, const std::string& up, double fov,
                                std::optional<float> nearPlane, std::optional<float> farPlane) {
  if (up != "z" && up != "y") throw InputError("up must be \"z\" or \"y\", got \"" + up + "\"");
  if (!(fov > 0.0 && fov < 180.0)) throw InputError("fov must be in (0, 180) degrees");
  constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180.0;
  CameraRequest request;
  Camera& camera = request.camera;
  camera = Camera::lookingFrom(eye ? glm::dvec3((*eye)[0], (*eye)[1], (*eye)[2]) : Camera().eye,
                               0.0f, 0.0f, up == "y" ? UpAxis::Y : UpAxis::Z);
  // Converted in double and rounded once, as `pcv render --yaw --pitch` does.
  camera.yawRadians = float(yaw * kRadiansPerDegree);
  camera.pitchRadians = float(std::clamp(pitch, -90.0, 90.0) * kRadiansPerDegree);
  camera.fovYRadians = float(fov * kRadiansPerDegree);
  if (nearPlane) camera.nearPlane = *nearPlane;
  if (farPlane) camera.farPlane = *farPlane;
  if (!(camera.nearPlane > 0.0f && camera.farPlane > camera.nearPlane)) {
    throw InputError("near and far must satisfy 0 < near < far");
  }
  request.eyeGiven = eye.has_value();
  request.clipPlanesGiven = nearPlane || farPlane;
  return request;
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
  if (pointShape != "square" && pointShape != "round") {
    throw InputError("point_shape must be \"square\" or \"round\"");
  }
  q.shape = pointShape == "round" ? PointShape::Round : PointShape::Square;
  if (worldSize < 0.0f) throw InputError("world_size must be >= 0");
  q.sizeMode = worldSize > 0.0f ? PointSizeMode::World : PointSizeMode::Screen;
  if (worldSize > 0.0f) q.worldSize = worldSize;
  q.fillRadiusPx = fillHoles;
  if (edl != "auto" && edl != "on" && edl != "off") {
    throw InputError("edl must be \"auto\", \"on\" or \"off\"");
  }
  q.edl = edl == "on" ? EdlMode::On : edl == "off" ? EdlMode::Off : EdlMode::Auto;
  q.edlStrength = edlStrength;
  q.edlRadiusPx = edlRadius;
  q.highQuality = hq;
  settings.background = opaqueColour(background, "background");
  q.backgroundGradient = backgroundTop.has_value();
  if (backgroundTop) q.backgroundTop = opaqueColour(*backgroundTop, "background_top");
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
