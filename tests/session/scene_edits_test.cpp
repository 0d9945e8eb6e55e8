// Edits shown on a scene before they are saved: a COPC file streamed and a LAS file read whole
// beside it lose exactly the points an edit deletes (as many as the save would withhold), the
// stream's nodes decoded again with the edit applied and swapped in (the stream not reopened);
// a highlight shows on the streamed nodes and goes with the edit that acts on it; no
// edits give every point back; a filter over an attribute the points lack is an error said, not
// shown.
#include <algorithm>
#include <chrono>
#include <thread>

#include "stream_beside_scene.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

/// A view so large that the stream draws every node once it converges.
constexpr int kViewPx = 4096;

/// The stream and the file beside it, settled in a view that draws every node.
struct EditedScene : test::StreamWithFileBeside {
  EditedScene() : StreamWithFileBeside(kViewPx) {}
  /// Points of the stream's sets drawn (its node counts are the file's, before any edit).
  uint64_t streamedDrawn() const {
    uint64_t points = 0;
    for (const PointSetId set : scene.parts().stream->frameSets()) {
      points += renderer->pointCount(set);
    }
    return points;
  }
  uint64_t inCoreDrawn() const {
    const std::optional<PointSetId>& set = scene.parts().inCore.colored().set();
    return set ? renderer->pointCount(*set) : 0;
  }
};

/// Deletes what lies west of x = 500050 (half the grid, half the cylinders).
std::vector<PointEdit> deleteWest() {
  PointEdit edit;
  edit.selection.clip.box =
      ClipBox{.min = {499000.0, 4999000.0, -1000.0}, .max = {500050.0, 5001000.0, 1000.0}};
  edit.action = EditAction::Delete;
  return {edit};
}

