// The one decision of how sources open: cylinders without files, a COPC file streamed unless
// --in-core, LAS files over the memory limit streamed from their COPC cache (converted once,
// through the front end's converter), everything else read whole.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>

#include "pcv/core/error.hpp"
#include "pcv/session/copc_cache.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/session/scene_sources.hpp"
#include "cache_folder.hpp"
#include "session_test_files.hpp"

namespace pcv {
namespace {

using test::CacheFolder;

TEST(ScenePlan, NoFilesAreTheCylinders) {
  const ScenePlan plan = planScene({.demo = {.pointCount = 500, .seed = 4}}, {});
  EXPECT_EQ(plan.kind, SceneKind::Cylinders);
  EXPECT_EQ(plan.demo.pointCount, 500u);
  EXPECT_EQ(plan.demo.seed, 4u);
  EXPECT_EQ(plan.rendererOptions().storage, RendererOptions{}.storage);
}

TEST(ScenePlan, ACopcFileStreamsUnlessInCore) {
  test::TempDir dir;
  const std::string copc = test::writeCylinderCopc(dir.file("c.copc.laz"), 5000).string();
  const ScenePlan streamed = planScene({.files = {copc}}, {});
  EXPECT_EQ(streamed.kind, SceneKind::Streamed);
  EXPECT_EQ(streamed.files, std::vector<std::string>{copc});
  EXPECT_TRUE(streamed.cachedFrom.empty());
  EXPECT_EQ(streamed.rendererOptions().storage, PointStorage::Compact);
  EXPECT_EQ(planScene({.files = {copc}}, {.inCore = true}).kind, SceneKind::InCore);
}

TEST(ScenePlan, LasWithinTheMemoryLimitIsReadWhole) {
  CacheFolder cache;
  test::TempDir dir;
  const std::string las = test::writeGridLas(dir.file("grid.las")).string();
  const ScenePlan plan = planScene({.files = {las}}, {.memoryBytes = 1ull << 30});
  EXPECT_EQ(plan.kind, SceneKind::InCore);
  EXPECT_EQ(plan.files, std::vector<std::string>{las});
}

TEST(ScenePlan, LasAboveTheMemoryLimitStreamsFromItsCopcCache) {
  CacheFolder cache;
  test::TempDir dir;
  const std::string las = test::writeGridLas(dir.file("grid.las")).string();
  const StreamLimits limits{.memoryBytes = 1000};  // 1 600 points take 25.6 kB or more
  const ScenePlan plan = planScene({.files = {las}}, limits);
  EXPECT_EQ(plan.kind, SceneKind::Streamed);
  EXPECT_EQ(plan.cachedFrom, std::vector<std::string>{las});
  EXPECT_TRUE(plan.cacheMissing);
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_EQ(std::filesystem::path(plan.files[0]).parent_path(), cache.path());
  EXPECT_GT(plan.inCoreBytes, limits.memoryBytes);
  // Beyond memory but --in-core: read whole, as asked (its reader refuses what cannot fit).
  EXPECT_EQ(planScene({.files = {las}}, {.memoryBytes = 1000, .inCore = true}).kind,
            SceneKind::InCore);
}

TEST(ScenePlan, InCoreBytesCountWhatAReadKeeps) {
  test::TempDir dir;
  const std::string las = test::writeGridLas(dir.file("grid.las")).string();
  // Point format 2 has 12 fields; a read keeps intensity, class and the two return numbers:
  // 16 bytes of point and 4 of each of those.
  EXPECT_EQ(inCoreBytes({las}), std::optional<uint64_t>(1600 * (16 + 4 * 4)));
}

TEST(PrepareScene, AMissingCacheWithoutAConverterIsAnInputError) {
  CacheFolder cache;
  test::TempDir dir;
  const std::string las = test::writeGridLas(dir.file("grid.las")).string();
  EXPECT_THROW(prepareScene({.files = {las}}, {.stream = {.memoryBytes = 1000}}), InputError);
}

TEST(PrepareScene, ConvertsOnceThenStreamsTheCache) {
  CacheFolder cache;
  test::TempDir dir;
  const std::string las = test::writeGridLas(dir.file("grid.las")).string();
  int conversions = 0;
  SceneOptions options{.stream = {.memoryBytes = 1000}};
  options.convertToCopc = [&](const std::vector<std::string>& inputs, const std::string& output) {
    ++conversions;
    EXPECT_EQ(inputs, std::vector<std::string>{las});
    test::writeCylinderCopc(output, 3000);  // what it holds is the converter's business
  };
  const ScenePlan first = prepareScene({.files = {las}}, options);
  EXPECT_EQ(conversions, 1);
  EXPECT_FALSE(first.cacheMissing);
  EXPECT_TRUE(std::filesystem::is_regular_file(first.files[0]));
  const ScenePlan second = prepareScene({.files = {las}}, options);
  EXPECT_EQ(conversions, 1) << "the cache is converted once";
  EXPECT_EQ(second.files, first.files);
}

TEST(CopcCache, AChangedInputGetsANewCacheAndTheOldOneGoes) {
  test::TempDir dir;
  const std::string las = test::writeGridLas(dir.file("grid.las"), 10).string();
  const std::filesystem::path before = copcCachePath({las}, dir.file("cache"));
  std::filesystem::create_directories(before.parent_path());
  test::writeBytes(before, {1, 2, 3});
  test::writeGridLas(las, 12);  // another size
  const std::filesystem::path after = copcCachePath({las}, dir.file("cache"));
  ASSERT_NE(before, after);
  test::writeBytes(after, {1, 2, 3});
  EXPECT_EQ(removeOutdatedCopcCaches(after), std::vector<std::filesystem::path>{before});
  EXPECT_FALSE(std::filesystem::exists(before));
  EXPECT_TRUE(std::filesystem::exists(after));
}

}  // namespace
}  // namespace pcv
