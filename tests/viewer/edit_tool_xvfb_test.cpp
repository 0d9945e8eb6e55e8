// The Edit tool under Xvfb: a brush stroke painted on the view sets the class of the points
// under it (drawn at once: the class filter then shows exactly those), undo and redo give the
// classes back and again, "Save as" writes a copy whose classes are those the stroke set and
// which the edit log replays to the same records; a stroke deletes points (hidden at once), a
// save in place writes the withheld flags, and the file opened again hides them.
#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "json_report.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/io/record_selection.hpp"
#include "pcv/io/png_writer.hpp"
#include "pcv/session/cloud_edits.hpp"
#include "pcv/session/edit_log.hpp"
#include "pcv/session/point_edits.hpp"
#include "synthetic_point_files.hpp"
#include "synthetic_terrain.hpp"
#include "xvfb_viewer_fixture.hpp"

namespace pcv {
namespace {

using nlohmann::json;

/// What a file's records say: points of each class, and those withheld.
struct RecordCounts {
  uint64_t points = 0, classSix = 0, withheld = 0;
};

RecordCounts countRecords(const std::string& path) {
  const std::unique_ptr<PointRecordStream> stream = openLasRecords(path);
  RecordCounts counts;
  const uint8_t* batch = nullptr;
  for (uint64_t n; (n = stream->next(4096, batch)) > 0;) {
    for (uint64_t i = 0; i < n; ++i) {
      const RecordPoint p =
          decodeRecordPoint(batch + i * stream->format().recordLength, stream->format());
      ++counts.points;
      counts.classSix += p.classification == 6;
      counts.withheld += (p.classFlags >> 2) & 1;
    }
  }
  return counts;
}

/// Every record's class, in file order.
std::vector<int> recordClasses(const std::string& path) {
  const std::unique_ptr<PointRecordStream> stream = openLasRecords(path);
  std::vector<int> classes;
  const uint8_t* batch = nullptr;
  for (uint64_t n; (n = stream->next(4096, batch)) > 0;) {
    for (uint64_t i = 0; i < n; ++i) {
      classes.push_back(
          decodeRecordPoint(batch + i * stream->format().recordLength, stream->format())
              .classification);
    }
  }
  return classes;
}

class EditToolXvfb : public test::ViewerXvfb {
 protected:
  /// 64 x 64 points of class 2 in the plane x = 0 seen face on from x = -3.
  std::string writeGrid(const std::string& name) {
    std::vector<test::SyntheticPoint> points;
    for (int i = 0; i < 64; ++i) {
      for (int j = 0; j < 64; ++j) {
        points.push_back({.x = 0.0,
                          .y = (i - 31.5) / 40,
                          .z = (j - 31.5) / 40,
                          .red = 50000,
                          .green = 30000,
                          .blue = 10000,
                          .classification = 2});
      }
    }
    test::writeBytes(path(name), test::makeLas(points, {.pointFormat = 3, .scale = 0.0001}));
    return path(name);
  }
  /// The terrain of the classification tests, 2 points per square metre, of class 5 before, as
  /// LAS; returns its points.
  uint64_t writeTerrain(const std::string& name) {
    const test::SyntheticTerrain terrain =
        test::makeSyntheticTerrain(21, {300000.0, 4000000.0, 120.0}, 120.0);
    std::vector<test::SyntheticPoint> points;
    for (const glm::dvec3& p : terrain.points) {
      points.push_back({.x = p.x, .y = p.y, .z = p.z, .classification = 5});
    }
    test::writeBytes(
        path(name),
        test::makeLas(points, {.pointFormat = 3, .scale = 0.001, .offset = {300000, 4000000, 0}}));
    return points.size();
  }
  /// The edit log the script wrote (classify.json) holds one Classify edit, and `copy` holds the
  /// classes it gives `original`'s `points` records, record for record.
  void expectTheCopyHoldsTheLoggedClasses(const std::string& original, const std::string& copy,
                                          uint64_t points) {
    const std::vector<PointEdit> edits = readEditLog(path("classify.json"));
    ASSERT_EQ(edits.size(), 1u);
    EXPECT_EQ(edits[0].action, EditAction::Classify);
    const FileEditResult replayed = evaluateEdits(original, edits);
    EXPECT_GT(replayed.changed, points / 3);
    std::vector<int> expected = recordClasses(original);
    ASSERT_EQ(expected.size(), points);
    for (const RecordChange& change : replayed.changes.all()) {
      expected.at(change.index) = change.classification;
    }
    EXPECT_EQ(recordClasses(copy), expected);
  }
  uint64_t lit(const std::string& png) {
    return test::countLitPixels(readPng(path(png)), kOpaqueBlack);
  }
  uint64_t highlightedPixels(const std::string& png) {
    const Image image = readPng(path(png));
    return uint64_t(std::count(image.pixels.begin(), image.pixels.end(), kSelectionHighlightRgba));
  }
  json runWithReport(const std::string& script, std::string* output, const std::string& extra) {
    const int status = runViewer(script, output, "--report " + path("report.json") + " " + extra);
    EXPECT_EQ(status, 0) << *output;
    if (status != 0) return json::object();
    return test::readJsonReport(path("report.json"));
  }
};

TEST_F(EditToolXvfb, BrushSetsClassesUndoRedoSaveAsAndTheLogReplays) {
  const std::string grid = writeGrid("grid.las");
  std::filesystem::copy_file(grid, path("copy.las"));
  std::string output;
  // One event per frame (the viewer runs at 50 simulated frames per second): a screenshot sees
  // what the events before it in its frame did.
  const std::string script =
      "0.02 wait_load\n0.1 screenshot " + path("all.png") +
      "\n0.12 edit_radius 40\n0.14 edit_stroke 600,330 640,360 680,390\n0.16 screenshot " +
      path("stroke.png") + "\n0.18 edit_set_class 6\n0.2 filter_classes 6\n0.22 screenshot " +
      path("six.png") + "\n0.24 edit_undo\n0.26 screenshot " + path("undone.png") +
      "\n0.28 edit_redo\n0.3 screenshot " + path("redone.png") + "\n0.32 edit_log " +
      path("edits.json") + "\n0.34 edit_save_as " + path("saved.las") +
      "\n0.36 filter_off\n0.42 quit\n";
  const json report = runWithReport(script, &output, grid + " --eye -3,0,0");
  const uint64_t all = lit("all.png"), six = lit("six.png");
  EXPECT_EQ(all, 64u * 64u) << output;
  EXPECT_GT(six, 100u) << output;  // a band of points along the stroke
  EXPECT_LT(six, all / 2) << output;
  EXPECT_EQ(lit("undone.png"), 0u) << output;  // no point is of class 6 any more
  // The stroke's points were highlighted before the action, as many as it then changed.
  const uint64_t highlighted = highlightedPixels("stroke.png");
  EXPECT_LE(std::abs(int64_t(highlighted) - int64_t(six)), 4) << highlighted << " vs " << six;
  EXPECT_EQ(highlightedPixels("redone.png"), 0u) << output;
  EXPECT_EQ(lit("redone.png"), six) << output;
  ASSERT_TRUE(report.contains("edit")) << output;
  EXPECT_EQ(report["edit"]["applied"], 1) << report.dump();
  EXPECT_EQ(report["edit"]["unsaved"], true) << report.dump();
  ASSERT_TRUE(report["edit"].contains("lastSave")) << report.dump();
  EXPECT_EQ(report["edit"]["lastSave"]["succeeded"], true) << report.dump();

  // The copy holds the classes the stroke set (the viewer tests float positions, the save the
  // file's coordinates in doubles: points within a fraction of a pixel of the rim may differ);
  // the original is untouched.
  const RecordCounts saved = countRecords(path("saved.las"));
  EXPECT_EQ(saved.points, all);
  EXPECT_LE(std::abs(int64_t(saved.classSix) - int64_t(six)), 4) << output;
  EXPECT_EQ(countRecords(grid).classSix, 0u);
  // The Filters legend counts the classes as edited.
  ASSERT_TRUE(report["classCounts"].contains("6")) << report.dump();
  EXPECT_EQ(report["classCounts"]["6"].get<uint64_t>() + report["classCounts"]["2"].get<uint64_t>(),
            all);
  EXPECT_LE(std::abs(int64_t(report["classCounts"]["6"].get<uint64_t>()) - int64_t(six)), 4);
  // The log replays the stroke exactly: the same records change in another copy.
  const std::vector<PointEdit> edits = readEditLog(path("edits.json"));
  ASSERT_EQ(edits.size(), 1u);
  ASSERT_TRUE(edits[0].selection.brush.has_value());
  EXPECT_EQ(evaluateEdits(path("copy.las"), edits).changed, saved.classSix);
}

TEST_F(EditToolXvfb, DeletedPointsHideAtOnceSaveInPlaceAndStayHidden) {
  const std::string grid = writeGrid("grid.las");
  std::string output;
  const std::string script =
      "0.02 wait_load\n0.1 edit_radius 50\n0.12 edit_stroke 640,360\n0.14 edit_delete\n"
      "0.16 screenshot " +
      path("deleted.png") + "\n0.18 edit_save\n0.2 screenshot " + path("saved.png") +
      "\n0.3 quit\n";
  const json report = runWithReport(script, &output, grid + " --eye -3,0,0");
  const uint64_t shown = lit("deleted.png");
  EXPECT_GT(shown, 64u * 64u / 2) << output;
  EXPECT_LT(shown, 64u * 64u - 100u) << output;  // a disc of points is gone
  EXPECT_EQ(lit("saved.png"), shown) << output;  // the saved file shows what the edits did
  ASSERT_TRUE(report.contains("edit")) << output;
  EXPECT_EQ(report["edit"]["applied"], 0) << report.dump();  // the file holds them now
  EXPECT_EQ(report["edit"]["unsaved"], false) << report.dump();
  EXPECT_EQ(report["edit"]["lastSave"]["inPlace"], true) << report.dump();
  // A disc of the file read whole: its records written where they are (nothing holds the file
  // open, and they are less than half of it).
  EXPECT_EQ(report["edit"]["lastSave"]["filesWrittenInPlace"], 1) << report.dump();

  const RecordCounts saved = countRecords(grid);
  EXPECT_EQ(saved.points, 64u * 64u);  // withheld, not removed
  EXPECT_LE(std::abs(int64_t(saved.withheld) - int64_t(64u * 64u - shown)), 4) << output;
  // Opened again, the withheld points stay hidden.
  ASSERT_EQ(runViewer("0.02 wait_load\n0.1 screenshot " + path("reopened.png") + "\n0.2 quit\n",
                      &output, grid + " --eye -3,0,0"),
            0)
      << output;
  EXPECT_EQ(lit("reopened.png"), 64u * 64u - saved.withheld) << output;
}

TEST_F(EditToolXvfb, ClassifyingWhatIsShownSavesWhatTheLogReplays) {
  const uint64_t points = writeTerrain("terrain.las");
  std::string output;
  const json report = runWithReport(
      "0.02 wait_load\n0.1 edit_select shown\n0.12 edit_classify both\n0.14 filter_classes 2\n"
      "0.16 screenshot " +
          path("ground.png") + "\n0.18 edit_log " + path("classify.json") + "\n0.2 edit_save_as " +
          path("classified.las") + "\n0.3 quit\n",
      &output, path("terrain.las") + " --color classification");
  ASSERT_TRUE(report.contains("edit")) << output;
  EXPECT_EQ(report["edit"]["applied"], 1) << report.dump();
  EXPECT_GT(lit("ground.png"), 1000u) << output;  // the ground shows at once
  expectTheCopyHoldsTheLoggedClasses(path("terrain.las"), path("classified.las"), points);
}

TEST_F(EditToolXvfb, ClassifyingAStreamedFileShowsTheClassesAndSavesThem) {
  // The same terrain as a COPC file, which the viewer streams: its classes are found in the
  // file on a thread (the script waits), shown on the nodes, and saved.
  const uint64_t points = writeTerrain("terrain.las");
  const std::string las = path("terrain.las"), copc = path("terrain.copc.laz");
  writeCopcFile([las] { return openLasRecords(las); }, copc, {.maxPointsPerNode = 2000});
  std::string output;
  const json report = runWithReport(
      "0.02 wait_load\n0.1 edit_select shown\n0.12 edit_classify both\n0.13 wait_load\n"
      "0.14 filter_classes 2\n0.15 wait_load\n0.16 screenshot " +
          path("ground.png") + "\n0.18 edit_log " + path("classify.json") + "\n0.2 edit_save_as " +
          path("classified.copc.laz") + "\n0.3 quit\n",
      &output, copc + " --color classification");
  ASSERT_TRUE(report.contains("edit")) << output;
  EXPECT_EQ(report["edit"]["applied"], 1) << report.dump() << output;
  EXPECT_TRUE(report["errors"].empty()) << report.dump();
  EXPECT_GT(lit("ground.png"), 1000u) << output;  // the streamed nodes show the ground
  expectTheCopyHoldsTheLoggedClasses(copc, path("classified.copc.laz"), points);
}

TEST_F(EditToolXvfb, PointsBelowAProfileLineGetTheirClass) {
  // Points on three heights, 0, 1 and 2, in rows across y; a profile along x at y = 0, 1 wide,
  // holds 21 columns x 3 heights x 2 rows (y = -0.25, 0.25).
  std::vector<test::SyntheticPoint> points;
  for (int i = 0; i <= 20; ++i) {
    for (const double y : {-0.25, 0.25, 3.0}) {
      for (int h = 0; h < 3; ++h) {
        points.push_back({.x = double(i), .y = y, .z = double(h), .classification = 1});
      }
    }
  }
  test::writeBytes(path("rows.las"), test::makeLas(points, {.pointFormat = 3, .scale = 0.001}));
  std::string output;
  const json report = runWithReport(
      "0.02 wait_load\n0.1 profile_width 1\n0.12 profile_line 0,0,20,0\n0.14 profile_cut\n"
      "0.16 profile_select below 0,1.5 20,1.5\n0.18 edit_select profile\n"
      "0.2 edit_set_class 2\n0.22 edit_log " +
          path("profile.json") + "\n0.24 edit_save_as " + path("saved.las") + "\n0.3 quit\n",
      &output, path("rows.las"));
  ASSERT_TRUE(report.contains("edit")) << output;
  EXPECT_EQ(report["edit"]["applied"], 1) << report.dump() << output;
  // Below 1.5 in the corridor: heights 0 and 1 of the two rows inside it.
  const std::unique_ptr<PointRecordStream> stream = openLasRecords(path("saved.las"));
  uint64_t ground = 0, wrong = 0;
  const uint8_t* batch = nullptr;
  for (uint64_t n; (n = stream->next(4096, batch)) > 0;) {
    for (uint64_t i = 0; i < n; ++i) {
      const RecordPoint p =
          decodeRecordPoint(batch + i * stream->format().recordLength, stream->format());
      const bool expected = std::abs(p.world.y) < 0.5 && p.world.z < 1.5;
      ground += p.classification == 2;
      wrong += (p.classification == 2) != expected;
    }
  }
  EXPECT_EQ(ground, 21u * 2u * 2u) << output;
  EXPECT_EQ(wrong, 0u) << output;
  const std::vector<PointEdit> edits = readEditLog(path("profile.json"));
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_TRUE(edits[0].selection.profileLine.has_value());
}

TEST_F(EditToolXvfb, ActionsWithoutAStrokeAndBadStrokesAreRefused) {
  const std::string grid = writeGrid("grid.las");
  std::string output;
  const json report = runWithReport("0.02 wait_load\n0.1 edit_set_class 6\n0.2 quit\n", &output,
                                    grid + " --eye -3,0,0");
  ASSERT_TRUE(report.contains("edit")) << output;
  EXPECT_EQ(report["edit"]["applied"], 0) << report.dump();
  EXPECT_FALSE(report["errors"].empty()) << report.dump();
  // Script lines with a bad dab or class are refused before the window opens.
  EXPECT_NE(runViewer("0.1 edit_stroke 1;2\n0.2 quit\n", &output, grid), 0) << output;
  EXPECT_NE(runViewer("0.1 edit_set_class 300\n0.2 quit\n", &output, grid), 0) << output;
}

}  // namespace
}  // namespace pcv
