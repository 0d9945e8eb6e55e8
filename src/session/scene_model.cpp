// The viewer's scene: the parts Scene is made of, made as files arrive. What is opened is planned
// under the front end's limits (planScene, or prepareScene on a thread when headers of many tiles
// are read or a COPC cache is made); files read whole are queued on the background loader, shown
// growing while each one is read, merged as each one finishes, coloured from the host copy. With
// a stream the frame's one view origin is the stream's: files added beside it are shown as
// offsets from it (near the data, so they stay small).
#include "pcv/session/scene_model.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <iterator>

#include "pcv/core/error.hpp"
#include "pcv/session/edit_log.hpp"
#include "pcv/session/selection_export.hpp"

namespace pcv {
namespace {

/// Where showing the edits `after` instead of `before` may change points: the regions of the
/// edits past the two lists' common start (edits told apart by their log text), or everywhere
/// where one of them has no region.
RegionTest regionOfChanges(std::span<const PointEdit> before, std::span<const PointEdit> after) {
  size_t common = 0;
  while (common < before.size() && common < after.size() &&
         editLogText(before.subspan(common, 1)) == editLogText(after.subspan(common, 1))) {
    ++common;
  }
  std::vector<RegionTest> regions;
  for (const std::span<const PointEdit> list : {before, after}) {
    for (const PointEdit& edit : list.subspan(common)) {
      regions.push_back(selectionRegionTest(edit.selection));
    }
  }
  return anyRegionTest(std::move(regions));
}

}  // namespace

SceneModel::SceneModel(Renderer& renderer, const DemoCylinders& demo,
                       const ColoringOptions& coloring, const StreamLimits& limits,
                       SessionReport report)
    : renderer_(renderer),
      limits_(limits),
      report_(std::move(report)),
      coloring_{.asked = coloring},
      parts_(renderer, demo),
      files_(parts_, report_) {
  keepFilterData(limits.filterData, limits.rangeAttribute);
  parts_.setTileBoxes(true);  // nothing streamed yet: nothing drawn
}

SceneModel::~SceneModel() {
  opening_.reset();      // cancels a conversion in progress and joins its thread
  files_.stop();         // cancels a load in progress and joins its thread
  parts_.closeStream();  // stops its decoders, removes its sets
  if (preparedCylinders_.valid()) takePreparedDemo();
  parts_.hideInCore();
}

void SceneModel::showDemo() {
  waitUntilPrepared();
  parts_.closeStream();
  parts_.hideInCore();
  parts_.origin = glm::dvec3(0.0);
  demoWhenEmpty_ = true;
  report_.say("preparing " + std::to_string(parts_.demo.pointCount) + " cylinder points");
  preparedCylinders_ = std::async(std::launch::async, [this] {
    return std::make_unique<CylindersPart>(parts_.demo, renderer_);
  });
}

bool SceneModel::preparing() const {
  return preparedCylinders_.valid() &&
         preparedCylinders_.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
}

void SceneModel::waitUntilPrepared() {
  if (preparedCylinders_.valid()) takePreparedDemo();
}

void SceneModel::takePreparedDemo() {
  try {
    parts_.cylinders = preparedCylinders_.get();
  } catch (const std::exception& error) {
    report_.fail(std::string("cannot show the cylinders: ") + error.what());
  }
}

void SceneModel::backToCylinders() {
  if (demoWhenEmpty_ && !parts_.holdsFiles() && !parts_.cylinders && !preparedCylinders_.valid()) {
    showDemo();
  }
}

Box3d SceneModel::shownBounds() const {
  // The cylinders being laid out are no part yet.
  const bool cylindersOnly = !parts_.holdsFiles() && parts_.preview.bounds().empty();
  return cylindersOnly && preparedCylinders_.valid() ? demoCylindersBounds(parts_.demo)
                                                     : parts_.shownBounds();
}

void SceneModel::keepFilterData(bool keep, const std::string& rangeAttribute) {
  parts_.inCore.colored().setFilterData(keep, rangeAttribute);
}

void SceneModel::open(const std::vector<std::string>& files, bool replace,
                      const ReadOptions& options) {
  if (files.empty()) return;
  if (!replace) {
    files_.read(files, false, options);
    return;
  }
  // Edits are selections of the scene they were made on: a new scene starts without them.
  if (!edits_.empty()) report_.say("the edits not saved are dropped with the scene they were on");
  edits_.clear();
  parts_.inCore.colored().setEdits({});
  ++generation_;
  opening_.reset();  // files still planned would replace these when ready
  if (const std::optional<ScenePlan> plan = planAtOnce(files, limits_)) {
    if (plan->kind != SceneKind::Streamed) {
      files_.read(files, true, options);
    } else if (!openStream(*plan, options)) {
      backToCylinders();
    }
    return;
  }
  // Planned on a thread of their own so the window keeps drawing. The renderer is not touched
  // there; poll() makes the stream.
  opening_ = std::make_unique<SceneOpening>(files, options, limits_);
  report_.say("opening " + opening_->label() + " on its own thread");
}

void SceneModel::wait() {
  waitUntilPrepared();
  if (opening_) finishOpening();
}

void SceneModel::finishOpening() {
  const std::unique_ptr<SceneOpening> opening = std::move(opening_);
  opening->wait();
  for (const std::string& note : opening->notes()) report_.say(note);
  if (!opening->error().empty()) {
    report_.fail(opening->error());
    backToCylinders();
    return;
  }
  if (opening->plan().kind != SceneKind::Streamed) {
    files_.read(opening->files(), true, opening->read());  // LAS/LAZ files that fit in memory
  } else if (!openStream(opening->plan(), opening->read(), opening->forest())) {
    backToCylinders();
  }
}

bool SceneModel::openStream(const ScenePlan& plan, const ReadOptions& read,
                            std::shared_ptr<const ForestNodeSource> forest) {
  waitUntilPrepared();  // the renderer is the cylinders' layout thread's until then
  files_.cancel();      // what was loading would replace the stream when it finished
  parts_.closeStream();
  parts_.hideInCore();
  parts_.inCore.clear();
  picked_.reset();
  return startStream(plan, read, std::move(forest));
}

bool SceneModel::startStream(const ScenePlan& plan, const ReadOptions& read,
                             std::shared_ptr<const ForestNodeSource> forest) {
  try {
    parts_.openStream(plan, read, limits_, coloring_.asked, report_, std::move(forest), edits_);
  } catch (const Error& error) {
    // Not COPC, or a GPU budget the renderer cannot reserve beside what is shown: said, and
    // the viewer keeps running.
    report_.fail(error.what());
    return false;
  }
  streamFramed_ = false;
  coloring_.used = parts_.stream->cloud().coloring();
  report_.say(std::to_string(parts_.stream->pointCount()) + " points in " +
              std::to_string(parts_.stream->nodeCount()) + " octree nodes, up to " +
              std::to_string(parts_.stream->cloud().pointBudget()) + " drawn per frame");
  setTileBoxes(parts_.tileBoxesShown());
  return true;
}

void SceneModel::setTileBoxes(bool shown) {
  try {
    parts_.setTileBoxes(shown);
  } catch (const Error& error) {
    report_.fail(std::string("cannot draw the tile boxes: ") + error.what());
  }
}

void SceneModel::closeStream() {
  if (!parts_.stream) return;
  report_.say("closing the stream of " + parts_.stream->path());
  parts_.closeStream();
  // The files beside it keep their sets and offsets: the view origin stays where it was.
}

void SceneModel::removeFiles() {
  files_.cancel();
  parts_.hideInCore();
  parts_.inCore.clear();
  if (picked_) picked_->inCoreIndex.reset();
}

void SceneModel::updateStream(const Camera& camera, int widthPx, int heightPx) {
  if (!parts_.stream) return;
  try {
    parts_.stream->update(camera, widthPx, heightPx);
  } catch (const Error& error) {
    // The renderer failed to take a node (GPU memory gone, a device error): every later frame
    // would fail alike, so the stream stops and the viewer keeps running.
    report_.fail(std::string("streaming stopped: ") + error.what());
    parts_.closeStream();
    return;
  }
  for (const std::string& error : parts_.stream->cloud().takeErrors()) report_.fail(error);
  for (const std::string& warning : parts_.stream->cloud().takeWarnings()) report_.warn(warning);
}

bool SceneModel::loading() const {
  if (opening_) return true;
  if (parts_.stream && !parts_.stream->cloud().converged()) return true;
  return files_.busy();
}

std::optional<Box3d> SceneModel::poll() {
  if (preparedCylinders_.valid()) {
    // The renderer is the layout thread's until it is done; loaded files wait until then.
    if (preparing()) return std::nullopt;
    takePreparedDemo();
  }
  if (opening_ && opening_->done()) finishOpening();
  if (parts_.stream && !streamFramed_) {
    streamFramed_ = true;
    return shownBounds();
  }
  // Finished files first: a finished file drops its own preview.
  if (takeFinishedFiles()) return parts_.filesBounds();
  return files_.takePreview();
}

bool SceneModel::takeFinishedFiles() {
  const TakenFiles taken = files_.takeFinished();
  if (taken.finished == 0) return false;
  if (taken.added > 0) {
    if (picked_) picked_->inCoreIndex.reset();  // its index was in the files before
    recolor();
  } else if (parts_.inCore.holds()) {
    if (!parts_.inCore.colored().set()) recolor();  // a file that would have replaced them failed
  } else if (!parts_.stream) {
    backToCylinders();  // a file that replaced the cylinders failed: they come back
  }
  return taken.added > 0;
}

void SceneModel::setColoring(const ColoringOptions& coloring) {
  coloring_.asked = coloring;
  reopenStream();
  recolor();
}

void SceneModel::reopenStream(bool readAgain) {
  if (!parts_.stream) return;
  // A streamed node is coloured and edited as it is decoded: the nodes are decoded again, from
  // the root. The files beside it go first (recolor() lays them out again after), so that the
  // stream's reservation is made in the memory it had.
  const ScenePlan plan = parts_.stream->plan();
  const ReadOptions read = parts_.stream->read();
  const std::shared_ptr<const ForestNodeSource> forest =
      readAgain ? nullptr : parts_.stream->forest();
  parts_.hideInCore();
  parts_.closeStream();
  if (!startStream(plan, read, forest)) {
    coloring_.asked = {};  // an attribute the file lacks: its colours, or elevation
    startStream(plan, read, forest);
  }
  streamFramed_ = true;  // the view stays where it is
  // The selection shown stays shown.
  const std::optional<PointSelection>& highlight = parts_.inCore.colored().highlight();
  if (parts_.stream && highlight) parts_.stream->setHighlight(highlight);
}

void SceneModel::showFilesAsTheyAre() {
  // Classes changed, the same points shown: their colours and filter data replaced in place
  // (no layout); points withheld or restored: the set laid out again.
  if (!parts_.inCore.colored().refreshInPlace()) recolor();
}

void SceneModel::setHighlight(std::optional<PointSelection> selection) {
  if (parts_.stream) parts_.stream->setHighlight(selection);
  ColoredCloud& colored = parts_.inCore.colored();
  // Only the points that enter or leave the highlight are drawn again.
  if (!colored.showChangedPoints(colored.setHighlight(std::move(selection)))) showFilesAsTheyAre();
}

void SceneModel::showEditsInStream(std::span<const PointEdit> before) {
  if (!parts_.stream) return;
  try {
    parts_.stream->setEdits(edits_, regionOfChanges(before, edits_));
  } catch (const InputError&) {
    parts_.stream->setEdits(edits_, [](const Box3d&) { return true; });  // everywhere
  }
}

namespace {

/// Whether an edit with `action` changes classes alone (the points shown stay the same).
bool changesClassesOnly(EditAction action) {
  return action == EditAction::SetClass || action == EditAction::Classify;
}

}  // namespace

std::vector<uint64_t> SceneModel::dropHighlight() {
  if (parts_.stream) parts_.stream->setHighlight(std::nullopt);
  return parts_.inCore.colored().setHighlight(std::nullopt);
}

void SceneModel::showEditedPoints(bool classesOnly, std::span<const uint64_t> changed,
                                  const std::vector<uint64_t>& wasHighlighted) {
  // A class change draws its own points again, and those the highlight left; a delete or a
  // restore changes which points the set holds: laid out again.
  ColoredCloud& colored = parts_.inCore.colored();
  if (classesOnly) {
    if (wasHighlighted.empty()) {
      if (colored.showChangedPoints(changed)) return;  // not copied: 80 MB for 10 M points
    } else {
      std::vector<uint64_t> redrawn;
      std::set_union(changed.begin(), changed.end(), wasHighlighted.begin(), wasHighlighted.end(),
                     std::back_inserter(redrawn));
      if (colored.showChangedPoints(redrawn)) return;
    }
  }
  showFilesAsTheyAre();
}

void SceneModel::pushEdit(PointEdit edit) {
  ++editsVersion_;
  ColoredCloud& colored = parts_.inCore.colored();
  const std::vector<uint64_t> wasHighlighted = dropHighlight();
  try {
    colored.pushEdit(edit);
  } catch (const InputError& error) {
    report_.fail(std::string("cannot show the edit: ") + error.what());
    showEditedPoints(true, {}, wasHighlighted);  // the highlight gone
    return;
  }
  const bool classesOnly = changesClassesOnly(edit.action);
  edits_.push_back(std::move(edit));
  showEditsInStream({edits_.data(), edits_.size() - 1});
  showEditedPoints(classesOnly, colored.lastEditPoints(), wasHighlighted);
}

void SceneModel::undoLastEdit() {
  if (edits_.empty()) return;
  ColoredCloud& colored = parts_.inCore.colored();
  const std::vector<uint64_t> wasHighlighted = dropHighlight();
  std::vector<uint64_t> changed;
  if (!colored.undoLastEdit(&changed)) {
    setEdits({edits_.begin(), edits_.end() - 1});  // every edit but the last applied again
    return;
  }
  ++editsVersion_;
  const bool classesOnly = changesClassesOnly(edits_.back().action);
  const std::vector<PointEdit> before = edits_;
  edits_.pop_back();
  showEditsInStream(before);
  showEditedPoints(classesOnly, changed, wasHighlighted);  // drawn again as the edit drew them
}

void SceneModel::editsSaved() {
  edits_.clear();
  ++editsVersion_;
  parts_.inCore.colored().commitEdits();
  if (!parts_.stream) return;
  // The saved files are new files (renamed over the old): their hierarchies are read again.
  reopenStream(/*readAgain=*/true);
  recolor();
}

void SceneModel::setEdits(std::vector<PointEdit> edits) {
  const std::vector<PointEdit> before = std::exchange(edits_, std::move(edits));
  ++editsVersion_;
  dropHighlight();  // the selection shown was acted on
  try {
    parts_.inCore.colored().setEdits(edits_);
  } catch (const InputError& error) {
    report_.fail(std::string("cannot show the edits: ") + error.what());
    edits_.clear();
  }
  showEditsInStream(before);
  showFilesAsTheyAre();
}

void SceneModel::recolor() {
  if (!parts_.inCore.holds()) return;
  // Everything in core goes first: with no set left the renderer frees its pool, so the new set
  // is laid out in memory of exactly its size. A stream keeps its reserved pool.
  parts_.hideInCore();
  std::string fallback;
  try {
    // The source order finds a picked point's double coordinates and attributes in cloud().
    const Coloring used = parts_.showInCore(coloring_.asked, {.keepSourceOrder = true}, &fallback);
    if (!parts_.stream) coloring_.used = used;  // else the stream's, with its range
  } catch (const Error& error) {
    // Out of memory beside a stream (its reserved pool holds the GPU budget), say: the files
    // stay listed and loaded on the host, drawn once there is room (recolouring tries again).
    report_.fail(std::string("cannot show the files: ") + error.what());
    return;
  }
  if (!fallback.empty()) {
    // An attribute this cloud lacks (--color-attribute, or a file without it): say so, show rgb.
    report_.fail(fallback);
    if (!parts_.stream) coloring_.asked = {};  // a stream beside keeps what it shows
  }
  const Coloring& used = coloring_.used;
  report_.say(std::to_string(parts_.inCore.cloud().size()) + " points coloured by " +
              colorModeName(used.mode) + (used.attribute.empty() ? "" : " " + used.attribute));
}

std::optional<glm::dvec3> SceneModel::pick(const Camera& camera, const RenderSettings& settings,
                                           int width, int height, int xPx, int yPx) {
  if (preparing()) return std::nullopt;
  const std::optional<PickedWorldPoint> picked =
      parts_.pick(camera, settings, width, height, xPx, yPx);
  if (!picked) return std::nullopt;
  picked_ = picked;
  return picked->position;
}

}  // namespace pcv
