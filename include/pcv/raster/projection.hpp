/// @brief Per-point projection, written once and compiled by g++ and nvcc: the CPU backend is the
/// exact oracle for the CUDA one.
#pragma once

#include <cstdint>

#include "pcv/core/host_device.hpp"

namespace pcv {

/// View distances are kept in [kMinViewDistance, kMaxViewDistance] (makeViewTransform clamps the
/// near and far planes): every drawn point's w is then a normal float far from overflow, which
/// reciprocalInViewRange needs. No real cloud comes near either bound.
constexpr float kMinViewDistance = 0x1p-100f;
constexpr float kMaxViewDistance = 0x1p100f;

/// A view as the kernels need it, passed by value.
struct ViewTransform {
  float viewProjection[16];  ///< column-major (glm) projection * view, for points as offsets
                             ///< from the cloud's origin
  int width;                 ///< target width in pixels
  int height;                ///< target height in pixels
  float nearPlane;           ///< view distance (clip w) of the near plane, world units; points
                             ///< are drawn for nearPlane < w < farPlane
  float farPlane;            ///< view distance (clip w) of the far plane, world units
  double origin[3];          ///< the world position the points are offsets from: settings given
                             ///< in world coordinates (the clip box) are moved by it
  int orthographic;          ///< 1: parallel projection. Clip w is then 1 for every point, and
                             ///< the view distance is depthRow's affine function instead
  float depthRow[4];         ///< orthographic: view distance = depthRow[0..2] . p + depthRow[3]
                             ///< for a point p given as an offset from the origin
};

/// Where a point lands. Row 0 is the bottom row (OpenGL's convention).
struct PixelHit {
  int x;             ///< column, 0 .. width-1
  int y;             ///< row, 0 .. height-1
  float viewDepth;   ///< clip w: distance along the view direction, > 0
  float ndcDepth01;  ///< clip z / w mapped to [0, 1] (what the seed's depth buffer stores)
};

/// Projects a position through a column-major clip matrix `m` into an image of width x height.
/// Returns false outside the frustum (near and far planes included), for NaN or infinite
/// coordinates, and where the pixel rounds outside the image.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool projectToPixel(const float* m, float x, float y, float z,
                                                     int width, int height, PixelHit& hit) {
  const float clipX = m[0] * x + m[4] * y + m[8] * z + m[12];
  const float clipY = m[1] * x + m[5] * y + m[9] * z + m[13];
  const float clipZ = m[2] * x + m[6] * y + m[10] * z + m[14];
  const float clipW = m[3] * x + m[7] * y + m[11] * z + m[15];
  // Written as "not inside" so NaN, which fails every comparison, is rejected too.
  if (!(clipX < clipW && -clipX < clipW && clipY < clipW && -clipY < clipW && clipZ < clipW &&
        -clipZ < clipW)) {
    return false;
  }
  const float invW = 1.0f / clipW;
  const float screenX = (clipX * invW + 1.0f) * 0.5f * static_cast<float>(width);
  const float screenY = (clipY * invW + 1.0f) * 0.5f * static_cast<float>(height);
  // Truncation is floor here: both are > -1 after the frustum test; x*invW may round to 1.0.
  const int px = static_cast<int>(screenX);
  const int py = static_cast<int>(screenY);
  if (screenX < 0.0f || screenY < 0.0f || px >= width || py >= height) return false;
  hit.x = px;
  hit.y = py;
  hit.viewDepth = clipW;
  hit.ndcDepth01 = (clipZ * invW + 1.0f) * 0.5f;
  return true;
}

/// The view distance of a point in an orthographic view (clip w is 1 there for every point).
PCV_HOST_DEVICE PCV_FORCE_INLINE float orthographicDepth(const ViewTransform& view, float x,
                                                         float y, float z) {
  const float* d = view.depthRow;
  return d[0] * x + d[1] * y + d[2] * z + d[3];
}

/// Projects one point given as an offset from the cloud's origin. The frustum test is the clip
/// matrix's in both projections (an orthographic matrix maps near..far to clip z -1..1); the view
/// depth is clip w in perspective and the depth row in orthographic views.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool projectPoint(const ViewTransform& view, float x, float y,
                                                   float z, PixelHit& hit) {
  if (!projectToPixel(view.viewProjection, x, y, z, view.width, view.height, hit)) return false;
  if (view.orthographic) hit.viewDepth = orthographicDepth(view, x, y, z);
  return !view.orthographic || hit.viewDepth > 0.0f;
}

}  // namespace pcv
