#include <cmath>
#include <vector>

#include "pcv/core/float_math.hpp"
#include "pcv/demo/cylinders.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

TEST(CylinderSet, ParametersFollowTheSeedDemo) {
  const CylinderSet scene = makeCylinderSet(42);
  ASSERT_EQ(scene.cylinders.size(), 10u);
  for (const Cylinder& c : scene.cylinders) {
    for (int k = 0; k < 3; ++k) {
      EXPECT_GE(c.center[k], -1.0f);
      EXPECT_LE(c.center[k], 1.0f);
      EXPECT_GE(c.color[k], 0.3f);
      EXPECT_LE(c.color[k], 1.0f);
    }
    EXPECT_GE(c.radius, 0.1f);
    EXPECT_LE(c.radius, 0.2f);
    EXPECT_GE(c.halfHeight, 0.5f);
    EXPECT_LE(c.halfHeight, 1.0f);
    const glm::vec3 x(c.axisX[0], c.axisX[1], c.axisX[2]);
    const glm::vec3 y(c.axisY[0], c.axisY[1], c.axisY[2]);
    const glm::vec3 z(c.axisZ[0], c.axisZ[1], c.axisZ[2]);
    EXPECT_NEAR(glm::length(x), 1.0f, 1e-5f);
    EXPECT_NEAR(glm::length(y), 1.0f, 1e-5f);
    EXPECT_NEAR(glm::dot(x, y), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::length(glm::cross(x, y) - z), 0.0f, 1e-5f);
  }
}

TEST(CylinderSet, SameSeedSamePointsOtherSeedOtherPoints) {
  std::vector<Point> a(100000), b(100000), c(100000);
  generateCylinderPoints(makeCylinderSet(5), a);
  generateCylinderPoints(makeCylinderSet(5), b);
  generateCylinderPoints(makeCylinderSet(6), c);
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(Point)));
  EXPECT_NE(0, std::memcmp(a.data(), c.data(), a.size() * sizeof(Point)));
}

TEST(CylinderSet, PointsLieOnTheirCylinderWithJitteredColor) {
  const CylinderSet scene = makeCylinderSet(3);
  const uint64_t count = 50000;
  std::vector<Point> points(count);
  generateCylinderPoints(scene, points);
  for (uint64_t i = 0; i < count; i += 7) {
    const Cylinder& c = scene.cylinders[i * 10 / count];
    const glm::vec3 offset = glm::vec3(points[i].x, points[i].y, points[i].z) -
                             glm::vec3(c.center[0], c.center[1], c.center[2]);
    const glm::vec3 axis(c.axisZ[0], c.axisZ[1], c.axisZ[2]);
    const float along = glm::dot(offset, axis);
    EXPECT_LE(std::abs(along), c.halfHeight * 1.0001f);
    EXPECT_NEAR(glm::length(offset - along * axis), c.radius, 1e-4f);
    const uint32_t channels[3] = {redOf(points[i].rgba), greenOf(points[i].rgba),
                                  blueOf(points[i].rgba)};
    for (int k = 0; k < 3; ++k) {
      EXPECT_LE(std::abs(int(channels[k]) - 255.0f * c.color[k]), 0.1f * 255 + 1) << i;
    }
    EXPECT_EQ(alphaOf(points[i].rgba), 255u);
  }
}

TEST(FloatMath, SinCosTurnsIsAccurate) {
  for (int i = 0; i < 4096; ++i) {
    const float t = float(i) / 4096.0f;
    float s, c;
    sinCosTurns(t, s, c);
    EXPECT_NEAR(s, std::sin(2.0 * M_PI * t), 2e-6) << t;
    EXPECT_NEAR(c, std::cos(2.0 * M_PI * t), 2e-6) << t;
  }
}

}  // namespace
}  // namespace pcv
