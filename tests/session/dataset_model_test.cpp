// A dataset in the viewer's scene model: a folder of 1 000 small tiles (LAS, LAZ and COPC) made
// here opens as one streamed forest under a limit of 256 open files, each tile shows only its
// overview until the view's frames load it, then is resident (or streaming, for an octree);
// a tile that cannot be decoded is failed with its error; the tile boxes are one more set drawn,
// switched off and on; and a VPC's overview asset is the first image.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/virtual_point_cloud.hpp"
#include "pcv/session/scene_model.hpp"
#include "io_test_util.hpp"
#include "synthetic_tiles.hpp"
#include "test_support.hpp"
#include "reported_errors.hpp"

namespace pcv {
namespace {

namespace fs = std::filesystem;
constexpr int kWidth = 256, kHeight = 144;

/// The soft limit on open files lowered for one test, and restored after.
class OpenFileLimit {
 public:
  explicit OpenFileLimit(rlim_t files) {
    getrlimit(RLIMIT_NOFILE, &saved_);
    rlimit lowered = saved_;
    lowered.rlim_cur = std::min(files, saved_.rlim_max);
    setrlimit(RLIMIT_NOFILE, &lowered);
  }
  ~OpenFileLimit() { setrlimit(RLIMIT_NOFILE, &saved_); }
  OpenFileLimit(const OpenFileLimit&) = delete;
  OpenFileLimit& operator=(const OpenFileLimit&) = delete;

 private:
  rlimit saved_{};
};

/// A model streaming on the CPU renderer, as the viewer makes it.
struct DatasetModel {
  std::unique_ptr<Renderer> renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  test::ReportedErrors errors;
  SceneModel scene{*renderer,
                   DemoCylinders{},
                   {},
                   {.pointBudget = 10'000'000, .gpuMemoryBytes = 64 << 20},
                   errors.report()};

