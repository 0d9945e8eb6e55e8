/// @brief A camera that shows a whole cloud: looking from an oblique angle (above it, on the
/// camera's up axis), placed as near as lets every point of it (a sample of them, or the corners
/// of its bounds) project inside the view,
/// with near/far planes from the scene's size instead of fixed constants.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/core/point_cloud.hpp"

namespace pcv {

/// The framed corners reach at most 1 / kFramingMargin of the way from the view's centre to its
/// edge: a margin of about 5 % of the half width or height.
inline constexpr double kFramingMargin = 1.05;

/// Direction the camera looks from, relative to the centre.
struct FramingAngles {
  float yawDegrees = 45.0f;     ///< 0 looks along +x; 45 looks from the south-west corner
  float pitchDegrees = -30.0f;  ///< negative looks down
};

/// Samples framingSamples takes by default: enough to outline any cloud, few enough to frame it
/// in well under a millisecond.
inline constexpr size_t kFramingSamples = 4096;

/// The camera for `worldBounds` in an image of width/height `aspect`, looking at the data: every
/// one of `samples` (world positions spread over the cloud, framingSamples) inside the view,
/// their projection centred and touching two opposite edges within the margin, so the data fills
/// the image even where it fills its box badly (tall trees over flat ground, a bare corner).
/// Without samples, the corners of the bounds stand for the data. Near and far planes hold the
/// whole box. Keeps `fovYRadians` and `upAxis` of `base`. Empty bounds give a unit box at the
/// origin; flat or single-point clouds are framed as if they had at least a small size.
Camera frameBounds(const Box3d& worldBounds, float aspect, const FramingAngles& angles = {},
                   const Camera& base = {}, std::span<const glm::dvec3> samples = {});

/// Up to `maxCount` world positions spread over `cloud` (every n-th point, non-finite ones left
/// out): what frameBounds fits the view to. Empty for an empty cloud.
std::vector<glm::dvec3> framingSamples(const PointCloud& cloud, size_t maxCount = kFramingSamples);

/// Near and far planes for a camera placed by hand (an explicit eye): the whole of
/// `worldBounds` lies between them, seen from wherever the camera is, with the depth range no
/// deeper than needed. Empty bounds leave the camera as it is.
void fitClipPlanes(Camera& camera, const Box3d& worldBounds);

/// The orthographic views of LiDAR work, named after the side looked at.
enum class OrthoView : uint8_t {
  Plan,   ///< from above, looking down the up axis; +x right, +y up in the image (z up)
  Front,  ///< from the south, looking along +y; +x right, z up
  Side,   ///< from the east, looking along -x; +y right, z up
};

/// "plan", "front" or "side"; empty for any other name.
std::optional<OrthoView> orthoViewNamed(std::string_view name);
const char* orthoViewName(OrthoView view);

/// Turns `camera` to look as `view` does, keeping its eye and projection.
void turnToOrthoView(Camera& camera, OrthoView view);

/// An orthographic camera looking at `worldBounds` as `view` does, centred on them, from outside
/// them, near and far planes around them. `width` is the world units across the image; empty (or
/// not positive): fitted so the bounds fill the image within kFramingMargin. Keeps `upAxis` of
/// `base`.
Camera frameOrtho(OrthoView view, const Box3d& worldBounds, float aspect,
                  std::optional<double> width = std::nullopt, const Camera& base = {});

}  // namespace pcv
