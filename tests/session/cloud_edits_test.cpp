// Edits shown before they are saved: a cloud's classes and withheld flags change as the edits
// say, in order (each sees what the ones before left), with the same selections a save uses;
// withheld points are dropped from what is drawn; the history undoes and redoes them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "pcv/core/camera.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/point_filter.hpp"
#include "pcv/session/cloud_edits.hpp"
#include "pcv/session/edit_history.hpp"

namespace pcv {
namespace {

/// Ten points along x (0..9) in a cloud whose origin is 1000 away, all of class 1.
PointCloud line() {
  PointCloud cloud;
  cloud.origin = {1000.0, 0.0, 0.0};
  ScalarAttribute classes{.name = "classification", .type = AttributeType::UInt8};
  for (int i = 0; i < 10; ++i) {
    cloud.points.push_back(Point{.x = float(i), .y = 0.0f, .z = 0.0f});
    classes.push_back(1.0);
  }
  cloud.attributes.push_back(std::move(classes));
  return cloud;
}

PointEdit inBox(double fromX, double toX, EditAction action, uint32_t classification = 0) {
  PointEdit edit;
  edit.selection.clip.box =
      ClipBox{.min = {1000.0 + fromX, -1.0, -1.0}, .max = {1000.0 + toX, 1.0, 1.0}};
  edit.action = action;
  edit.classification = classification;
  return edit;
}

TEST(CloudEdits, EditsApplyInOrderOnWorldPositions) {
  PointCloud cloud = line();
  PointEdit second = inBox(0.0, 9.0, EditAction::SetClass, 6);
  second.selection.filter.classes = parseClassList("2", "classes");  // only what the first set
  const std::vector<PointEdit> edits = {inBox(2.0, 4.0, EditAction::SetClass, 2), second,
                                        inBox(8.0, 9.0, EditAction::Delete)};
  const std::vector<uint64_t> selected = applyEditsToCloud(cloud, edits);
  EXPECT_EQ(selected, (std::vector<uint64_t>{3, 3, 2}));
  const ScalarAttribute* classes = cloud.findAttribute("classification");
  const ScalarAttribute* withheld = cloud.findAttribute("withheld");
  ASSERT_NE(withheld, nullptr);  // made where the cloud had none
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(classes->value(i), (i >= 2 && i <= 4) ? 6.0 : 1.0) << i;
    EXPECT_EQ(withheld->value(i), i >= 8 ? 1.0 : 0.0) << i;
  }
  const std::vector<bool> shown = shownPoints(cloud);
  ASSERT_EQ(shown.size(), 10u);
  EXPECT_FALSE(shown[9]);
  EXPECT_TRUE(shown[0]);
  EXPECT_EQ(dropWithheldPoints(cloud), 2u);
  EXPECT_EQ(cloud.size(), 8u);
  EXPECT_EQ(cloud.findAttribute("classification")->size(), 8u);
  EXPECT_TRUE(shownPoints(cloud).empty());
}

/// A terrain-like cloud in scan order (rows of points along x, row after row), 300 000 points
/// over 600 x 500 m far from the origin: runs of points cover strips, as files keep them.
PointCloud scanned() {
  PointCloud cloud;
  cloud.origin = {500000.0, 4000000.0, 100.0};
  ScalarAttribute classes{.name = "classification", .type = AttributeType::UInt8};
  for (int row = 0; row < 500; ++row) {
    for (int column = 0; column < 600; ++column) {
      const float x = float(column), y = float(row);
      cloud.points.push_back(Point{.x = x, .y = y, .z = 0.01f * x + 0.02f * y});
      classes.push_back(double(1 + (row + column) % 3));
    }
  }
  cloud.attributes.push_back(std::move(classes));
  return cloud;
}

TEST(CloudEdits, RunsOfPointsOutsideASelectionsRegionsAreSkippedWithoutMissingAPoint) {
  const PointCloud cloud = scanned();
  const CloudChunks chunks = cloudChunks(cloud);
  ASSERT_EQ(chunks.bounds.size(), (cloud.size() + kCloudChunkPoints - 1) / kCloudChunkPoints);
  Camera camera;
  camera.eye = {500300.0, 3999900.0, 400.0};
  camera.yawRadians = 1.2f;
  camera.pitchRadians = -0.9f;
  std::vector<PointSelection> selections(6);
  selections[0].clip.box =
      ClipBox{.min = {500100.0, 4000100.0, 0.0}, .max = {500140.0, 4000180.0, 200.0}};
  selections[1].clip.slab =
      ClipSlab{.normal = {1.0, 0.3, 0.0}, .centre = {500250.0, 4000200.0, 100.0}, .thickness = 6.0};
  selections[2].clip.polygon = PolygonSelection(
      camera, 1280.0, 720.0, {{500.0, 300.0}, {700.0, 320.0}, {600.0, 500.0}}, true);
  selections[3].brush =
      BrushSelection(camera, 1280.0, 720.0, {{640.0, 360.0}, {700.0, 380.0}}, 25.0);
  selections[4].profileLine =
      ProfileLineSelection(ProfileCorridor({{500050.0, 4000250.0}, {500550.0, 4000260.0}}, 4.0),
                           {0.0, 100.0}, {500.0, 112.0}, true);
  selections[5].clip.box = selections[0].clip.box;  // with a filter too
  selections[5].filter.classes = parseClassList("2", "classes");
  for (size_t s = 0; s < selections.size(); ++s) {
    const std::vector<uint64_t> all = selectedIndices(cloud, selections[s]);
    EXPECT_GT(all.size(), 0u) << "selection " << s << " holds no point: the test would see nothing";
    EXPECT_EQ(selectedIndices(cloud, selections[s], &chunks), all) << "selection " << s;
  }
}

TEST(CloudEdits, RunBoundsAreTheWorldPositionsBoundsAndFollowPointsAppended) {
  // Offsets that round when the origin is added, a point that is not a number, and a run whose
  // every x is not a number: each run's bounds equal those of its points' world positions.
  PointCloud cloud;
  cloud.origin = {500000.3, 4000000.7, 100.1};
  const uint64_t count = 2 * kCloudChunkPoints + 1000;
  for (uint64_t i = 0; i < count; ++i) {
    const float t = float(i) * 0.37f;
    Point p{.x = std::sin(t) * 900.123f, .y = std::cos(t) * 700.77f, .z = float(i % 97) * 0.013f};
    if (i % 1009 == 5) p.y = std::numeric_limits<float>::quiet_NaN();
    if (i >= kCloudChunkPoints && i < 2 * kCloudChunkPoints) p.x = std::nanf("");
    cloud.points.push_back(p);
  }
  const auto worldBounds = [&](uint64_t begin, uint64_t end) {
    Box3d box;
    for (uint64_t i = begin; i < std::min(end, cloud.size()); ++i) {
      const Point& p = cloud.points[i];
      box.extend(cloud.origin + glm::dvec3(p.x, p.y, p.z));
    }
    return box;
  };
  const auto expectRunsOf = [&](const CloudChunks& chunks) {
    ASSERT_EQ(chunks.bounds.size(), (cloud.size() + kCloudChunkPoints - 1) / kCloudChunkPoints);
    for (size_t c = 0; c < chunks.bounds.size(); ++c) {
      const Box3d expected = worldBounds(c * kCloudChunkPoints, (c + 1) * kCloudChunkPoints);
      for (int axis = 0; axis < 3; ++axis) {
        if (expected.min[axis] > expected.max[axis]) {  // no value on this axis
          EXPECT_GT(chunks.bounds[c].min[axis], chunks.bounds[c].max[axis]) << c << " " << axis;
          continue;
        }
        EXPECT_EQ(chunks.bounds[c].min[axis], expected.min[axis]) << c << " " << axis;
        EXPECT_EQ(chunks.bounds[c].max[axis], expected.max[axis]) << c << " " << axis;
      }
    }
  };
  expectRunsOf(cloudChunks(cloud));
  // Made for the first points, then extended: the partial last run is made again.
  const UninitializedVector<Point> all = cloud.points;
  cloud.points.assign(all.begin(), all.begin() + kCloudChunkPoints / 2);
  CloudChunks chunks = cloudChunks(cloud);
  cloud.points.assign(all.begin(), all.end());
  extendCloudChunks(cloud, chunks);
  expectRunsOf(chunks);
}

TEST(CloudEdits, OnlyADeleteOrRestoreMakesTheWithheldFlags) {
  PointCloud cloud = line();
  applyEditsToCloud(cloud, std::vector<PointEdit>{inBox(2.0, 4.0, EditAction::SetClass, 2)});
  EXPECT_EQ(cloud.findAttribute("withheld"), nullptr);  // a class change leaves them all 0
  EXPECT_TRUE(shownPoints(cloud).empty());              // every point shown
  applyEditsToCloud(cloud, std::vector<PointEdit>{inBox(6.0, 7.0, EditAction::Delete)});
  const ScalarAttribute* withheld = cloud.findAttribute("withheld");
  ASSERT_NE(withheld, nullptr);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(withheld->value(i), i == 6 || i == 7 ? 1.0 : 0.0) << i;
}

TEST(CloudEdits, AnEditIsUndoneFromWhatItsPointsHeldBeforeIt) {
  PointCloud cloud = line();
  const std::vector<PointEdit> edits = {inBox(2.0, 6.0, EditAction::SetClass, 2),
                                        inBox(4.0, 8.0, EditAction::SetClass, 6),
                                        inBox(5.0, 9.0, EditAction::Delete)};
  std::vector<std::vector<uint64_t>> indices;
  std::vector<EditUndo> undos(edits.size());
  using State = std::pair<std::vector<double>, std::vector<double>>;
  std::vector<State> states;
  const auto state = [&] {
    State now;
    for (uint64_t i = 0; i < cloud.size(); ++i) {
      now.first.push_back(cloud.findAttribute("classification")->value(i));
      const ScalarAttribute* flags = cloud.findAttribute("withheld");
      now.second.push_back(flags ? flags->value(i) : 0.0);
    }
    return now;
  };
  for (size_t e = 0; e < edits.size(); ++e) {
    states.push_back(state());
    indices.push_back(applyEditToCloud(cloud, edits[e], nullptr, nullptr, &undos[e]));
  }
  EXPECT_TRUE(undos[2].withheld);
  EXPECT_EQ(undos[1].before, (std::vector<float>{2.0f, 2.0f, 2.0f, 1.0f, 1.0f}));  // 4..8
  for (size_t e = edits.size(); e-- > 0;) {
    undoEdit(cloud, indices[e], undos[e]);
    EXPECT_EQ(state(), states[e]) << "after undoing edit " << e;
  }
}

TEST(CloudEdits, AFilterOverAnAttributeTheCloudLacksIsAnInputError) {
  PointCloud cloud = line();
  PointEdit edit = inBox(0.0, 9.0, EditAction::Delete);
  edit.selection.filter.ranges = {{"gps_time", 0.0, 1.0}};
  EXPECT_THROW(applyEditsToCloud(cloud, std::vector<PointEdit>{edit}), InputError);
  EXPECT_EQ(attributesForEdits(std::vector<PointEdit>{edit}),
            (std::vector<std::string>{"classification", "withheld", "gps_time"}));
}

TEST(EditHistory, UndoRedoAndANewEditDropsWhatWasUndone) {
  EditHistory history;
  EXPECT_FALSE(history.canUndo());
  EXPECT_FALSE(history.undo());
  const uint64_t start = history.version();
  history.push(inBox(0.0, 1.0, EditAction::Delete));
  history.push(inBox(2.0, 3.0, EditAction::Restore));
  EXPECT_EQ(history.applied().size(), 2u);
  EXPECT_NE(history.version(), start);
  EXPECT_TRUE(history.undo());
  EXPECT_EQ(history.applied().size(), 1u);
  EXPECT_EQ(history.undone(), 1u);
  EXPECT_TRUE(history.redo());
  EXPECT_FALSE(history.redo());
  EXPECT_TRUE(history.undo());
  history.push(inBox(4.0, 5.0, EditAction::SetClass, 9));  // the undone edit is gone
  EXPECT_EQ(history.applied().size(), 2u);
  EXPECT_EQ(history.applied()[1].classification, 9u);
  EXPECT_FALSE(history.canRedo());
  EXPECT_TRUE(history.unsaved());
  history.committed();
  EXPECT_FALSE(history.unsaved());
  EXPECT_FALSE(history.canUndo());
}

TEST(ReadValuesJournal, KeepsEachPointsFirstValuesOnlyAndGivesThemBack) {
  PointCloud cloud = line();
  ReadValues journal;
  journal.reset(cloud.size());
  // Three edits, the second over points of the first: each point is kept once, as read, in the
  // journal of the attribute its edit changed.
  const std::vector<PointEdit> edits = {inBox(2.0, 4.0, EditAction::SetClass, 2),
                                        inBox(3.0, 5.0, EditAction::SetClass, 6),
                                        inBox(8.0, 8.0, EditAction::Delete)};
  applyEditsToCloud(cloud, edits, nullptr, &journal);
  EXPECT_EQ(journal.classes.size(), 4u);   // points 2-5; the other six are not copied
  EXPECT_EQ(journal.withheld.size(), 1u);  // point 8
  ScalarAttribute& classes = cloud.attributes[0];
  ScalarAttribute& withheld = cloud.attributes[1];
  ASSERT_EQ(withheld.name, "withheld");
  EXPECT_EQ(classes.value(3), 6.0);
  EXPECT_EQ(withheld.value(8), 1.0);
  journal.classes.restore(classes);
  journal.withheld.restore(withheld);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(classes.value(i), 1.0) << i;
    EXPECT_EQ(withheld.value(i), 0.0) << i;
  }
  // Indices in any order, points kept before among them, and points added later.
  journal.classes.grow(11);
  const std::vector<uint64_t> again = {10, 8, 0, 5};
  journal.classes.keep(again, std::vector<float>{4.0f, 7.0f, 1.0f, 7.0f});
  EXPECT_EQ(journal.classes.size(), 7u);  // 10, 8 and 0 are new; 5 keeps its first value
  cloud.points.push_back(Point{.x = 10.0f});
  classes.push_back(9.0);
  classes.setValue(0, 9.0);
  journal.classes.restore(classes);
  EXPECT_EQ(classes.value(10), 4.0);
  EXPECT_EQ(classes.value(0), 1.0);
}

TEST(ReadValuesJournal, KeepsTheIndicesOfManyBlocksOnceAcrossThreads) {
  // More indices than one thread's part of the journal's passes, from the end backwards (parts on
  // several threads share words of the bits), then half of them again with other values.
  constexpr uint64_t kPoints = 300000;
  ScalarAttribute classes{.name = "classification", .type = AttributeType::UInt8};
  for (uint64_t i = 0; i < kPoints; ++i) classes.push_back(255.0);
  std::vector<uint64_t> indices, again;
  std::vector<float> values, otherValues;
  for (uint64_t i = kPoints; i-- > 0;) {
    if (i % 3 != 0) continue;
    indices.push_back(i), values.push_back(float(i % 200));
    if (i % 6 == 0) again.push_back(i), otherValues.push_back(254.0f);
  }
  ReadValuesJournal journal;
  journal.reset(kPoints);
  journal.keep(indices, values);
  journal.keep(again, otherValues);
  EXPECT_EQ(journal.size(), kPoints / 3);
  journal.restore(classes);
  for (uint64_t i = 0; i < kPoints; ++i) {
    ASSERT_EQ(classes.value(i), i % 3 == 0 ? double(i % 200) : 255.0) << i;
  }
}

}  // namespace
}  // namespace pcv
