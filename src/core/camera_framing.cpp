#include "pcv/core/camera_framing.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace pcv {

namespace {

/// The box a view is framed on: an empty box becomes a unit cube at the origin, and a single
/// point or a zero-size cloud a metre-ish around it; never less than a millionth of the
/// coordinates' magnitude (float offsets resolve no finer).
double minimumHalfSize(const glm::dvec3& centre) {
  return std::max(1e-6 * glm::length(centre), 1e-3);
}

Box3d framedBox(const Box3d& worldBounds) {
  Box3d box = worldBounds;
  if (box.empty()) {
    box.min = glm::dvec3(-0.5);
    box.max = glm::dvec3(0.5);
  }
  const glm::dvec3 centre = box.center();
  box.min = glm::min(box.min, centre - minimumHalfSize(centre));
  box.max = glm::max(box.max, centre + minimumHalfSize(centre));
  return box;
}

/// Samples that outline a surface or a volume: spread along two axes at least. A point, or
/// points on a line, would put the eye on them; their box's corners frame them instead.
bool samplesSpan(std::span<const glm::dvec3> samples) {
  Box3d box;
  for (const glm::dvec3& sample : samples) box.extend(sample);
  if (box.empty()) return false;
  const double least = 2.0 * minimumHalfSize(box.center());
  const glm::dvec3 size = box.size();
  return int(size.x > least) + int(size.y > least) + int(size.z > least) >= 2;
}

}  // namespace

std::vector<glm::dvec3> framingSamples(const PointCloud& cloud, size_t maxCount) {
  std::vector<glm::dvec3> samples;
  if (cloud.points.empty() || maxCount == 0) return samples;
  // Every n-th point: files store points in scan or tile order, so a stride spreads the samples
  // over the whole cloud without the cost of a random draw.
  const size_t stride = (cloud.points.size() + maxCount - 1) / maxCount;
  samples.reserve(cloud.points.size() / stride + 1);
  for (size_t i = 0; i < cloud.points.size(); i += stride) {
    const Point& point = cloud.points[i];
    const glm::dvec3 offset(point.x, point.y, point.z);
    if (!std::isfinite(offset.x) || !std::isfinite(offset.y) || !std::isfinite(offset.z)) continue;
    samples.push_back(cloud.origin + offset);
  }
  return samples;
}

Camera frameBounds(const Box3d& worldBounds, float aspect, const FramingAngles& angles,
                   const Camera& base, std::span<const glm::dvec3> samples) {
  const Box3d box = framedBox(worldBounds);
  const glm::dvec3 centre = box.center();
  const double radius = 0.5 * glm::length(box.size());

  Camera camera = base;
  camera.yawRadians = glm::radians(angles.yawDegrees);
  camera.pitchRadians = glm::radians(std::clamp(angles.pitchDegrees, -89.0f, 89.0f));
  const glm::dvec3 forward = camera.forward(), up = camera.up(), right = camera.right();
  const auto inCameraAxes = [&](const glm::dvec3& world) {
    const glm::dvec3 offset = world - centre;
    return glm::dvec3(glm::dot(offset, right), glm::dot(offset, up), glm::dot(offset, forward));
  };
  glm::dvec3 corners[8];
  for (int c = 0; c < 8; ++c) {
    corners[c] = inCameraAxes({(c & 1) ? box.max.x : box.min.x, (c & 2) ? box.max.y : box.min.y,
                               (c & 4) ? box.max.z : box.min.z});
  }
  // What the view is fitted to: the data where samples of it are given, else the box's corners.
  // A tile's box can be mostly empty (a few trees make it tall, a trimmed edge leaves a corner
  // bare); fitted to its corners, the nearest one, in the air above the ground, takes half the
  // image.
  std::vector<glm::dvec3> fitted;
  if (samplesSpan(samples)) {
    fitted.reserve(samples.size());
    for (const glm::dvec3& sample : samples) fitted.push_back(inCameraAxes(sample));
  } else {
    fitted.assign(std::begin(corners), std::end(corners));
  }
  // The half extents of the view at unit depth, less the margin.
  const double tanY = std::tan(0.5 * double(camera.fovYRadians)) / kFramingMargin;
  const double tanX = tanY * double(std::max(aspect, 1e-3f));
  // In the camera's axes (x right, y up, z forward, from the centre), an eye at (ex, ey, ez)
  // sees a point (x, y, z) when |x - ex| <= tanX (z - ez), and likewise in y. For each axis the
  // points bound ez by lowX + ex / tanX and highX - ex / tanX; the eye is nearest where both
  // are equal, (lowX + highX) / 2: the projection then touches both edges of that axis.
  // The farther of the two axes' distances sees every point. A bounding sphere would leave the
  // flat box of a LiDAR tile small in the image.
  double lowX = HUGE_VAL, highX = HUGE_VAL, lowY = HUGE_VAL, highY = HUGE_VAL;
  for (const glm::dvec3& p : fitted) {
    lowX = std::min(lowX, p.z - p.x / tanX);
    highX = std::min(highX, p.z + p.x / tanX);
    lowY = std::min(lowY, p.z - p.y / tanY);
    highY = std::min(highY, p.z + p.y / tanY);
  }
  glm::dvec3 eye(0.0, 0.0, std::min(0.5 * (lowX + highX), 0.5 * (lowY + highY)));
  // The axis that did not decide the distance is centred again at it: the projection's two
  // extremes are then equally far from the middle (the sum below falls as the eye moves, and
  // is zero inside the range of eyes that see every point).
  for (const int axis : {0, 1}) {
    const auto extremesSum = [&](double at) {
      double low = HUGE_VAL, high = -HUGE_VAL;
      for (const glm::dvec3& p : fitted) {
        const double slope = (p[axis] - at) / (p.z - eye.z);
        low = std::min(low, slope);
        high = std::max(high, slope);
      }
      return low + high;
    };
    double below = -2.0 * radius, above = 2.0 * radius;
    for (int step = 0; step < 64; ++step) {
      const double middle = 0.5 * (below + above);
      (extremesSum(middle) > 0.0 ? below : above) = middle;
    }
    eye[axis] = 0.5 * (below + above);
  }
  camera.eye = centre + right * eye.x + up * eye.y + forward * eye.z;
  double nearest = HUGE_VAL, farthest = 0.0;
  for (const glm::dvec3& corner : corners) farthest = std::max(farthest, corner.z - eye.z);
  // Fitted to samples, the eye may be inside the box (over a bare corner): the nearest sample
  // then bounds the near plane, not the corners behind the eye.
  for (const glm::dvec3& p : fitted) nearest = std::min(nearest, p.z - eye.z);
  for (const glm::dvec3& corner : corners) {
    if (corner.z - eye.z > 0.0) nearest = std::min(nearest, corner.z - eye.z);
  }
  // Depth precision follows far/near: near just in front of the box, far well behind it so
  // the camera can back off a little without clipping.
  camera.nearPlane = float(std::max(nearest, farthest * 1e-3) * 0.5);
  camera.farPlane = float((farthest + radius) * 4.0);
  if (camera.orthographic()) {
    // An orthographic base stays orthographic: its width is fitted as well.
    double halfRight = 0.0, halfUp = 0.0;
    for (const glm::dvec3& p : fitted) {
      halfRight = std::max(halfRight, std::abs(p.x - eye.x));
      halfUp = std::max(halfUp, std::abs(p.y - eye.y));
    }
    camera.orthoWidth =
        2.0 * kFramingMargin * std::max(halfRight, halfUp * double(std::max(aspect, 1e-3f)));
  }
  return camera;
}

