// Files added beside a streamed COPC file: both are drawn in one frame with the stream's view
// origin (the files' points are offsets from it, small near the data), the bounds are the union,
// a pick finds a file's point with its index and a streamed node's without one, closing either
// leaves the other's sets alone, and recolouring keeps both.
#include <algorithm>

#include "pcv/session/stream_limits.hpp"
#include "stream_beside_scene.hpp"
#if PCV_WITH_CUDA
#include "pcv/cuda/device_buffer.hpp"
#endif

namespace pcv {
namespace {

using test::kStreamCentre;
using test::settle;
using test::StreamWithFileBeside;

TEST(StreamBeside, AddedFilesAreDrawnBesideTheStream) {
  StreamWithFileBeside s;
  EXPECT_TRUE(s.errors.take().empty());
  ASSERT_NE(s.scene.parts().stream.get(), nullptr) << "the stream stays";
  ASSERT_TRUE(s.scene.parts().inCore.cloud().size() == 40u * 40u);
  EXPECT_EQ(s.scene.parts().files(), (std::vector<std::string>{s.copc, s.las}));
  EXPECT_EQ(s.scene.parts().inCore.files(), std::vector<std::string>{s.las});
  EXPECT_GT(s.renderer->reservedPointSlots(), 0u) << "the stream keeps its reserved pool";

  const SetSelection drawn = s.scene.parts().drawnSets();
  EXPECT_FALSE(drawn.everything());
  uint64_t drawnPoints = 0;
  PointSetId fileSet = 0;
  for (PointSetId set : drawn.sets()) {
    drawnPoints += s.renderer->pointCount(set);
    if (s.renderer->pointCount(set) == 40u * 40u) fileSet = set;
  }
  EXPECT_NE(fileSet, 0u) << "the file's set is drawn";
  EXPECT_EQ(drawnPoints, s.scene.parts().stream->cloud().stats().pointsDrawn + 40u * 40u);
  EXPECT_EQ(drawnPoints, s.scene.parts().pointsDrawn());
}

TEST(StreamBeside, BoundsAreTheUnionOfTheStreamAndTheFiles) {
  StreamWithFileBeside s;
  const Box3d stream = s.scene.parts().stream->bounds();
  const Box3d bounds = s.scene.parts().filesBounds();
  EXPECT_LE(bounds.min.x, stream.min.x);
  EXPECT_LE(bounds.min.y, stream.min.y);
  EXPECT_GE(bounds.max.x, 500100.0 - 1e-3) << "the grid reaches 100 units east";
  EXPECT_GE(bounds.max.y, 5000050.0 - 1e-3);
  EXPECT_GE(bounds.max.z, 110.0 - 1e-3);
  EXPECT_EQ(s.scene.shownBounds().max, bounds.max);
}

TEST(StreamBeside, FilePointsAreOffsetsFromTheStreamsOrigin) {
  StreamWithFileBeside s;
  const glm::dvec3 origin = s.scene.parts().origin;
  EXPECT_EQ(origin, s.scene.parts().stream->cloud().origin()) << "one view origin: the stream's";
  // The file's set holds its points as offsets from that origin: they land on the grid (to
  // float precision over ~100 units) where offsets from the file's own origin would not.
  const SetSelection drawn = s.scene.parts().drawnSets();
  std::vector<Point> stored;
  for (PointSetId set : drawn.sets()) {
    if (s.renderer->pointCount(set) == 40u * 40u) stored = s.renderer->downloadPoints(set);
  }
  ASSERT_EQ(stored.size(), 40u * 40u);
  glm::dvec3 low(1e300), high(-1e300);
  for (const Point& p : stored) {
    const glm::dvec3 world = origin + glm::dvec3(p.x, p.y, p.z);
    low = glm::min(low, world);
    high = glm::max(high, world);
  }
  EXPECT_NEAR(low.x, 500000.0, 1e-3);
  EXPECT_NEAR(high.x, 500100.0, 1e-3);
  EXPECT_NEAR(low.y, 5000000.0, 1e-3);
  EXPECT_NEAR(high.y, 5000050.0, 1e-3);
  EXPECT_NEAR(low.z, 100.0, 1e-3);
  EXPECT_NEAR(high.z, 110.0, 1e-3);
}

TEST(StreamBeside, PicksAFilesPointWithItsIndexAndAStreamedPointWithout) {
  StreamWithFileBeside s;
  // Straight down onto a point of the grid's far half, away from the cylinders: the file's
  // point, its double coordinates and its index.
  const glm::dvec3 gridPoint{500000.0 + 100.0 * 30 / 39, 5000000.0 + 50.0 * 20 / 39, 130.0};
  const Camera onGrid = Camera::lookingFrom(gridPoint, 0.0f, -90.0f);
  s.scene.updateStream(onGrid, 128, 128);
  const std::optional<glm::dvec3> file = s.scene.pick(onGrid, {}, 128, 128, 64, 64);
  ASSERT_TRUE(file.has_value());
  ASSERT_TRUE(s.scene.picked()->inCoreIndex.has_value());
  const Point& p = s.scene.parts().inCore.cloud().points[*s.scene.picked()->inCoreIndex];
  EXPECT_EQ(*file, s.scene.parts().inCore.cloud().origin + glm::dvec3(p.x, p.y, p.z));
  EXPECT_GT(file->x, 500050.0);

  // Over the framed cylinders (the grid's corner in view too): a pick of a streamed node's
  // point has no index and lies in the stream's bounds; one of the file's has its index.
  const Box3d streamBounds = s.scene.parts().stream->bounds();
  const Camera onStream = frameBounds(streamBounds, 1.0f);
  settle(s.scene, onStream);
  int streamedHits = 0;
  for (int y = 4; y < 128; y += 8) {
    for (int x = 4; x < 128; x += 8) {
      const std::optional<glm::dvec3> hit = s.scene.pick(onStream, {}, 128, 128, x, y);
      if (!hit || s.scene.picked()->inCoreIndex) continue;
      ++streamedHits;
      for (int axis = 0; axis < 3; ++axis) {
        EXPECT_GE((*hit)[axis], streamBounds.min[axis] - 1e-2);
        EXPECT_LE((*hit)[axis], streamBounds.max[axis] + 1e-2);
      }
    }
  }
  EXPECT_GT(streamedHits, 0);
}

TEST(StreamBeside, ClosingTheStreamKeepsTheFilesSet) {
  StreamWithFileBeside s;
  const glm::dvec3 origin = s.scene.parts().origin;
  s.scene.closeStream();
  EXPECT_EQ(s.scene.parts().stream.get(), nullptr);
  EXPECT_EQ(s.renderer->reservedPointSlots(), 0u) << "the reserved pool is given back";
  EXPECT_EQ(s.renderer->pointCount(), 40u * 40u) << "only the file's set is left";
  EXPECT_TRUE(s.scene.parts().drawnSets().everything());
  EXPECT_EQ(s.scene.parts().files(), std::vector<std::string>{s.las});
  EXPECT_EQ(s.scene.parts().origin, origin) << "its offsets stay valid";
  EXPECT_TRUE(s.scene.parts().holdsFiles());
}

TEST(StreamBeside, RemovingTheFilesKeepsTheStream) {
  StreamWithFileBeside s;
  const uint64_t streamResident = s.renderer->pointCount() - 40u * 40u;
  s.scene.removeFiles();
  ASSERT_NE(s.scene.parts().stream.get(), nullptr);
  EXPECT_EQ(s.renderer->pointCount(), streamResident) << "the stream's nodes stay resident";
  EXPECT_TRUE(s.scene.parts().inCore.cloud().points.empty());
  EXPECT_EQ(s.scene.parts().files(), std::vector<std::string>{s.copc});
  for (PointSetId set : s.scene.parts().drawnSets().sets())
    EXPECT_GT(s.renderer->pointCount(set), 0u);
}

TEST(StreamBeside, RecoloringKeepsBoth) {
  StreamWithFileBeside s;
  s.scene.setColoring({.mode = ColorMode::Elevation});
  ASSERT_NE(s.scene.parts().stream.get(), nullptr);
  EXPECT_EQ(s.scene.coloring().used.mode, ColorMode::Elevation);
  settle(s.scene, s.camera);
  EXPECT_TRUE(s.errors.take().empty());
  const SetSelection drawn = s.scene.parts().drawnSets();
  bool fileDrawn = false;
  for (PointSetId set : drawn.sets()) fileDrawn |= s.renderer->pointCount(set) == 40u * 40u;
  EXPECT_TRUE(fileDrawn);
  EXPECT_EQ(s.scene.parts().inCore.cloud().size(), 40u * 40u);
}

TEST(StreamBeside, ReplacingTheSceneClosesTheStream) {
  StreamWithFileBeside s;
  s.scene.open({s.las}, true);
  settle(s.scene, s.camera);
  EXPECT_EQ(s.scene.parts().stream.get(), nullptr);
  EXPECT_EQ(s.renderer->reservedPointSlots(), 0u);
  EXPECT_EQ(s.scene.parts().files(), std::vector<std::string>{s.las});
  EXPECT_EQ(s.renderer->pointCount(), 40u * 40u);
}

TEST(StreamBeside, AFileThatDoesNotFitBesideTheStreamIsAnError) {
  // On the GPU, whose memory is bounded: a stream given all but 16 MB of it, then a file of a
  // million points (16 bytes each and their compact copy) added beside it.
  std::string whyNot;
  if (!cudaAvailable(&whyNot)) GTEST_SKIP() << whyNot;
  test::TempDir dir;
  const std::string copc = test::writeCylinderCopc(dir.file("c.copc.laz"), 20'000, kStreamCentre);
  const std::string las = test::writeGridLas(dir.file("big.las"), 1000).string();
  std::unique_ptr<Renderer> renderer = createRenderer("cuda");
#if PCV_WITH_CUDA
  // A large GPU has more memory than a stream's reservation can take (the framebuffer names at
  // most 2^32 points): held here, all but 1 GiB of it, so that the stream can fill the rest.
  DeviceBuffer<uint8_t> held;
  if (renderer->freeMemoryBytes() > (2ull << 30))
    held.resize(renderer->freeMemoryBytes() - (1ull << 30));
#endif
  const uint64_t free = renderer->freeMemoryBytes();
  test::ReportedErrors reported;
  SceneModel scene{*renderer,
                   DemoCylinders{.pointCount = 1000, .seed = 1},
                   {},
                   {.pointBudget = 10'000'000, .gpuMemoryBytes = free - (16 << 20)},
                   reported.report()};
  scene.open({copc}, true);
  if (!scene.parts().stream.get()) {
    // The reservation itself did not fit (another process took memory meanwhile): an error too.
    EXPECT_FALSE(reported.take().empty());
    return;
  }
  const Camera camera = frameBounds(*scene.poll(), 1.0f);
  settle(scene, camera);
  scene.open({las}, false);
  settle(scene, camera);
  const std::vector<std::string> errors = reported.take();
  ASSERT_FALSE(errors.empty()) << "a million points do not fit in 16 MB";
  ASSERT_NE(scene.parts().stream.get(), nullptr) << "the stream stays";
  EXPECT_EQ(scene.parts().inCore.cloud().size(), 1000u * 1000u)
      << "the file stays read, on the host";
  for (PointSetId set : scene.parts().drawnSets().sets()) {
    EXPECT_LT(renderer->pointCount(set), 1000u * 1000u) << "no set of the file";
  }
}

TEST(StreamBeside, ABudgetTheRendererCannotReserveIsAnError) {
  // --gpu-memory of a petabyte: the reservation is refused, said, and nothing is thrown out.
  test::TempDir dir;
  const std::string copc = test::writeCylinderCopc(dir.file("c.copc.laz"), 20'000, kStreamCentre);
  std::unique_ptr<Renderer> renderer = createRenderer("cpu");
  test::ReportedErrors errors;
  SceneModel scene{*renderer,
                   DemoCylinders{.pointCount = 1000, .seed = 1},
                   {},
                   {.pointBudget = 10'000'000, .gpuMemoryBytes = 1ull << 50},
                   errors.report()};
  EXPECT_NO_THROW(scene.open({copc}, true));
  EXPECT_EQ(scene.parts().stream.get(), nullptr);
  EXPECT_FALSE(errors.take().empty());
  EXPECT_EQ(renderer->reservedPointSlots(), 0u);
}

TEST(StreamBeside, TheDefaultStreamBudgetLeavesRoomForFiles) {
  // The stream takes a share of the free memory, never all of it: files added beside it are
  // laid out in the rest.
  std::unique_ptr<Renderer> renderer = createRenderer("cpu");
  std::vector<std::string> notes;
  const StreamingOptions options = streamingOptionsFor({}, *renderer, notes);
  EXPECT_GT(options.gpuMemoryBytes, 0u);
  EXPECT_LE(options.gpuMemoryBytes, renderer->freeMemoryBytes() / 2);
}

}  // namespace
}  // namespace pcv

namespace pcv {
namespace {

TEST(StreamLimits, TheDefaultGpuBudgetStaysWithinWhatARendererNames) {
  const double perPoint = 8.04;  // the compact layout and its batch slots
  // A small GPU: half its free memory, the other half for files added beside the stream.
  EXPECT_EQ(defaultStreamMemoryBytes(8ull << 30, true, 1'000'000'000, perPoint), 4ull << 30);
  // A large one (137 GiB free): half of it would be 9 billion points, more than the 32-bit
  // payload names; the budget stops at half of what it names.
  const uint64_t large = defaultStreamMemoryBytes(137ull << 30, true, 1'000'000'000, perPoint);
  EXPECT_LE(double(large) / perPoint, double(kMaxPointCount / 2) + 1.0);
  EXPECT_GT(double(large) / perPoint, double(kMaxPointCount / 2) - 1.0);
  // The CPU backend: four frames of the point budget, within a quarter of the free memory.
  EXPECT_EQ(defaultStreamMemoryBytes(64ull << 30, false, 10'000'000, perPoint),
            4ull * 10'000'000 * sizeof(Point));
  EXPECT_EQ(defaultStreamMemoryBytes(1ull << 30, false, 10'000'000, perPoint), 1ull << 28);
}

}  // namespace
}  // namespace pcv
