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
  // Samples of one point, or of points on a line, frame as the box does: the eye never lands
  // on them.
  const std::vector<glm::dvec3> same(10, glm::dvec3(3.0, 4.0, 5.0));
  const Camera sampled = frameBounds(single, 1.0f, {}, {}, same);
  EXPECT_EQ(sampled.eye, one.eye);
  EXPECT_EQ(sampled.nearPlane, one.nearPlane);
  Box3d line;
  line.extend(glm::dvec3(0.0));
  line.extend(glm::dvec3(10.0, 0.0, 0.0));
  const std::vector<glm::dvec3> onLine = {glm::dvec3(0.0), glm::dvec3(5.0, 0.0, 0.0),
                                          glm::dvec3(10.0, 0.0, 0.0)};
  const Camera lineCamera = frameBounds(line, 1.0f, {}, {}, onLine);
  EXPECT_TRUE(allCornersVisible(lineCamera, line, 1.0f));
}

/// A LiDAR tile as it comes: flat ground 1000 x 500 with a bare corner where the camera looks
/// from (trimmed, or water), and a row of tall trees along the far edge that makes its box tall.
PointCloud groundWithTreesAndABareCorner() {
  PointCloud cloud;
  cloud.origin = glm::dvec3(500000.0, 5000000.0, 100.0);
  for (int i = 0; i <= 200; ++i) {
    for (int j = 0; j <= 100; ++j) {
      const float x = float(i) * 5.0f, y = float(j) * 5.0f;
      if (x < 300.0f && y < 200.0f) continue;  // the bare corner
      cloud.points.push_back({x, y, float((i * 7 + j * 3) % 5) * 0.2f});
      if (j >= 95 && i % 4 == 0) cloud.points.push_back({x, y, 20.0f + float(i % 30)});
    }
  }
  return cloud;
}

/// The data's projection in ndc: low and high x and y of every point.
std::pair<glm::dvec2, glm::dvec2> projectPoints(const Camera& camera, const PointCloud& cloud,
                                                float aspect) {
  const glm::mat4 vp = camera.viewProjection(cloud.origin, aspect);
  glm::dvec2 low(HUGE_VAL), high(-HUGE_VAL);
  for (const Point& p : cloud.points) {
    const glm::vec4 clip = vp * glm::vec4(p.x, p.y, p.z, 1.0f);
    EXPECT_GT(clip.w, 0.0f);
    EXPECT_GT(clip.z / clip.w, -1.0f) << "not clipped by the near plane";
    const glm::dvec2 ndc(clip.x / clip.w, clip.y / clip.w);
    low = glm::min(low, ndc);
    high = glm::max(high, ndc);
  }
  return {low, high};
}

TEST(CameraFraming, FittedToSamplesTheDataFillsTheViewCentred) {
  const PointCloud cloud = groundWithTreesAndABareCorner();
  for (const float aspect : {16.0f / 9.0f, 1.0f}) {
    const Camera camera =
        frameBounds(cloud.worldBounds(), aspect, {}, {}, framingSamples(cloud, 2000));
    const auto [low, high] = projectPoints(camera, cloud, aspect);
    EXPECT_GE(low.x, -1.0);
    EXPECT_LE(high.x, 1.0);
    EXPECT_GE(low.y, -1.0);
    EXPECT_LE(high.y, 1.0);
    // Centred, touching the sides, and in the default 16:9 most of the height too (fitted to
    // the box's corners, the ground filled the top of the image and left the bottom empty).
    EXPECT_NEAR(low.x + high.x, 0.0, 0.05) << aspect;
    EXPECT_NEAR(low.y + high.y, 0.0, 0.05) << aspect;
    // Points between the samples may reach a little past the margin, never past the edge.
    EXPECT_GT(std::max(high.x - low.x, high.y - low.y), 1.8) << aspect;
    if (aspect > 1.0f) {
      EXPECT_GT(high.y - low.y, 1.3) << aspect;
    }
  }
}

TEST(CameraFraming, SamplesAreSpreadOverTheWholeCloud) {
  const PointCloud cloud = groundWithTreesAndABareCorner();
  const std::vector<glm::dvec3> samples = framingSamples(cloud, 100);
  EXPECT_LE(samples.size(), 100u);
  EXPECT_GE(samples.size(), 90u);
  Box3d spread;
  for (const glm::dvec3& s : samples) spread.extend(s);
  EXPECT_GT(spread.size().x, 900.0);
  EXPECT_GT(spread.size().y, 400.0);
  EXPECT_TRUE(framingSamples(PointCloud{}).empty());
}

}  // namespace
}  // namespace pcv
