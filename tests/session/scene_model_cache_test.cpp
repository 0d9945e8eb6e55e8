// The viewer's Open and drop plan under the limits the viewer was started with, as `pcv view
// FILE` and `pcv render` do: a LAS file larger than --memory is converted once to its COPC cache
// and streamed from it; under --in-core it is read whole.
#include <chrono>
#include <cstdlib>
#include <thread>

#include "pcv/core/camera_framing.hpp"
#include "pcv/session/copc_cache.hpp"
#include "pcv/session/scene_model.hpp"
#include "cache_folder.hpp"
#include "session_test_files.hpp"
#include "reported_errors.hpp"

namespace pcv {
namespace {

using test::CacheFolder;

/// Polls and streams frames until the model stops loading; false after 30 s.
bool settle(SceneModel& scene) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    scene.poll();
    if (!scene.parts().filesBounds().empty())
      scene.updateStream(frameBounds(scene.parts().filesBounds(), 1.0f), 64, 64);
    if (!scene.loading()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

TEST(SceneModel, AFileLargerThanTheMemoryLimitStreamsFromItsCopcCache) {
  CacheFolder cache;
  test::TempDir dir;
  const std::string las = test::writeGridLas(dir.file("grid.las")).string();  // 1600 points
  const StreamLimits limits{
      .pointBudget = 10'000'000, .gpuMemoryBytes = 16 << 20, .memoryBytes = 1000};
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  test::ReportedErrors errors;
  SceneModel scene(*renderer, DemoCylinders{.pointCount = 1000, .seed = 1}, {}, limits,
                   errors.report());
  scene.showDemo();
  scene.wait();
  scene.open({las}, true);
  scene.wait();  // the conversion runs on a thread of its own
  ASSERT_NE(scene.parts().stream.get(), nullptr) << "not streamed";
  EXPECT_TRUE(errors.take().empty());
  const ScenePlan plan = planScene({.files = {las}}, limits);
  ASSERT_EQ(plan.cachedFrom, std::vector<std::string>{las});
  EXPECT_FALSE(plan.cacheMissing) << "the cache was made";
  EXPECT_EQ(scene.parts().stream->path(), plan.files[0]) << "streamed from the cache";
  EXPECT_TRUE(scene.parts().inCore.cloud().points.empty()) << "nothing read whole";
  EXPECT_EQ(scene.parts().stream->pointCount(), 1600u);
  ASSERT_TRUE(settle(scene));
  EXPECT_EQ(scene.parts().pointsDrawn(), 1600u) << "every point streamed in, the cylinders gone";

  // Opened again, the cache is there: the stream opens at once, nothing converted.
  scene.open({las}, true);
  EXPECT_EQ(scene.opening(), nullptr);
  ASSERT_NE(scene.parts().stream.get(), nullptr);
  EXPECT_EQ(scene.parts().stream->path(), plan.files[0]);
}

TEST(SceneModel, InCoreReadsAFileLargerThanTheMemoryLimitWhole) {
  CacheFolder cache;
  test::TempDir dir;
  const std::string las = test::writeGridLas(dir.file("grid.las")).string();
  auto renderer = createRenderer("cpu");
  SceneModel scene(*renderer, DemoCylinders{}, {}, {.memoryBytes = 1000, .inCore = true});
  scene.open({las}, true);
  ASSERT_TRUE(settle(scene));
  EXPECT_EQ(scene.parts().stream.get(), nullptr);
  EXPECT_EQ(scene.parts().inCore.cloud().size(), 1600u);
}

}  // namespace
}  // namespace pcv
