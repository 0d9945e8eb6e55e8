// Writing a cloud held in memory as LAS, LAZ or COPC, and reading it back.
#include "pcv/session/cloud_writer.hpp"

#include <gtest/gtest.h>

#include "io_test_util.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv {
namespace {

std::shared_ptr<PointCloud> coloredLine(int count) {
  auto cloud = std::make_shared<PointCloud>();
  cloud->origin = glm::dvec3(500000.0, 5000000.0, 100.0);
  cloud->hasColor = true;
  ScalarAttribute& intensity = cloud->attributes.emplace_back();
  intensity.name = "intensity";
  for (int i = 0; i < count; ++i) {
    cloud->points.push_back({0.25f * float(i), 0.5f, -0.125f * float(i), packRgba(10, 20, 30)});
    intensity.values.push_back(float(100 * i));
  }
  return cloud;
}

TEST(CloudWriter, KindComesFromTheName) {
  EXPECT_EQ(cloudFileKindFor("a.las"), CloudFileKind::Las);
  EXPECT_EQ(cloudFileKindFor("dir/A.LAZ"), CloudFileKind::Laz);
  EXPECT_EQ(cloudFileKindFor("a.copc.laz"), CloudFileKind::Copc);
  EXPECT_THROW(cloudFileKindFor("a.ply"), InputError);
}

TEST(CloudWriter, EachKindReadsBackTheSamePoints) {
  test::TempDir dir;
  const std::shared_ptr<PointCloud> cloud = coloredLine(50);
  for (const char* name : {"line.las", "line.laz", "line.copc.laz"}) {
    const std::filesystem::path path = dir.file(name);
    const CloudWriteSummary summary = writePointCloud(cloud, path);
    EXPECT_EQ(summary.points, 50u) << name;
    const PointCloud again = readPointCloud(path);
    ASSERT_EQ(again.size(), 50u) << name;
    EXPECT_TRUE(again.hasColor) << name;
    const Box3d expected = cloud->worldBounds(), read = again.worldBounds();
    for (int axis = 0; axis < 3; ++axis) {
      EXPECT_NEAR(read.min[axis], expected.min[axis], 1e-5) << name;
      EXPECT_NEAR(read.max[axis], expected.max[axis], 1e-5) << name;
    }
    ASSERT_NE(again.findAttribute("intensity"), nullptr) << name;
  }
}

TEST(CloudWriter, AFailedWriteLeavesNoFile) {
  test::TempDir dir;
  const std::filesystem::path path = dir.file("missing-folder/line.las");
  EXPECT_THROW(writePointCloud(coloredLine(3), path), Error);
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(dir.file("")));
}

}  // namespace
}  // namespace pcv
