// A Classify edit: the points its selection holds are classified together by pcv's ground and
// noise filters, each getting mergedClass(its class, the class found); saved files get exactly
// the classes classifyPoints gives their records' positions, points outside the selection keep
// theirs, the log replays it, and the classes shown before saving (the file read whole, in
// float offsets) agree with the save but for points within rounding of a grid cell's edge.
#include <gtest/gtest.h>

#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/io/record_selection.hpp"
#include "pcv/session/cloud_edits.hpp"
#include "pcv/session/edit_log.hpp"
#include "pcv/session/point_edits.hpp"
#include "synthetic_point_files.hpp"
#include "synthetic_terrain.hpp"
#include "temp_dir.hpp"

namespace pcv {
namespace {

/// The terrain (120 m square, UTM-like) as LAS format 3, every point of class 5 before.
std::string writeTerrain(const test::TempDir& dir) {
  const test::SyntheticTerrain terrain =
      test::makeSyntheticTerrain(21, {300000.0, 4000000.0, 120.0}, 120.0);
  std::vector<test::SyntheticPoint> points;
  for (const glm::dvec3& p : terrain.points) {
    points.push_back({.x = p.x, .y = p.y, .z = p.z, .classification = 5});
  }
  const std::string path = dir.file("terrain.las");
  test::writeBytes(
      path,
      test::makeLas(points, {.pointFormat = 3, .scale = 0.001, .offset = {300000, 4000000, 0}}));
  return path;
}

/// Every record's world position and class, in file order.
void readRecords(const std::string& path, std::vector<glm::dvec3>& positions,
                 std::vector<uint8_t>& classes) {
  const std::unique_ptr<PointRecordStream> stream = openLasRecords(path);
  const uint8_t* batch = nullptr;
  for (uint64_t n; (n = stream->next(4096, batch)) > 0;) {
    for (uint64_t i = 0; i < n; ++i) {
      const RecordPoint p =
          decodeRecordPoint(batch + i * stream->format().recordLength, stream->format());
      positions.push_back(p.world);
      classes.push_back(uint8_t(p.classification));
    }
  }
}

PointEdit classifyEdit() {
  PointEdit edit;
  edit.action = EditAction::Classify;
  edit.classify = ClassifySettings{};  // ground and noise, the airborne defaults (metres)
  return edit;
}

TEST(ClassifyEdit, ChangesTheClassesClassifyPointsGivesTheRecords) {
  test::TempDir dir;
  const std::string path = writeTerrain(dir);
  std::vector<glm::dvec3> positions;
  std::vector<uint8_t> before;
  readRecords(path, positions, before);
  const std::vector<uint8_t> found = classifyPoints(positions, ClassifySettings{});
  const FileEditResult result = evaluateEdits(path, std::vector<PointEdit>{classifyEdit()});
  EXPECT_EQ(result.selected, std::vector<uint64_t>{positions.size()});
  uint64_t expectedChanges = 0;
  for (size_t i = 0; i < positions.size(); ++i) {
    expectedChanges += mergedClass(before[i], found[i], ClassifySettings{}) != before[i];
  }
  ASSERT_EQ(result.changed, expectedChanges);
  for (const RecordChange& change : result.changes.all()) {
    EXPECT_EQ(change.classification,
              mergedClass(before[change.index], found[change.index], ClassifySettings{}))
        << change.index;
  }
  uint64_t ground = 0;
  for (const uint8_t c : found) ground += c == kClassGround;
  EXPECT_GT(ground, positions.size() / 3);
}

TEST(ClassifyEdit, OnlyTheSelectionIsClassifiedAndTheLogReplaysIt) {
  test::TempDir dir;
  const std::string path = writeTerrain(dir);
  PointEdit edit = classifyEdit();
  edit.selection.clip.box =
      ClipBox{.min = {300000.0, 4000000.0, -1e4}, .max = {300060.0, 4000120.0, 1e4}};
  edit.classify.noise = false;
  const std::vector<PointEdit> edits = {edit};
  const FileEditResult result = evaluateEdits(path, edits);
  std::vector<glm::dvec3> positions;
  std::vector<uint8_t> before;
  readRecords(path, positions, before);
  for (const RecordChange& change : result.changes.all()) {
    EXPECT_LE(positions[change.index].x, 300060.0) << "outside the box nothing changes";
    EXPECT_EQ(change.classification, kClassGround);  // ground only: the rest keep class 5
  }
  EXPECT_GT(result.changed, 1000u);
  const std::vector<PointEdit> parsed = parseEditLog(editLogText(edits), "log");
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(parsed[0].action, EditAction::Classify);
  EXPECT_FALSE(parsed[0].classify.noise);
  EXPECT_EQ(parsed[0].classify.groundFilter.window, edit.classify.groundFilter.window);
  const FileEditResult replayed = evaluateEdits(path, parsed);
  ASSERT_EQ(replayed.changed, result.changed);
  EXPECT_TRUE(std::equal(replayed.changes.all().begin(), replayed.changes.all().end(),
                         result.changes.all().begin(),
                         [](const RecordChange& a, const RecordChange& b) {
                           return a.index == b.index && a.classification == b.classification;
                         }));
}

TEST(ClassifyEdit, TheClassesShownAgreeWithTheSave) {
  test::TempDir dir;
  const std::string path = writeTerrain(dir);
  const std::vector<PointEdit> edits = {classifyEdit()};
  PointCloud cloud = readPointCloud(path);
  applyEditsToCloud(cloud, edits);
  std::vector<glm::dvec3> positions;
  std::vector<uint8_t> before;
  readRecords(path, positions, before);
  const FileEditResult saved = evaluateEdits(path, edits);
  std::vector<uint8_t> after = before;
  for (const RecordChange& change : saved.changes.all()) {
    after[change.index] = uint8_t(change.classification);
  }
  const ScalarAttribute* shown = cloud.findAttribute("classification");
  ASSERT_EQ(shown->size(), after.size());
  uint64_t differ = 0;
  for (size_t i = 0; i < after.size(); ++i) differ += uint8_t(shown->value(i)) != after[i];
  EXPECT_LE(differ, after.size() / 1000) << "of " << after.size();
}

TEST(ClassifyEdit, BadSettingsAreInputErrors) {
  PointEdit edit = classifyEdit();
  edit.classify.ground = edit.classify.noise = false;
  EXPECT_THROW(validateEdit(edit), InputError);
  edit = classifyEdit();
  edit.classify.groundFilter.cell = -1.0;
  EXPECT_THROW(validateEdit(edit), InputError);
  const std::string log =
      R"({"pcv_edits":1,"edits":[{"action":"classify","ground":true,"noise":true,"cell":1,)"
      R"("slope":0.15,"window":0.5,"threshold":0.5,"scalar":1.25,"noise_radius":2,)"
      R"("noise_neighbours":2}]})";
  EXPECT_THROW(parseEditLog(log, "log"), InputError);  // a window smaller than the cell
}

}  // namespace
}  // namespace pcv