  /// Frames through a camera that sees the whole dataset until the stream converges.
  bool converge() {
    const Camera camera = frameBounds(scene.parts().filesBounds(), float(kWidth) / float(kHeight));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      scene.poll();
      scene.updateStream(camera, kWidth, kHeight);
      if (!scene.loading()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
  }
  std::vector<size_t> countStates() const {
    std::vector<size_t> counts(size_t(TileState::Failed) + 1, 0);
    const StreamPart& streamed = *scene.parts().stream.get();
    for (size_t i = 0; i < streamed.tiles()->tiles.size(); ++i) {
      ++counts[size_t(streamed.tileStatus(i).state)];
    }
    return counts;
  }
};

TEST(DatasetModel, AThousandTilesMadeHereStreamUnderFewOpenFiles) {
  test::TempDir dir;
  const fs::path folder = dir.file("tiles");
  fs::create_directories(folder);
  constexpr int kTiles = 1000, kColumns = 40;
  parallelForEachDynamic(kTiles, [&](size_t i) {
    const int column = int(i) % kColumns, row = int(i) / kColumns;
    const fs::path base = folder / ("t" + std::to_string(1000 + i));
    if (i % 10 == 0) {
      test::writeCopcTile(base.string() + ".copc.laz", column, row, 6);
    } else if (i % 10 < 4) {
      test::writeLazTile(base.string() + ".laz", column, row, 5, 10);
    } else {
      test::writeLasTile(base.string() + ".las", column, row, 4);
    }
  });
  const OpenFileLimit limit(256);
  DatasetModel model;
  model.scene.open({folder.string()}, true);
  model.scene.wait();
  const StreamPart* streamed = model.scene.parts().stream.get();
  ASSERT_NE(streamed, nullptr) << "a folder streams as one forest";
  ASSERT_NE(streamed->tiles(), nullptr);
  EXPECT_EQ(streamed->tiles()->tiles.size(), size_t(kTiles));
  EXPECT_EQ(streamed->pointCount(), 100u * 36 + 300u * 25 + 600u * 16);
  // Before a frame the LAZ tiles show their chunks' first points only; the LAS tiles' 16 points
  // and the COPC tiles' roots (all their points) are all in the overview already.
  const std::vector<size_t> before = model.countStates();
  EXPECT_EQ(before[size_t(TileState::OverviewOnly)], 300u);
  EXPECT_EQ(before[size_t(TileState::Resident)], 700u);

  ASSERT_TRUE(model.converge());
  const std::vector<size_t> counts = model.countStates();
  EXPECT_EQ(counts[size_t(TileState::Failed)], 0u);
  EXPECT_EQ(counts[size_t(TileState::Loading)], 0u);
  EXPECT_EQ(counts[size_t(TileState::Resident)] + counts[size_t(TileState::Streaming)],
            size_t(kTiles))
      << "every tile is loaded where the whole dataset is in view";
  EXPECT_GT(counts[size_t(TileState::Resident)], 800u)
      << "the LAS and LAZ tiles at least (the LAS tiles' 16 points are all in the overview)";
  EXPECT_TRUE(model.errors.take().empty());
}

TEST(DatasetModel, ATileThatCannotBeDecodedIsFailedWithItsError) {
  test::TempDir dir;
  const fs::path folder = dir.file("tiles");
  fs::create_directories(folder);
  // 1 600 points a tile: every 6th is in the overview, the rest decoded with the tile.
  for (int i = 0; i < 4; ++i) {
    test::writeLasTile(folder / ("t" + std::to_string(i) + ".las"), i, 0, 40);
  }
  DatasetModel model;
  model.scene.open({folder.string()}, true);
  model.scene.wait();
  ASSERT_NE(model.scene.parts().stream.get(), nullptr);
  // The header was read; the file is no longer LAS when the tile is decoded.
  {
    std::fstream file(folder / "t2.las", std::ios::in | std::ios::out | std::ios::binary);
    file.write("XXXX", 4);
  }
  model.converge();
  const TileStatus broken = model.scene.parts().stream->tileStatus(2);
  EXPECT_EQ(broken.state, TileState::Failed);
  ASSERT_NE(broken.error, nullptr);
  EXPECT_NE(broken.error->find("t2.las"), std::string::npos) << *broken.error;
  EXPECT_EQ(model.scene.parts().stream->tileStatus(1).state, TileState::Resident);
  EXPECT_FALSE(model.errors.take().empty()) << "the error is said once, too";
}

TEST(DatasetModel, TileBoxesAreOneMoreSetDrawnAndSwitchOff) {
  test::TempDir dir;
  const fs::path folder = dir.file("tiles");
  fs::create_directories(folder);
  for (int i = 0; i < 3; ++i)
    test::writeLasTile(folder / ("t" + std::to_string(i) + ".las"), i, 0, 8);
  DatasetModel model;
  EXPECT_TRUE(model.scene.parts().tileBoxesShown()) << "on by default";
  model.scene.open({folder.string()}, true);
  model.scene.wait();
  ASSERT_TRUE(model.converge());
  const size_t streamedSets = model.scene.parts().stream->selection().sets().size();
  EXPECT_EQ(model.scene.parts().drawnSets().sets().size(), streamedSets + 1);
  const size_t setsWithBoxes = model.renderer->sets().size();
  model.scene.setTileBoxes(false);
  EXPECT_EQ(model.scene.parts().drawnSets().sets().size(), streamedSets);
  EXPECT_EQ(model.renderer->sets().size(), setsWithBoxes - 1);
  model.scene.setTileBoxes(true);
  EXPECT_EQ(model.scene.parts().drawnSets().sets().size(), streamedSets + 1);
  // A COPC file alone has no tiles: nothing to outline.
  test::writeCopcTile(dir.file("one.copc.laz"), 0, 0, 8);
  model.scene.open({dir.file("one.copc.laz").string()}, true);
  model.scene.wait();
  ASSERT_NE(model.scene.parts().stream.get(), nullptr);
  EXPECT_EQ(model.scene.parts().stream->tiles(), nullptr);
  model.converge();
  EXPECT_EQ(model.scene.parts().drawnSets().sets().size(),
            model.scene.parts().stream->selection().sets().size());
}

TEST(DatasetModel, ADatasetOpensOnAThreadOfItsOwnWhileFramesRun) {
  test::TempDir dir;
  const fs::path folder = dir.file("tiles");
  fs::create_directories(folder);
  for (int i = 0; i < 20; ++i) {
    test::writeLasTile(folder / ("t" + std::to_string(i) + ".las"), i % 5, i / 5, 10);
  }
  DatasetModel model;
  model.scene.open({folder.string()}, true);
  // open() returned before the headers were read: the model says it is opening, and shows the
  // dataset only once poll() finds it read.
  const SceneOpening* opening = model.scene.opening();
  ASSERT_NE(opening, nullptr);
  EXPECT_EQ(opening->label(), folder.string());
  EXPECT_TRUE(model.scene.loading());
  EXPECT_EQ(model.scene.parts().stream.get(), nullptr);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!model.scene.parts().stream.get() && std::chrono::steady_clock::now() < deadline) {
    model.scene.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_NE(model.scene.parts().stream.get(), nullptr);
  EXPECT_EQ(model.scene.opening(), nullptr);
  EXPECT_EQ(model.scene.parts().stream->tiles()->tiles.size(), 20u);
  EXPECT_TRUE(model.converge());
  EXPECT_TRUE(model.errors.take().empty());
}

TEST(DatasetModel, AVpcOverviewAssetIsTheFirstImage) {
  test::TempDir dir;
  std::vector<fs::path> tiles;
  for (int i = 0; i < 3; ++i) {
    tiles.push_back(test::writeLasTile(dir.file("t" + std::to_string(i) + ".las"), i, 0, 20));
  }
  buildVirtualPointCloud(dir.file("set.vpc"), tiles);
  // The overview as `pdal_wrench build_vpc --overview` names it, beside the VPC, on every item.
  test::writeCopcTile(dir.file("set-overview.copc.laz"), 0, 0, 7);
  std::ifstream in(dir.file("set.vpc"));
  std::string text((std::istreambuf_iterator<char>(in)), {});
  in.close();
  const std::string data = "\"assets\":{";
  for (size_t at = text.find(data); at != std::string::npos; at = text.find(data, at + 1)) {
    text.insert(at + data.size(),
                R"("overview":{"href":"./set-overview.copc.laz","roles":["overview"]},)");
  }
  ASSERT_NE(text.find("set-overview"), std::string::npos) << text.substr(0, 400);
  test::writeText(dir.file("set.vpc"), text);
  const std::vector<std::string> overviews = datasetOverviews({dir.file("set.vpc").string()});
  ASSERT_EQ(overviews.size(), 1u) << "one file, named by every item";
  EXPECT_TRUE(fs::equivalent(overviews[0], dir.file("set-overview.copc.laz")));

  DatasetModel model;
  model.scene.open({dir.file("set.vpc").string()}, true);
  model.scene.wait();
  const StreamPart* streamed = model.scene.parts().stream.get();
  ASSERT_NE(streamed, nullptr);
  EXPECT_EQ(streamed->tiles()->overviews.size(), 1u);
  // The first tree is the overview's: its root (49 points) is resident before any frame, and no
  // tile was sampled (each is one node of all its points).
  EXPECT_EQ(streamed->cloud().stats().residentPoints, 49u);
  const NodeForest& forest = streamed->cloud().source().forest();
  uint64_t tilePoints = 0;
  for (size_t node = forest.nodes.size() - 3; node < forest.nodes.size(); ++node) {
    tilePoints += forest.nodes[node].pointCount;
  }
  EXPECT_EQ(tilePoints, 3u * 400);
  ASSERT_TRUE(model.converge());
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(streamed->tileStatus(i).state, TileState::Resident);
  EXPECT_EQ(streamed->cloud().stats().pointsDrawn, tilePoints)
      << "the tiles drawn, their overview steps aside";
}

}  // namespace
}  // namespace pcv