TEST(SceneEdits, DeletedPointsLeaveTheStreamAndTheFilesAndComeBackWithoutEdits) {
  EditedScene s;
  ASSERT_NE(s.scene.parts().stream.get(), nullptr);
  ASSERT_EQ(s.streamedDrawn(), 20'000u) << "every node drawn";
  ASSERT_EQ(s.inCoreDrawn(), 40u * 40u);
  const std::vector<PointEdit> edits = deleteWest();
  const uint64_t streamDeleted = evaluateEdits(s.copc, edits).changed;
  const uint64_t fileDeleted = evaluateEdits(s.las, edits).changed;
  ASSERT_GT(streamDeleted, 1000u);
  ASSERT_GT(fileDeleted, 100u);

  const StreamPart* stream = s.scene.parts().stream.get();
  s.scene.setEdits(edits);
  // The stream is not opened again: its next frame still draws every node, each as it was
  // until its edited points replace it.
  EXPECT_EQ(s.scene.parts().stream.get(), stream);
  s.scene.updateStream(s.camera, kViewPx, kViewPx);
  EXPECT_EQ(s.streamedDrawn(), 20'000u);
  s.settle();
  EXPECT_TRUE(s.errors.take().empty());
  EXPECT_EQ(s.scene.parts().stream.get(), stream);
  EXPECT_EQ(s.streamedDrawn(), 20'000u - streamDeleted);
  EXPECT_EQ(s.inCoreDrawn(), 40u * 40u - fileDeleted);
  EXPECT_EQ(s.scene.edits().size(), 1u);

  s.scene.setEdits({});
  s.settle();
  EXPECT_EQ(s.streamedDrawn(), 20'000u);
  EXPECT_EQ(s.inCoreDrawn(), 40u * 40u);
}

TEST(SceneEdits, AHighlightShowsOnTheStreamedNodesAndGoesWithTheEdit) {
  EditedScene s;
  const auto highlighted = [&] {
    const ViewTransform view = test::makeView(s.camera, 256, 256, s.scene.parts().origin);
    Image image(256, 256);
    s.renderer->render(s.scene.parts().stream->frameSets(), view, {},
                       {image.pixels.data(), 256, 256, MemorySpace::Host});
    return std::count(image.pixels.begin(), image.pixels.end(), kSelectionHighlightRgba);
  };
  ASSERT_EQ(highlighted(), 0);
  const StreamPart* stream = s.scene.parts().stream.get();
  s.scene.setHighlight(deleteWest()[0].selection);
  // Drawn as before until the highlighted nodes come: every point, nothing reopened.
  s.scene.updateStream(s.camera, kViewPx, kViewPx);
  EXPECT_EQ(s.streamedDrawn(), 20'000u);
  EXPECT_EQ(s.scene.parts().stream.get(), stream);
  s.settle();
  const long shown = highlighted();
  EXPECT_GT(shown, 100);
  // Coloured otherwise (the stream opened again): the selection stays shown.
  s.scene.setColoring(ColoringOptions{.mode = ColorMode::Elevation});
  s.settle();
  EXPECT_GT(highlighted(), 100);
  // The edit acts on the selection: the highlight goes, and the points with it.
  s.scene.pushEdit(deleteWest()[0]);
  s.settle();
  EXPECT_EQ(highlighted(), 0);
  EXPECT_LT(s.streamedDrawn(), 20'000u);
  EXPECT_TRUE(s.errors.take().empty());
}

TEST(SceneEdits, AClassChangeRecoloursTheSetInPlaceADeleteLaysItOutAgain) {
  test::TempDir dir;
  const std::string las = test::writeGridLas(dir.file("grid.las")).string();
  std::unique_ptr<Renderer> renderer = createRenderer("cpu");
  test::ReportedErrors errors;
  SceneModel scene(*renderer, DemoCylinders{.pointCount = 1000, .seed = 1},
                   ColoringOptions{.mode = ColorMode::Classification}, {}, errors.report());
  scene.open({las}, true);
  for (int i = 0; i < 2000 && (scene.loading() || !scene.parts().inCore.colored().set()); ++i) {
    scene.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const std::optional<PointSetId> laidOut = scene.parts().inCore.colored().set();
  ASSERT_TRUE(laidOut.has_value());
  const Camera camera = frameBounds(scene.shownBounds(), 1.0f);
  const ViewTransform view = test::makeView(camera, 200, 120, scene.parts().origin);
  const Image before = test::renderToImage(*renderer, view, {});
  std::vector<PointEdit> edits = deleteWest();
  edits[0].action = EditAction::SetClass;
  edits[0].classification = 6;
  scene.setEdits(edits);
  EXPECT_EQ(scene.parts().inCore.colored().set(), laidOut) << "recoloured in place";
  const Image recoloured = test::renderToImage(*renderer, view, {});
  EXPECT_GT(test::countDifferentPixels(before, recoloured), 100u);
  EXPECT_EQ(renderer->pointCount(*laidOut), 40u * 40u);
  edits.push_back(deleteWest()[0]);
  scene.setEdits(edits);
  ASSERT_TRUE(scene.parts().inCore.colored().set().has_value());
  EXPECT_LT(renderer->pointCount(*scene.parts().inCore.colored().set()), 40u * 40u);
  // Everything deleted: nothing drawn, and no error.
  PointEdit all;
  all.action = EditAction::Delete;
  edits.push_back(all);
  scene.setEdits(edits);
  const std::optional<PointSetId> none = scene.parts().inCore.colored().set();
  EXPECT_EQ(none ? renderer->pointCount(*none) : 0u, 0u);
  EXPECT_EQ(
      test::countLitPixels(test::renderToImage(*renderer, view, {}), RenderSettings{}.background),
      0u);
  EXPECT_TRUE(errors.take().empty());
}

/// West set to 6, then what is 6 in a box across the middle set to 9 (the second edit's filter
/// reads the first's classes).
std::vector<PointEdit> westThenMiddleClasses() {
  std::vector<PointEdit> edits = deleteWest();
  edits[0].action = EditAction::SetClass;
  edits[0].classification = 6;
  PointEdit second;
  second.selection.clip.box =
      ClipBox{.min = {500025.0, 4999000.0, -1000.0}, .max = {500075.0, 5001000.0, 1000.0}};
  second.selection.filter.classes = parseClassList("6", "classes");
  second.action = EditAction::SetClass;
  second.classification = 9;
  edits.push_back(second);
  return edits;
}

/// Opens `las` read whole in `scene` and waits until it is shown.
void openShown(SceneModel& scene, const std::string& las) {
  scene.open({las}, true);
  for (int i = 0; i < 2000 && (scene.loading() || !scene.parts().inCore.colored().set()); ++i) {
    scene.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

TEST(SceneEdits, APushedEditShowsAsTheWholeListDoes) {
  test::TempDir dir;
  const std::string las = test::writeGridLas(dir.file("grid.las")).string();
  const auto classesAfter = [&](bool pushed) {
    std::unique_ptr<Renderer> renderer = createRenderer("cpu");
    SceneModel scene(*renderer, DemoCylinders{.pointCount = 1000, .seed = 1},
                     ColoringOptions{.mode = ColorMode::Classification});
    openShown(scene, las);
    const std::vector<PointEdit> edits = westThenMiddleClasses();
    if (pushed) {
      for (const PointEdit& edit : edits) scene.pushEdit(edit);
    } else {
      scene.setEdits(edits);
    }
    EXPECT_EQ(scene.edits().size(), 2u);
    std::vector<double> classes;
    const ScalarAttribute* values = scene.parts().inCore.cloud().findAttribute("classification");
    for (uint64_t i = 0; i < values->size(); ++i) classes.push_back(values->value(i));
    return classes;
  };
  const std::vector<double> pushed = classesAfter(true), whole = classesAfter(false);
  EXPECT_EQ(pushed, whole);
  EXPECT_GT(std::count(whole.begin(), whole.end(), 9.0), 0);
  EXPECT_GT(std::count(whole.begin(), whole.end(), 6.0), 0);
}

TEST(SceneEdits, AnEditUndoneShowsAsTheShorterListDoes) {
  test::TempDir dir;
  const std::string las = test::writeGridLas(dir.file("grid.las")).string();
  // Two class changes, the second's filter reading the first's classes, then the east deleted.
  std::vector<PointEdit> edits = westThenMiddleClasses();
  PointEdit east;
  east.selection.clip.box =
      ClipBox{.min = {500060.0, 4999000.0, -1000.0}, .max = {501000.0, 5001000.0, 1000.0}};
  east.action = EditAction::Delete;
  edits.push_back(east);
  struct Shown {
    std::vector<double> classes, withheld;
    uint64_t drawn = 0;
    std::vector<uint32_t> pixels;
  };
  // The scene after `pushed` edits pushed and `undone` of them undone, or after setEdits of the
  // first `pushed - undone`.
  const auto shownAfter = [&](size_t pushed, size_t undone, bool byUndo) {
    std::unique_ptr<Renderer> renderer = createRenderer("cpu");
    SceneModel scene(*renderer, DemoCylinders{.pointCount = 1000, .seed = 1},
                     ColoringOptions{.mode = ColorMode::Classification});
    openShown(scene, las);
    if (byUndo) {
      for (size_t e = 0; e < pushed; ++e) scene.pushEdit(edits[e]);
      for (size_t e = 0; e < undone; ++e) scene.undoLastEdit();
    } else {
      scene.setEdits({edits.begin(), edits.begin() + (pushed - undone)});
    }
    EXPECT_EQ(scene.edits().size(), pushed - undone);
    Shown shown;
    const PointCloud& cloud = scene.parts().inCore.cloud();
    for (const char* name : {"classification", "withheld"}) {
      const ScalarAttribute* values = cloud.findAttribute(name);
      std::vector<double>& out = std::string(name) == "withheld" ? shown.withheld : shown.classes;
      for (uint64_t i = 0; i < cloud.size(); ++i) out.push_back(values ? values->value(i) : 0.0);
    }
    const std::optional<PointSetId>& set = scene.parts().inCore.colored().set();
    shown.drawn = set ? renderer->pointCount(*set) : 0;
    const Camera camera = frameBounds(scene.shownBounds(), 1.0f);
    const ViewTransform view = test::makeView(camera, 200, 120, scene.parts().origin);
    const Image image = test::renderToImage(*renderer, view, {});
    shown.pixels.assign(image.pixels.begin(), image.pixels.end());
    return shown;
  };
  const std::vector<std::pair<size_t, size_t>> cases = {{3, 1}, {3, 2}, {2, 1}, {3, 3}};
  for (const auto& [pushed, undone] : cases) {
    const Shown byUndo = shownAfter(pushed, undone, true);
    const Shown bySet = shownAfter(pushed, undone, false);
    EXPECT_EQ(byUndo.classes, bySet.classes) << pushed << " pushed, " << undone << " undone";
    EXPECT_EQ(byUndo.withheld, bySet.withheld) << pushed << " pushed, " << undone << " undone";
    EXPECT_EQ(byUndo.drawn, bySet.drawn) << pushed << " pushed, " << undone << " undone";
    EXPECT_EQ(byUndo.pixels, bySet.pixels) << pushed << " pushed, " << undone << " undone";
  }
  // The edits did change something the undo had to take back.
  EXPECT_NE(shownAfter(3, 0, true).drawn, shownAfter(3, 1, true).drawn);
  EXPECT_NE(shownAfter(2, 0, true).classes, shownAfter(2, 1, true).classes);
}

TEST(SceneEdits, EditsTheFilesCannotShowAreSaidAndDropped) {
  EditedScene s;
  std::vector<PointEdit> edits = deleteWest();
  edits[0].selection.filter.ranges = {{"no_such_attribute", 0.0, 1.0}};
  s.scene.setEdits(edits);
  s.settle();
  EXPECT_FALSE(s.errors.take().empty());
  EXPECT_TRUE(s.scene.edits().empty());
  EXPECT_EQ(s.inCoreDrawn(), 40u * 40u);
}

}  // namespace
}  // namespace pcv
