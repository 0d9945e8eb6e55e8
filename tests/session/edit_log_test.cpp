// The edit log: what is written parses back to the same edits, exact to the last bit, and a
// log that is wrong anywhere is an InputError (never a crash), whatever it holds.
#include <gtest/gtest.h>

#include <cmath>

#include "pcv/session/edit_log.hpp"
#include "temp_dir.hpp"

namespace pcv {
namespace {

std::vector<PointEdit> sampleEdits() {
  PointEdit first;
  first.selection.clip.box = ClipBox{.min = {0.1, -2.5, 3.0}, .max = {1.0 / 3.0, 7.25, 1e6}};
  first.selection.clip.slab =
      ClipSlab{.normal = {0.0, 1.0, 1.0}, .centre = {500000.125, 4e6, 12.0}, .thickness = 0.7};
  first.selection.clip.keep = ClipKeep::Outside;
  first.selection.clip.polygon =
      PolygonSelection::plan({{0.0, 0.0}, {10.5, 0.0}, {3.0, 7.0 / 3.0}}, false);
  first.selection.filter.classes = parseClassList("2,6,9-12", "--classes");
  first.selection.filter.returns = ReturnChoice::Number;
  first.selection.filter.returnNumber = 3;
  first.selection.filter.ranges = {{"intensity", 100.0, INFINITY}, {"gps_time", -1.5, 2.5}};
  first.action = EditAction::SetClass;
  first.classification = 200;
  PointEdit second;
  second.selection.filter.returns = ReturnChoice::Last;
  second.action = EditAction::Delete;
  PointEdit third;
  third.action = EditAction::Restore;
  return {first, second, third};
}

TEST(EditLog, WrittenLogParsesToTheSameEdits) {
  const std::vector<PointEdit> edits = sampleEdits();
  const std::vector<PointEdit> parsed = parseEditLog(editLogText(edits), "log");
  ASSERT_EQ(parsed.size(), edits.size());
  for (size_t i = 0; i < edits.size(); ++i) {
    const PointSelection& a = edits[i].selection;
    const PointSelection& b = parsed[i].selection;
    EXPECT_EQ(parsed[i].action, edits[i].action);
    EXPECT_EQ(parsed[i].classification, edits[i].classification);
    EXPECT_EQ(b.filter, a.filter);
    EXPECT_EQ(b.clip.keep, a.clip.keep);
    ASSERT_EQ(b.clip.box.has_value(), a.clip.box.has_value());
    if (a.clip.box) {
      EXPECT_EQ(b.clip.box->min, a.clip.box->min);
      EXPECT_EQ(b.clip.box->max, a.clip.box->max);
    }
    ASSERT_EQ(b.clip.slab.has_value(), a.clip.slab.has_value());
    if (a.clip.slab) {
      EXPECT_EQ(b.clip.slab->normal, a.clip.slab->normal);
      EXPECT_EQ(b.clip.slab->centre, a.clip.slab->centre);
      EXPECT_EQ(b.clip.slab->thickness, a.clip.slab->thickness);
    }
    ASSERT_EQ(b.clip.polygon.has_value(), a.clip.polygon.has_value());
    if (a.clip.polygon) {
      EXPECT_EQ(b.clip.polygon->planVertices(), a.clip.polygon->planVertices());
      EXPECT_EQ(b.clip.polygon->keepInside(), a.clip.polygon->keepInside());
    }
  }
}

TEST(EditLog, FileRoundTrip) {
  test::TempDir dir;
  const std::vector<PointEdit> edits = sampleEdits();
  writeEditLog(dir.file("edits.json"), edits);
  EXPECT_EQ(readEditLog(dir.file("edits.json")).size(), edits.size());
  EXPECT_THROW(readEditLog(dir.file("missing.json")), InputError);
}

TEST(EditLog, NoClassKeptRoundTrips) {
  PointEdit edit;
  edit.selection.filter.classes = ClassSet::none();
  edit.action = EditAction::Delete;
  const std::vector<PointEdit> parsed = parseEditLog(editLogText({&edit, 1}), "log");
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(parsed[0].selection.filter.classes, ClassSet::none());
}

TEST(EditLog, RejectsMalformedLogs) {
  const char* const kBad[] = {
      "",
      "[]",
      "{\"edits\": []}",
      "{\"pcv_edits\": 2, \"edits\": []}",
      "{\"pcv_edits\": 1}",
      "{\"pcv_edits\": 1, \"edits\": {}}",
      "{\"pcv_edits\": 1, \"edits\": [7]}",
      "{\"pcv_edits\": 1, \"edits\": [{}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"paint\"}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"set-class\"}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"set-class\", \"class\": 256}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"set-class\", \"class\": -1}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"set-class\", \"class\": 2.5}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", \"select\": []}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", \"select\": {\"boxx\": 1}}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", \"select\": {\"box\": [1,2,3]}}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", "
      "\"select\": {\"box\": [1,2,3,0,5,6]}}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", "
      "\"select\": {\"slab\": [0,0,0,1,2,3,1]}}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", "
      "\"select\": {\"slab\": [0,0,1,1,2,3,0]}}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", \"select\": {\"polygon\": "
      "[0,0,1,1]}}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", "
      "\"select\": {\"polygon\": [0,0,1,1,2]}}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", \"select\": {\"keep\": \"in\"}}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", \"select\": {\"classes\": "
      "\"2-\"}}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", \"select\": {\"classes\": 2}}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", \"select\": {\"returns\": \"0\"}}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", \"select\": {\"ranges\": [{}]}}]}",
      "{\"pcv_edits\": 1, \"edits\": [{\"action\": \"delete\", "
      "\"select\": {\"ranges\": [{\"attribute\": \"intensity\", \"min\": 5, \"max\": 1}]}}]}",
  };
  for (const char* text : kBad) {
    EXPECT_THROW(parseEditLog(text, "log"), InputError) << text;
  }
}

}  // namespace
}  // namespace pcv
