// Points a caller holds in CUDA memory, packed on the GPU: the same points, bounds, origin and
// elevation colours as the same values in host memory give. Skipped without a CUDA device.
#include <cmath>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/color_map.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/cuda/device_buffer.hpp"
#include "pcv/raster/device_point_arrays.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr uint64_t kRows = 300'000;

/// Rows of x, y, z, w doubles (UTM-sized), one NaN row first, and colours.
struct HostArrays {
  std::vector<double> xyzw;
  std::vector<uint8_t> rgb;
};

HostArrays makeArrays() {
  HostArrays a;
  a.xyzw.resize(kRows * 4);
  a.rgb.resize(kRows * 3);
  for (uint64_t i = 0; i < kRows; ++i) {
    const double t = double(i) / kRows;
    a.xyzw[4 * i + 0] = 500000.0 + 100.0 * std::sin(37.0 * t);
    a.xyzw[4 * i + 1] = 5000000.0 + 100.0 * std::cos(53.0 * t);
    a.xyzw[4 * i + 2] = 200.0 + 30.0 * t * t;
    a.xyzw[4 * i + 3] = -1.0;
    for (int c = 0; c < 3; ++c) a.rgb[3 * i + c] = uint8_t((i * (c + 3)) & 0xff);
  }
  a.xyzw[0] = NAN;
  return a;
}

/// What the host path makes of the same values: origin near the first finite point, float
/// offsets, the data's colours or elevation colours over the 2nd-98th percentile.
PointCloud hostCloud(const HostArrays& a, bool colors) {
  PointCloud cloud;
  cloud.origin = originNear(glm::dvec3(a.xyzw[4], a.xyzw[5], a.xyzw[6]));
  cloud.points.resize(kRows);
  for (uint64_t i = 0; i < kRows; ++i) {
    Point& p = cloud.points[i];
    p.x = float(a.xyzw[4 * i + 0] - cloud.origin.x);
    p.y = float(a.xyzw[4 * i + 1] - cloud.origin.y);
    p.z = float(a.xyzw[4 * i + 2] - cloud.origin.z);
    p.rgba = packRgba(a.rgb[3 * i], a.rgb[3 * i + 1], a.rgb[3 * i + 2]);
  }
  cloud.hasColor = colors;
  if (!colors) colorize(cloud, ColorMode::Elevation);
  return cloud;
}

class DevicePointArraysTest : public ::testing::Test {
 protected:
  void SetUp() override {
    PCV_REQUIRE_CUDA();
    host_ = makeArrays();
    xyzw_.resize(host_.xyzw.size());
    rgb_.resize(host_.rgb.size());
    ASSERT_EQ(cudaMemcpy(xyzw_.data(), host_.xyzw.data(), xyzw_.bytes(), cudaMemcpyHostToDevice),
              cudaSuccess);
    ASSERT_EQ(cudaMemcpy(rgb_.data(), host_.rgb.data(), rgb_.bytes(), cudaMemcpyHostToDevice),
              cudaSuccess);
  }
  /// x, y, z of the rows: a view with a row stride of four doubles.
  DeviceArray positions() const {
    return {xyzw_.data(), DeviceScalar::Float64, kRows, 3, 4 * sizeof(double), sizeof(double)};
  }
  DeviceArray colors() const { return {rgb_.data(), DeviceScalar::UInt8, kRows, 3, 3, 1}; }

  static void expectSamePoints(const std::vector<Point>& got, const PointCloud& expected) {
    ASSERT_EQ(got.size(), expected.points.size());
    uint64_t different = 0;
    for (size_t i = 1; i < got.size(); ++i) {  // row 0 is NaN: compared apart
      different += std::memcmp(&got[i], &expected.points[i], sizeof(Point)) != 0;
    }
    EXPECT_EQ(different, 0u);
    EXPECT_TRUE(std::isnan(got[0].x));
  }

  HostArrays host_;
  DeviceBuffer<double> xyzw_;
  DeviceBuffer<uint8_t> rgb_;
};

TEST_F(DevicePointArraysTest, PacksTheHostPathsPointsOriginAndBounds) {
  const DevicePointArrays arrays(positions(), colors());
  const PointCloud expected = hostCloud(host_, true);
  EXPECT_EQ(arrays.origin(), expected.origin);
  const Box3d bounds = expected.worldBounds();
  EXPECT_EQ(arrays.worldBounds().min, bounds.min);
  EXPECT_EQ(arrays.worldBounds().max, bounds.max);
  EXPECT_TRUE(arrays.hasColor());
  std::vector<Point> host(kRows);
  arrays.produce(0, host);  // through the host fallback
  expectSamePoints(host, expected);
  DeviceBuffer<Point> device(kRows);
  ASSERT_TRUE(arrays.produceOnDevice(0, kRows, device.data(), nullptr));
  std::vector<Point> downloaded(kRows);
  ASSERT_EQ(cudaMemcpy(downloaded.data(), device.data(), device.bytes(), cudaMemcpyDeviceToHost),
            cudaSuccess);
  expectSamePoints(downloaded, expected);
}

TEST_F(DevicePointArraysTest, WithoutColorsPointsGetTheHostsElevationColors) {
  const DevicePointArrays arrays(positions(), std::nullopt);
  EXPECT_FALSE(arrays.hasColor());
  std::vector<Point> got(kRows);
  arrays.produce(0, got);
  expectSamePoints(got, hostCloud(host_, false));
}

TEST_F(DevicePointArraysTest, DrawsTheHostCloudsPixelsOnTheCudaBackend) {
  const DevicePointArrays arrays(positions(), colors());
  const PointCloud expected = hostCloud(host_, true);
  auto renderer = createRenderer("cuda");
  const Camera camera = frameBounds(expected.worldBounds(), 640.0f / 480.0f);
  const ViewTransform view = test::makeView(camera, 640, 480, expected.origin);
  const PointSetId produced = renderer->addSet(arrays);
  const Image fromDevice = test::renderToImage(*renderer, view, {});
  renderer->removeSet(produced);
  renderer->addSet(std::span<const Point>(expected.points));
  const Image fromHost = test::renderToImage(*renderer, view, {});
  EXPECT_EQ(fromDevice.pixels, fromHost.pixels);
}

TEST_F(DevicePointArraysTest, RefusesShapesTypesAndHostMemory) {
  EXPECT_THROW(DevicePointArrays({xyzw_.data(), DeviceScalar::Float64, kRows, 2, 32, 8}, {}),
               InputError);
  EXPECT_THROW(DevicePointArrays(positions(), DeviceArray{rgb_.data(), DeviceScalar::UInt8,
                                                         kRows - 1, 3, 3, 1}),
               InputError);
  EXPECT_THROW(DevicePointArrays({host_.xyzw.data(), DeviceScalar::Float64, kRows, 3, 32, 8}, {}),
               InputError);
}

}  // namespace
}  // namespace pcv
