#include <random>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "shared/framebuffer_word.hpp"
#include "pcv/raster/projection.hpp"
#include "pcv/raster/view_setup.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

struct Reference {
  bool visible;
  double screenX, screenY, viewDepth;
};

// The same projection in double through glm, as the seed wrote it.
Reference referenceProject(const Camera& camera, int width, int height, glm::dvec3 p) {
  const glm::dmat4 view = glm::lookAt(camera.eye, camera.eye + camera.forward(), camera.up());
  const glm::dmat4 projection = glm::perspective(double(camera.fovYRadians), double(width) / height,
                                                 double(camera.nearPlane), double(camera.farPlane));
  const glm::dvec4 clip = projection * view * glm::dvec4(p, 1.0);
  Reference r{};
  r.visible = std::abs(clip.x) < clip.w && std::abs(clip.y) < clip.w && std::abs(clip.z) < clip.w;
  r.screenX = (clip.x / clip.w + 1.0) * 0.5 * width;
  r.screenY = (clip.y / clip.w + 1.0) * 0.5 * height;
  r.viewDepth = clip.w;
  return r;
}

TEST(Projection, MatchesGlmInDoubleForRandomPoints) {
  Camera camera;
  camera.eye = {-2.5, 0.3, 0.4};
  camera.yawRadians = 0.2f;
  camera.pitchRadians = -0.1f;
  const int width = 640, height = 360;
  const ViewTransform view = test::makeView(camera, width, height);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> coordinate(-3.0, 3.0);
  int compared = 0;
  for (int i = 0; i < 20000; ++i) {
    const glm::dvec3 p(coordinate(rng), coordinate(rng), coordinate(rng));
    const Reference expected = referenceProject(camera, width, height, p);
    PixelHit hit{};
    const bool visible = projectPoint(view, float(p.x), float(p.y), float(p.z), hit);
    // Float rounding may flip points within a hair of the frustum's planes or a pixel edge.
    const double edgeDistance =
        std::min({std::abs(expected.screenX - std::round(expected.screenX)),
                  std::abs(expected.screenY - std::round(expected.screenY))});
    if (edgeDistance < 1e-3) continue;
    if (expected.visible != visible) {
      const double margin =
          std::min({std::abs(expected.screenX), std::abs(expected.screenX - width),
                    std::abs(expected.screenY), std::abs(expected.screenY - height)});
      EXPECT_LT(margin, 1e-2) << "point " << i;
      continue;
    }
    if (!visible) continue;
    ++compared;
    EXPECT_EQ(hit.x, int(std::floor(expected.screenX))) << "point " << i;
    EXPECT_EQ(hit.y, int(std::floor(expected.screenY))) << "point " << i;
    EXPECT_NEAR(hit.viewDepth, expected.viewDepth, 1e-5 * expected.viewDepth);
  }
  EXPECT_GT(compared, 1000);
}

TEST(Projection, RejectsPointsBehindTheCamera) {
  Camera camera;  // at (-3,0,0) looking along +x
  const ViewTransform view = test::makeView(camera, 100, 100);
  PixelHit hit;
  EXPECT_FALSE(projectPoint(view, -4.0f, 0.0f, 0.0f, hit));
  EXPECT_FALSE(projectPoint(view, -3.0f, 0.0f, 0.0f, hit));  // at the eye
  EXPECT_TRUE(projectPoint(view, -2.0f, 0.0f, 0.0f, hit));
  EXPECT_EQ(hit.x, 50);
  EXPECT_EQ(hit.y, 50);
  EXPECT_NEAR(hit.viewDepth, 1.0f, 1e-6f);
}

TEST(Projection, RejectsPointsOutsideNearFarAndSides) {
  Camera camera;
  const ViewTransform view = test::makeView(camera, 100, 100);
  PixelHit hit;
  EXPECT_FALSE(projectPoint(view, -3.0f + 0.005f, 0.0f, 0.0f, hit));  // closer than near 0.01
  EXPECT_TRUE(projectPoint(view, -3.0f + 0.02f, 0.0f, 0.0f, hit));
  EXPECT_FALSE(projectPoint(view, 98.0f, 0.0f, 0.0f, hit));  // beyond far 100
  EXPECT_TRUE(projectPoint(view, 96.0f, 0.0f, 0.0f, hit));
  // tan(30 deg) = 0.577: at distance 1 the half-height of the view is 0.577.
  EXPECT_FALSE(projectPoint(view, -2.0f, 0.0f, 0.6f, hit));
  EXPECT_TRUE(projectPoint(view, -2.0f, 0.0f, 0.55f, hit));
  EXPECT_EQ(hit.y, 97);
  EXPECT_FALSE(projectPoint(view, -2.0f, -0.6f, 0.0f, hit));  // -y is to the right: x > width
}

TEST(Projection, ImageEdgesMapInsideTheImage) {
  Camera camera;
  const int width = 64, height = 48;
  const ViewTransform view = test::makeView(camera, width, height);
  const float halfHeight = std::tan(camera.fovYRadians / 2);
  const float halfWidth = halfHeight * width / height;
  PixelHit hit;
  // Just inside each corner: the pixel is the corner pixel, never width or height.
  const float inset = 0.999999f;
  ASSERT_TRUE(projectPoint(view, -2.0f, halfWidth * inset, -halfHeight * inset, hit));
  EXPECT_EQ(hit.x, 0);
  EXPECT_EQ(hit.y, 0);
  ASSERT_TRUE(projectPoint(view, -2.0f, -halfWidth * inset, halfHeight * inset, hit));
  EXPECT_EQ(hit.x, width - 1);
  EXPECT_EQ(hit.y, height - 1);
}

TEST(Projection, RejectsNanAndInfinity) {
  Camera camera;
  const ViewTransform view = test::makeView(camera, 100, 100);
  PixelHit hit;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(projectPoint(view, nan, 0.0f, 0.0f, hit));
  EXPECT_FALSE(projectPoint(view, -2.0f, nan, 0.0f, hit));
  EXPECT_FALSE(projectPoint(view, inf, 0.0f, 0.0f, hit));
  EXPECT_FALSE(projectPoint(view, -2.0f, 0.0f, -inf, hit));
}

TEST(ViewTransform, KeepsViewDistancesWhereTheGpuReciprocalIsExact) {
  Camera camera = Camera::lookingFrom({0, 0, 0}, 0.0f, 0.0f);
  const ViewTransform usual = makeViewTransform(camera, 64, 32);
  EXPECT_EQ(usual.nearPlane, camera.nearPlane);
  EXPECT_EQ(usual.farPlane, camera.farPlane);
  camera.nearPlane = 1e-38f;
  camera.farPlane = 1e38f;
  const ViewTransform extreme = makeViewTransform(camera, 64, 32);
  EXPECT_EQ(extreme.nearPlane, kMinViewDistance);
  EXPECT_EQ(extreme.farPlane, kMaxViewDistance);
}

TEST(FramebufferWord, OrdersByDepthThenLowestPayload) {
  EXPECT_LT(packDepthWord(1.0f, 100), packDepthWord(2.0f, 0));
  EXPECT_LT(packDepthWord(1.0f, 3), packDepthWord(1.0f, 4));
  EXPECT_LT(packDepthWord(std::numeric_limits<float>::max(), 0xffffffffu), kEmptyPixel);
  EXPECT_EQ(payloadOfWord(packDepthWord(0.5f, 1234)), 1234u);
  EXPECT_EQ(depthOfWord(packDepthWord(0.5f, 1234)), 0.5f);
}

}  // namespace
}  // namespace pcv
