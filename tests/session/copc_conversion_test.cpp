// Point files converted to COPC by the library function both front ends call for the COPC cache:
// the points all arrive, in the inputs' order and extent, several inputs merge, and a cancelled
// conversion leaves nothing behind.
#include <gtest/gtest.h>

#include "pcv/io/copc_file.hpp"
#include "pcv/session/copc_conversion.hpp"
#include "session_test_files.hpp"

namespace pcv {
namespace {

TEST(CopcConversion, ConvertsEveryPointOfTheInputs) {
  test::TempDir dir;
  const std::string grid = test::writeGridLas(dir.file("grid.las"), 30).string();
  const std::string output = dir.file("grid.copc.laz").string();
  CopcWriteProgress progress;
  const CopcWriteSummary summary = convertFilesToCopc({grid}, output, {}, &progress);
  EXPECT_EQ(summary.pointCount, 900u);
  EXPECT_EQ(progress.pointsRead.load(), 900u);
  const CopcFile copc(output);
  EXPECT_EQ(copc.pointCount(), 900u);
  const Box3d bounds = copc.statedBounds();
  EXPECT_NEAR(bounds.min.x, 500000.0, 1e-2);
  EXPECT_NEAR(bounds.max.x, 500100.0, 1e-2);
}

TEST(CopcConversion, MergesSeveralInputs) {
  test::TempDir dir;
  const std::string a = test::writeGridLas(dir.file("a.las"), 10).string();
  const std::string b = test::writeGridLas(dir.file("b.las"), 20).string();
  const CopcWriteSummary summary = convertFilesToCopc({a, b}, dir.file("ab.copc.laz").string());
  EXPECT_EQ(summary.pointCount, 100u + 400u);
}

TEST(CopcConversion, ACancelledConversionLeavesNothing) {
  test::TempDir dir;
  const std::string grid = test::writeGridLas(dir.file("grid.las")).string();
  const std::string output = dir.file("grid.copc.laz").string();
  CopcWriteProgress progress;
  progress.cancel = true;
  EXPECT_THROW(convertFilesToCopc({grid}, output, {}, &progress), ConversionCancelled);
  EXPECT_FALSE(std::filesystem::exists(output));
}

TEST(CopcConversion, RejectsNoInputs) {
  test::TempDir dir;
  EXPECT_THROW(convertFilesToCopc({}, dir.file("none.copc.laz").string()), InputError);
}

}  // namespace
}  // namespace pcv
