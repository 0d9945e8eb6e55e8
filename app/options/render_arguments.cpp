#include "options/render_arguments.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <glm/gtc/constants.hpp>

#include "options/clip_options.hpp"
#include "pcv/core/number_text.hpp"
#include "pcv/core/color_map.hpp"

namespace pcv::app {
namespace {

std::string hexColor(uint32_t rgba) {
  char text[8];
  std::snprintf(text, sizeof text, "%02x%02x%02x", redOf(rgba), greenOf(rgba), blueOf(rgba));
  return text;
}

/// The eye keeps every digit of its double: the command must give the viewer's image bit for
/// bit, and the eye enters the view in double. The angles are floats: their shortest degrees.
std::string cameraArguments(const Camera& c) {
  std::string text = " --eye " + exactText(c.eye.x) + "," + exactText(c.eye.y) + "," +
                     exactText(c.eye.z) + " --yaw " + degreesText(c.yawRadians) + " --pitch " +
                     degreesText(c.pitchRadians) + " --near " + exactFloatText(c.nearPlane) +
                     " --far " + exactFloatText(c.farPlane);
  if (c.upAxis != Camera().upAxis) text += std::string(" --up ") + upAxisName(c.upAxis);
  // "view": orthographic along the yaw and pitch given, whatever they are.
  if (c.orthographic()) text += " --ortho view --ortho-width " + exactText(c.orthoWidth);
  return text;
}

/// The quality flags that differ from applyQualityOptions' defaults, and --edl always (its
/// default differs between pcv view and pcv render in no way, but says what is drawn).
std::string qualityArguments(const RenderSettings& settings) {
  const QualitySettings& q = settings.quality;
  const QualitySettings plain;
  std::string text;
  if (q.sizeMode == PointSizeMode::World) {
    text += " --world-size " + exactFloatText(q.worldSize);
    if (q.maxPointSizePx != plain.maxPointSizePx) {
      text += " --max-point-size " + std::to_string(q.maxPointSizePx);
    }
  } else if (q.pointSizePx != plain.pointSizePx) {
    text += " --point-size " + std::to_string(q.pointSizePx);
  }
  if (q.shape != plain.shape) text += std::string(" --point-shape ") + pointShapeName(q.shape);
  if (q.fillRadiusPx > 0) text += " --fill-holes " + std::to_string(q.fillRadiusPx);
  text += std::string(" --edl ") + edlModeName(q.edl);
  if (q.edl != EdlMode::Off) {
    if (q.edlStrength != plain.edlStrength)
      text += " --edl-strength " + exactFloatText(q.edlStrength);
    if (q.edlRadiusPx != plain.edlRadiusPx) {
      text += " --edl-radius " + std::to_string(q.edlRadiusPx);
    }
  }
  if (q.highQuality) {
    text += " --hq";
    if (q.hqDepthRange != plain.hqDepthRange)
      text += " --hq-range " + exactFloatText(q.hqDepthRange);
  }
  if (settings.background != kOpaqueBlack) text += " --background " + hexColor(settings.background);
  if (q.backgroundGradient) text += " --background-top " + hexColor(q.backgroundTop);
  return text;
}

std::string coloringArguments(const ColoringOptions& coloring) {
  std::string text;
  if (coloring.mode == ColorMode::Attribute) {
    text += " --color-attribute " + shellQuoted(coloring.attribute);
  } else if (coloring.mode != ColorMode::Rgb) {
    text += " --color " + colorModeName(coloring.mode);
  }
  if (coloring.map) text += " --color-map " + colorMapName(*coloring.map);
  if (coloring.range) {
    text +=
        " --color-range " + exactText(coloring.range->low) + "," + exactText(coloring.range->high);
  }
  return text;
}

}  // namespace

double degreesReproducing(float radians) {
  double degrees = double(radians) * 180.0 / glm::pi<double>();
  // The round trip errs by ulps of a double, far below half a float ulp; step to be sure.
  for (int step = 0; step < 8 && float(glm::radians(degrees)) != radians; ++step) {
    degrees =
        std::nextafter(degrees, float(glm::radians(degrees)) < radians ? INFINITY : -INFINITY);
  }
  return degrees;
}

std::string degreesText(float radians) {
  const double exact = degreesReproducing(radians);
  char text[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, exact);
    // "-3e+01" reads back too; a command line wants "-30".
    if (std::strstr(text, "e+")) continue;
    if (float(glm::radians(std::strtod(text, nullptr))) == radians) return text;
  }
  return exactText(exact);
}

std::string shellQuoted(const std::string& text) {
  bool safe = !text.empty();
  for (const char c : text) {
    safe = safe && (std::isalnum(static_cast<unsigned char>(c)) ||
                    std::string_view("/._-+=:,@%").find(c) != std::string_view::npos);
  }
  if (safe) return text;
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string renderCommand(const ViewDescription& view) {
  std::string command = "pcv render";
  for (const std::string& file : view.files) command += " " + shellQuoted(file);
  if (view.files.empty()) {
    command +=
        " --points " + std::to_string(view.demoPoints) + " --seed " + std::to_string(view.demoSeed);
  }
  command += " --size " + std::to_string(view.widthPx) + "x" + std::to_string(view.heightPx);
  command += cameraArguments(view.camera);
  if (view.settings.method)
    command += std::string(" --method ") + methodName(*view.settings.method);
  command += qualityArguments(view.settings);
  command += clipArguments(view.settings.clip);
  command += filterArguments(view.settings.filter);
  if (!view.files.empty()) command += coloringArguments(view.coloring);
  if (view.read.scan) command += " --scan " + std::to_string(*view.read.scan);
  return command + " --out pcv-view.png";
}

}  // namespace pcv::app
