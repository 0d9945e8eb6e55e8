// A Classify edit on a streamed scene: its classes are found ahead in the files, the nodes of a
// COPC file, of COPC tiles and of LAS tiles show them as they decode (each node's points are
// the records NodeSource::recordsOf names), exactly as a save writes them, and the save writes
// the classes found ahead rather than finding them again; a dataset's tiles are classified with
// their neighbours' points, to the classes `pcv classify` gives them; what the run would hold
// is checked against memory first.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "pcv/io/copc_file.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/io/record_selection.hpp"
#include "pcv/session/classes_ahead.hpp"
#include "pcv/session/edit_files.hpp"
#include "pcv/session/edited_node_source.hpp"
#include "pcv/session/point_edits.hpp"
#include "pcv/session/tiled_classification.hpp"
#include "pcv/stream/copc_node_source.hpp"
#include "pcv/stream/forest_node_source.hpp"
#include "pcv/stream/tile_sources.hpp"
#include "synthetic_point_files.hpp"
#include "synthetic_tiles.hpp"
#include "synthetic_terrain.hpp"
#include "temp_dir.hpp"

namespace pcv {
namespace {

/// The terrain of the classification tests (120 m square from (300000, 4000000), 2 points per
/// square metre), or its west (column 0) or east (1) half,, every point of class 5, as LAS
/// format 3.
std::string writeTerrain(const test::TempDir& dir, const std::string& name, int column = -1) {
  const test::SyntheticTerrain terrain =
      test::makeSyntheticTerrain(21, {300000.0, 4000000.0, 120.0}, 120.0);
  std::vector<test::SyntheticPoint> points;
  for (const glm::dvec3& p : terrain.points) {
    if (column >= 0 && int(p.x - 300000.0 >= 60.0) != column) continue;
    points.push_back({.x = p.x, .y = p.y, .z = p.z, .classification = 5});
  }
  const std::string path = dir.file(name);
  // The header states the bounds, as a dataset's tiles' do (a tile's origin comes from them).
  test::writeBytes(path,
                   test::lasWithBounds(
                       points, {.pointFormat = 3, .scale = 0.001, .offset = {300000, 4000000, 0}}));
  return path;
}

std::string writeCopc(const std::string& las, const std::string& copc) {
  writeCopcFile([las] { return openLasRecords(las); }, copc, {.maxPointsPerNode = 500});
  return copc;
}

/// Every record of `path`, decoded, in file order.
std::vector<RecordPoint> recordPoints(const std::string& path) {
  std::vector<RecordPoint> points;
  const std::unique_ptr<PointRecordStream> stream = openLasRecords(path);
  const uint8_t* batch = nullptr;
  for (uint64_t n; (n = stream->next(4096, batch)) > 0;) {
    for (uint64_t i = 0; i < n; ++i) {
      points.push_back(
          decodeRecordPoint(batch + i * stream->format().recordLength, stream->format()));
    }
  }
  return points;
}

std::vector<glm::dvec3> recordPositions(const std::string& path) {
  std::vector<glm::dvec3> positions;
  for (const RecordPoint& point : recordPoints(path)) positions.push_back(point.world);
  return positions;
}

std::vector<int> recordClasses(const std::string& path) {
  std::vector<int> classes;
  for (const RecordPoint& point : recordPoints(path)) classes.push_back(point.classification);
  return classes;
}

std::vector<PointEdit> classifyEdits() {
  PointEdit edit;
  edit.action = EditAction::Classify;
  edit.classify = ClassifySettings{};  // ground and noise, the airborne defaults (metres)
  return {edit};
}

/// The class of every record of each file as `source`'s nodes show it (-1: shown by none), and
/// checks that each node's points lie where the records it names do.
std::map<std::string, std::vector<int>> shownClasses(const NodeSource& source,
                                                     const std::vector<std::string>& files) {
  std::map<std::string, std::vector<int>> shown;
  std::map<std::string, std::vector<glm::dvec3>> positions;
  for (const std::string& file : files) {
    positions[file] = recordPositions(file);
    shown[file].assign(positions[file].size(), -1);
  }
  for (size_t node = 0; node < source.forest().nodes.size(); ++node) {
    const PointCloud cloud = source.decodeNode(node);
    if (cloud.size() == 0) continue;
    const std::optional<NodeRecords> records = source.recordsOf(node);
    EXPECT_TRUE(records.has_value()) << node;
    if (!records) continue;
    EXPECT_EQ(records->count, cloud.size()) << node;
    const ScalarAttribute* classes = cloud.findAttribute("classification");
    EXPECT_NE(classes, nullptr);
    if (!classes || !shown.contains(records->file)) continue;
    for (uint64_t i = 0; i < cloud.size(); ++i) {
      const glm::dvec3 world =
          cloud.origin + glm::dvec3(cloud.points[i].x, cloud.points[i].y, cloud.points[i].z);
      const uint64_t record = records->first + i;
      EXPECT_LT(glm::length(world - positions[records->file].at(record)), 0.01)
          << records->file << " " << record;
      EXPECT_EQ(shown[records->file][record], -1) << "record " << record << " shown twice";
      shown[records->file][record] = int(classes->value(i));
    }
  }
  return shown;
}

/// The classes the save of `edits` writes into each record of `file` (all were 5), a tile of
/// `dataset` where given.
std::vector<int> savedClasses(const std::string& file, const std::vector<PointEdit>& edits,
                              const TiledClassificationPlan* dataset = nullptr) {
  const FileEditResult result = evaluateEdits(file, edits, nullptr, dataset);
  std::vector<int> classes(result.points, 5);
  for (const RecordChange& change : result.changes.all()) {
    if (change.classification >= 0) classes[change.index] = change.classification;
  }
  return classes;
}

TEST(ClassesAhead, AStreamedCopcFileShowsTheClassesItsSaveWrites) {
  test::TempDir dir;
  const std::string copc =
      writeCopc(writeTerrain(dir, "terrain.las"), dir.file("terrain.copc.laz"));
  std::vector<PointEdit> edits = classifyEdits();
  const std::vector<int> expected = savedClasses(copc, edits);  // found as the save finds them
  ASSERT_GT(std::count(expected.begin(), expected.end(), 2), int(expected.size() / 3));

  edits[0].found = findClassesAhead(planClassesAhead({copc}, edits), edits);
  const auto file = std::make_shared<const CopcFile>(copc);
  ASSERT_GT(file->hierarchy().nodes.size(), 8u);
  const EditedNodeSource edited(std::make_shared<CopcNodeSource>(file), edits);
  EXPECT_EQ(shownClasses(edited, {copc})[copc], expected);
  // The save of the edit with its classes found ahead writes the same.
  EXPECT_EQ(savedClasses(copc, edits), expected);
  // Without them the nodes keep their classes (a node alone is not classified).
  edits[0].found.reset();
  const EditedNodeSource unclassified(std::make_shared<CopcNodeSource>(file), edits);
  const std::vector<int> kept = shownClasses(unclassified, {copc})[copc];
  EXPECT_EQ(std::count(kept.begin(), kept.end(), 5), int(kept.size()));
}

TEST(ClassesAhead, TilesShowTheClassesFoundInEachTileWithItsNeighbours) {
  // The terrain's west half as a COPC tile, its east half as a LAS tile, streamed as a forest.
  test::TempDir dir;
  const std::string copc = writeCopc(writeTerrain(dir, "west.las", 0), dir.file("west.copc.laz"));
  const std::string las = writeTerrain(dir, "east.las", 1);
  std::vector<PointEdit> edits = classifyEdits();
  const std::optional<TiledClassificationPlan> dataset = classificationDataset({copc, las}, edits);
  ASSERT_TRUE(dataset.has_value());
  edits[0].found = findClassesAhead(planClassesAhead({copc, las}, edits), edits);
  const auto forest =
      std::make_shared<ForestNodeSource>(std::vector<std::shared_ptr<const NodeSource>>{
          std::make_shared<CopcTileSource>(describeTile(copc), std::make_shared<OpenCopcFiles>(2)),
          std::make_shared<WholeTileSource>(describeTile(las), ReadOptions{})});
  std::map<std::string, std::vector<int>> shown =
      shownClasses(EditedNodeSource(forest, edits), {copc, las});
  edits[0].found.reset();
  uint64_t differAlone = 0;
  for (const std::string& tile : {copc, las}) {
    // What the save of the edit finds: each tile with its neighbour's points.
    const std::vector<int> expected = savedClasses(tile, edits, &*dataset);
    EXPECT_EQ(shown[tile], expected) << tile;
    EXPECT_GT(std::count(expected.begin(), expected.end(), 2), int(expected.size() / 4)) << tile;
    const std::vector<int> alone = savedClasses(tile, edits);
    for (size_t i = 0; i < alone.size(); ++i) differAlone += alone[i] != expected[i];
  }
  // Tiles alone are classified otherwise near the edge they share: the neighbours count.
  EXPECT_GT(differAlone, 0u);
}

TEST(ClassesAhead, ADatasetsTilesGetTheClassesPcvClassifyGivesThem) {
  test::TempDir dir;
  const std::vector<std::string> tiles = {writeTerrain(dir, "west.las", 0),
                                          writeTerrain(dir, "east.las", 1)};
  const std::vector<PointEdit> edits = classifyEdits();
  const std::optional<TiledClassificationPlan> dataset = classificationDataset(tiles, edits);
  ASSERT_TRUE(dataset.has_value());
  std::filesystem::create_directories(dir.file("classified"));
  const TiledClassificationPlan plan = planTiledClassification(
      tiles, dir.file("classified"), defaultClassificationBuffer(ClassifySettings{}), false);
  const std::vector<size_t> which = {0, 1};
  for (const TileClassificationOutcome& outcome : classifyTiles(plan, which, ClassifySettings{})) {
    ASSERT_TRUE(outcome.done) << outcome.error;
  }
  // Saved as `pcv edit` and the viewer save them: planned as one dataset.
  const EditSavePlan save = planEditSave(tiles, {.out = dir.file("edited")}, edits);
  ASSERT_TRUE(save.classificationDataset.has_value());
  const std::atomic<bool> stop{false};
  for (const EditFileJob& job : save.jobs) saveEditedFile(job, save, edits, stop);
  for (const std::string& tile : tiles) {
    const std::string name = std::filesystem::path(tile).filename().string();
    const std::vector<int> classified = recordClasses(dir.file("classified/" + name));
    EXPECT_EQ(savedClasses(tile, edits, &*dataset), classified) << tile;
    EXPECT_EQ(recordClasses(dir.file("edited/" + name)), classified) << tile;
  }
  // One file, or a selection of some points, is no dataset.
  EXPECT_FALSE(classificationDataset({tiles[0]}, edits).has_value());
  std::vector<PointEdit> part = edits;
  part[0].selection.clip.box = ClipBox{{300000, 4000000, 0}, {300100, 4000100, 1000}};
  EXPECT_FALSE(classificationDataset(tiles, part).has_value());
}

TEST(ClassesAhead, TheSaveWritesTheClassesFoundAheadNotFoundAgain) {
  test::TempDir dir;
  const std::string las = writeTerrain(dir, "terrain.las");
  std::vector<PointEdit> edits = classifyEdits();
  // Classes found ahead that no filter would find: every point noise.
  FoundClasses noise;
  const uint64_t records = recordPositions(las).size();
  for (uint64_t i = 0; i < records; ++i) {
    noise.indices.push_back(i);
    noise.classes.push_back(kClassNoise);
  }
  auto found = std::make_shared<FoundFileClasses>();
  found->add(las, std::move(noise));
  edits[0].found = found;
  const std::vector<int> saved = savedClasses(las, edits);
  EXPECT_EQ(std::count(saved.begin(), saved.end(), int(kClassNoise)), int(saved.size()));
  // Found for another file: this one's are found when it is saved.
  auto elsewhere = std::make_shared<FoundFileClasses>();
  elsewhere->add(dir.file("other.las"), FoundClasses{});
  edits[0].found = elsewhere;
  const std::vector<int> again = savedClasses(las, edits);
  EXPECT_LT(std::count(again.begin(), again.end(), int(kClassNoise)), int(again.size() / 10));
}

TEST(ClassesAhead, ARunLargerThanTheMemoryAllowedIsRefusedBeforeAnyPointIsRead) {
  test::TempDir dir;
  const std::string las = writeTerrain(dir, "terrain.las");
  const std::vector<PointEdit> edits = classifyEdits();
  const uint64_t needed = planClassesAhead({las}, edits, UINT64_MAX).bytes();
  EXPECT_GT(needed, recordPositions(las).size() * 9);
  EXPECT_THROW(planClassesAhead({las}, edits, needed - 1), InputError);
  EXPECT_EQ(planClassesAhead({las}, edits, needed).files, std::vector<std::string>{las});
  std::vector<PointEdit> neither = edits;
  neither[0].classify.ground = neither[0].classify.noise = false;
  EXPECT_THROW(planClassesAhead({las}, neither, needed), InputError);
  // Classes found before count against the same memory.
  EXPECT_THROW(planClassesAhead({las}, edits, needed, 1), InputError);
}

}  // namespace
}  // namespace pcv
