// Reading part of a COPC file: the nodes that meet the bounds, down to the resolution's level.
#include "pcv/session/copc_region.hpp"

#include <gtest/gtest.h>

#include "io_test_util.hpp"
#include "pcv/core/error.hpp"
#include "session_test_files.hpp"

namespace pcv {
namespace {

TEST(CopcRegion, BoundsDecodeOnlyTheNodesThatMeetThemAndKeepThePointsInside) {
  test::TempDir dir;
  const auto path = test::writeCylinderCopc(dir.file("cylinders.copc.laz"));
  const CopcRegionRead whole = readCopcRegion(path, {});
  EXPECT_EQ(whole.cloud.size(), 40'000u);
  EXPECT_EQ(whole.nodesRead, whole.nodesTotal);

  const Box3d box{.min = glm::dvec3(-0.5, -0.5, -0.5), .max = glm::dvec3(0.0, 0.0, 0.0)};
  const CopcRegionRead part = readCopcRegion(path, {.bounds = box});
  EXPECT_LT(part.nodesRead, whole.nodesTotal);
  uint64_t expected = 0;
  for (const Point& p : whole.cloud.points) {
    const glm::dvec3 world = whole.cloud.origin + glm::dvec3(p.x, p.y, p.z);
    expected += world.x >= box.min.x && world.x <= box.max.x && world.y >= box.min.y &&
                world.y <= box.max.y && world.z >= box.min.z && world.z <= box.max.z;
  }
  EXPECT_GT(expected, 0u);
  EXPECT_EQ(part.cloud.size(), expected);
  EXPECT_EQ(part.cloud.attributes.size(), whole.cloud.attributes.size());
  for (const ScalarAttribute& attribute : part.cloud.attributes) {
    EXPECT_EQ(attribute.values.size(), part.cloud.size()) << attribute.name;
  }
}

TEST(CopcRegion, ACoarseResolutionReadsTheRootOnly) {
  test::TempDir dir;
  const auto path = test::writeCylinderCopc(dir.file("cylinders.copc.laz"));
  const CopcRegionRead root = readCopcRegion(path, {.resolution = 1e6});
  EXPECT_EQ(root.nodesRead, 1u);
  EXPECT_GT(root.cloud.size(), 0u);
  EXPECT_LT(root.cloud.size(), 40'000u);
}

TEST(CopcRegion, RejectsEmptyBoundsAndFilesThatAreNotCopc) {
  test::TempDir dir;
  const auto copc = test::writeCylinderCopc(dir.file("cylinders.copc.laz"), 5'000);
  const Box3d inverted{.min = glm::dvec3(1.0), .max = glm::dvec3(0.0)};
  EXPECT_THROW(readCopcRegion(copc, {.bounds = inverted}), InputError);
  const auto las = test::writeGridLas(dir.file("grid.las"), 10);
  EXPECT_THROW(readCopcRegion(las, {}), InputError);
}

}  // namespace
}  // namespace pcv
