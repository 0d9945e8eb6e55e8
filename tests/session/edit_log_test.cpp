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

namespace pcv {
namespace {

TEST(EditLog, StrokesAndPolygonsDrawnInAViewRoundTripExactly) {
  Camera camera;
  camera.eye = {500000.125, 4000000.5, 12.25};
  camera.yawRadians = 0.3f;
  PointEdit edit;
  edit.selection.brush =
      BrushSelection(camera, 1280.0, 720.0, {{640.0, 360.0}, {650.5, 361.25}}, 17.5);
  edit.selection.clip.polygon = PolygonSelection(
      camera, 1280.0, 720.0, {{100.0, 100.0}, {900.0, 120.0}, {500.0, 600.0}}, false);
  edit.action = EditAction::Delete;
  const std::vector<PointEdit> parsed =
      parseEditLog(editLogText(std::vector<PointEdit>{edit}), "log");
  ASSERT_EQ(parsed.size(), 1u);
  const PointSelection& b = parsed[0].selection;
  ASSERT_TRUE(b.brush.has_value());
  EXPECT_EQ(b.brush->dabs(), edit.selection.brush->dabs());
  EXPECT_EQ(b.brush->radiusPx(), 17.5);
  EXPECT_EQ(b.brush->view().anchor, edit.selection.brush->view().anchor);
  EXPECT_EQ(b.brush->view().viewProjection, edit.selection.brush->view().viewProjection);
  EXPECT_EQ(b.brush->view().minimumW, edit.selection.brush->view().minimumW);
  ASSERT_TRUE(b.clip.polygon.has_value());
  EXPECT_EQ(b.clip.polygon->ndcVertices(), edit.selection.clip.polygon->ndcVertices());
  EXPECT_EQ(b.clip.polygon->viewProjection(), edit.selection.clip.polygon->viewProjection());
  EXPECT_FALSE(b.clip.polygon->keepInside());
  // The same points selected, one by one.
  for (double d = -3.0; d <= 3.0; d += 0.25) {
    const glm::dvec3 p = camera.eye + glm::dvec3(10.0, d, d / 2.0);
    EXPECT_EQ(b.brush->selects(p), edit.selection.brush->selects(p)) << d;
    EXPECT_EQ(b.clip.polygon->selects(p), edit.selection.clip.polygon->selects(p)) << d;
  }
}

TEST(EditLog, ProfileLinesRoundTripExactly) {
  PointEdit edit;
  edit.selection.profileLine = ProfileLineSelection(
      ProfileCorridor({{500000.125, 4e6}, {500010.5, 4000003.25}, {500020.0, 4e6}}, 1.5),
      {0.1, 100.25}, {7.0 / 3.0, 101.5}, false);
  edit.action = EditAction::SetClass;
  edit.classification = 2;
  const std::vector<PointEdit> parsed =
      parseEditLog(editLogText(std::vector<PointEdit>{edit}), "log");
  ASSERT_EQ(parsed.size(), 1u);
  ASSERT_TRUE(parsed[0].selection.profileLine.has_value());
  const ProfileLineSelection& a = *edit.selection.profileLine;
  const ProfileLineSelection& b = *parsed[0].selection.profileLine;
  EXPECT_EQ(b.corridor().vertices(), a.corridor().vertices());
  EXPECT_EQ(b.corridor().width(), a.corridor().width());
  EXPECT_EQ(b.from(), a.from());
  EXPECT_EQ(b.to(), a.to());
  EXPECT_EQ(b.above(), a.above());
  const std::string bad =
      R"({"pcv_edits":1,"edits":[{"select":{"profile_line":{"line":[0,0,1,0],"width":1,)"
      R"("from":[1,1],"to":[1,2],"side":"below"}},"action":"delete"}]})";
  EXPECT_THROW(parseEditLog(bad, "log"), InputError);  // a vertical line
}

TEST(EditLog, BadStrokesAndViewsAreInputErrors) {
  const std::string view =
      R"({"anchor":[0,0,0],"view_projection":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],"minimum_w":null})";
  const auto log = [](const std::string& select) {
    return R"({"pcv_edits":1,"edits":[{"select":)" + select + R"(,"action":"delete"}]})";
  };
  EXPECT_NO_THROW(parseEditLog(
      log(R"({"brush":{"view":)" + view + R"(,"window":[100,100],"radius":5,"dabs":[1,2]}})"),
      "log"));
  for (const std::string& bad : std::vector<std::string>{
           R"({"brush":{"view":)" + view + R"(,"window":[100,100],"radius":5,"dabs":[]}})",
           R"({"brush":{"view":)" + view + R"(,"window":[100,100],"radius":0,"dabs":[1,2]}})",
           R"({"brush":{"view":)" + view + R"(,"window":[0,100],"radius":5,"dabs":[1,2]}})",
           R"({"brush":{"view":)" + view + R"(,"window":[100,100],"radius":5,"dabs":[1]}})",
           R"({"brush":{"view":{"anchor":[0,0]},"window":[100,100],"radius":5,"dabs":[1,2]}})",
           R"({"brush":{"view":)" + view + R"(,"radius":5,"dabs":[1,2]}})", R"({"brush":7})",
           R"({"view_polygon":{"view":)" + view + R"(,"vertices":[0,0,1,0]}})",
           R"({"view_polygon":{"view":)" + view +
               R"(,"vertices":[0,0,1,0,1,1]},"polygon":[0,0,1,0,1,1]})",
           R"({"view_polygon":{"vertices":[0,0,1,0,1,1]}})"}) {
    EXPECT_THROW(parseEditLog(log(bad), "log"), InputError) << bad;
  }
}

}  // namespace
}  // namespace pcv