void fitClipPlanes(Camera& camera, const Box3d& worldBounds) {
  if (worldBounds.empty()) return;
  const double radius = std::max(
      {0.5 * glm::length(worldBounds.size()), 1e-6 * glm::length(worldBounds.center()), 1e-3});
  const double toCentre = glm::length(worldBounds.center() - camera.eye);
  // Far behind the farthest point; near at the nearest point when the camera is outside the
  // cloud's sphere, else a small fraction of the cloud's size (the camera flies among points).
  const double farthest = toCentre + radius;
  camera.farPlane = float(farthest * 2.0);
  camera.nearPlane = float(std::max(toCentre - radius, radius * 1e-4) * 0.5);
}

std::optional<OrthoView> orthoViewNamed(std::string_view name) {
  for (const OrthoView view : {OrthoView::Plan, OrthoView::Front, OrthoView::Side}) {
    if (name == orthoViewName(view)) return view;
  }
  return std::nullopt;
}

const char* orthoViewName(OrthoView view) {
  switch (view) {
    case OrthoView::Plan:
      return "plan";
    case OrthoView::Front:
      return "front";
    case OrthoView::Side:
      return "side";
  }
  return "plan";
}

void turnToOrthoView(Camera& camera, OrthoView view) {
  // Yaw and pitch in the up-axis frame: plan looks down with +y at the top of the image (yaw 90
  // puts the camera's up along +y at pitch -90), front along +y, side along -x.
  const float yaw = view == OrthoView::Side ? 180.0f : 90.0f;
  const float pitch = view == OrthoView::Plan ? -90.0f : 0.0f;
  camera.yawRadians = glm::radians(yaw);
  camera.pitchRadians = glm::radians(pitch);
}

Camera frameOrtho(OrthoView view, const Box3d& worldBounds, float aspect,
                  std::optional<double> width, const Camera& base) {
  const Box3d box = framedBox(worldBounds);
  const glm::dvec3 centre = box.center();
  const double radius = 0.5 * glm::length(box.size());
  Camera camera = base;
  camera.projection = Projection::Orthographic;
  turnToOrthoView(camera, view);
  const glm::dvec3 forward = camera.forward(), up = camera.up(), right = camera.right();
  double halfRight = 0.0, halfUp = 0.0;
  for (int c = 0; c < 8; ++c) {
    const glm::dvec3 corner((c & 1) ? box.max.x : box.min.x, (c & 2) ? box.max.y : box.min.y,
                            (c & 4) ? box.max.z : box.min.z);
    halfRight = std::max(halfRight, std::abs(glm::dot(corner - centre, right)));
    halfUp = std::max(halfUp, std::abs(glm::dot(corner - centre, up)));
  }
  const double fitted =
      2.0 * kFramingMargin * std::max(halfRight, halfUp * double(std::max(aspect, 1e-3f)));
  camera.orthoWidth = width && *width > 0.0 ? *width : fitted;
  // Parallel rays: the distance changes nothing in the image, only which points lie between
  // the planes. Two radii back, the box lies between half a radius and three and a half.
  camera.eye = centre - forward * (2.0 * radius);
  camera.nearPlane = float(0.5 * radius);
  camera.farPlane = float(3.5 * radius);
  return camera;
}

}  // namespace pcv
