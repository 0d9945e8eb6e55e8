// The framing camera sees the whole cloud, with near/far from the scene's size.
#include <gtest/gtest.h>

#include "pcv/core/camera_framing.hpp"

namespace pcv {
namespace {

/// True when every corner of `box` projects inside the clip volume.
bool allCornersVisible(const Camera& camera, const Box3d& box, float aspect) {
  const glm::dvec3 origin = box.center();
  const glm::mat4 vp = camera.viewProjection(origin, aspect);
  for (int c = 0; c < 8; ++c) {
    const glm::dvec3 corner((c & 1) ? box.max.x : box.min.x, (c & 2) ? box.max.y : box.min.y,
                            (c & 4) ? box.max.z : box.min.z);
    const glm::vec4 clip = vp * glm::vec4(glm::vec3(corner - origin), 1.0f);
    if (clip.w <= 0.0f) return false;
    const glm::vec3 ndc = glm::vec3(clip) / clip.w;
    if (std::abs(ndc.x) > 1.0f || std::abs(ndc.y) > 1.0f || ndc.z < -1.0f || ndc.z > 1.0f) {
      return false;
    }
  }
  return true;
}

TEST(CameraFraming, SeesTheWholeUtmCloudFromAbove) {
  Box3d box;
  box.extend(glm::dvec3(500000.0, 5000000.0, 100.0));
  box.extend(glm::dvec3(501000.0, 5000400.0, 180.0));
  for (float aspect : {16.0f / 9.0f, 1.0f, 0.5f}) {
    const Camera camera = frameBounds(box, aspect);
    EXPECT_TRUE(allCornersVisible(camera, box, aspect)) << aspect;
    EXPECT_GT(camera.eye.z, box.max.z) << "looks down at the cloud";
    EXPECT_GT(camera.nearPlane, 1.0f) << "near plane scales with the scene";
    EXPECT_GT(camera.farPlane, 1000.0f);
  }
}

TEST(CameraFraming, HandlesTinyEmptyAndSinglePointClouds) {
  Box3d tiny;
  tiny.extend(glm::dvec3(-0.01));
  tiny.extend(glm::dvec3(0.01));
  const Camera camera = frameBounds(tiny, 1.5f);
  EXPECT_TRUE(allCornersVisible(camera, tiny, 1.5f));
  EXPECT_LT(camera.farPlane, 1.0f);
  Box3d single;
  single.extend(glm::dvec3(3.0, 4.0, 5.0));
  const Camera one = frameBounds(single, 1.0f);
  EXPECT_GT(one.nearPlane, 0.0f);
  EXPECT_LT(one.nearPlane, one.farPlane);
  const Camera empty = frameBounds(Box3d{}, 1.0f);
  EXPECT_LT(empty.nearPlane, empty.farPlane);
}

}  // namespace
}  // namespace pcv
