// The viewer's scene: the parts Scene is made of, made as files arrive. What is opened is planned
// under the front end's limits (planScene, or prepareScene on a thread when headers of many tiles
// are read or a COPC cache is made); files read whole are queued on the background loader, shown
// growing while each one is read, merged as each one finishes, coloured from the host copy. With
// a stream the frame's one view origin is the stream's: files added beside it are shown as
// offsets from it (near the data, so they stay small).
#include "pcv/session/scene_model.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "pcv/core/error.hpp"
#include "pcv/raster/view_setup.hpp"

namespace pcv {

SceneModel::SceneModel(Renderer& renderer, const DemoScene& demo, const ColoringOptions& coloring,
                       const StreamLimits& limits, SessionReport report)
    : renderer_(renderer),
      demo_(demo),
      limits_(limits),
      report_(std::move(report)),
      coloring_(coloring) {
  keepFilterData(limits.filterData, limits.rangeAttribute);
}

SceneModel::~SceneModel() {
  opening_.reset();  // cancels a conversion in progress and joins its thread
  loader_.reset();   // cancels a load in progress and joins its thread
  closeStreamed();   // stops its decoders, removes its sets
  if (preparedCylinders_.valid()) takePreparedDemo();
  removeInCore();
}

void SceneModel::showDemo() {
  waitUntilPrepared();
  closeStreamed();
  removeInCore();
  shownOrigin_ = glm::dvec3(0.0);
  demoWhenEmpty_ = true;
  report_.say("preparing " + std::to_string(demo_.pointCount) + " cylinder points");
  preparedCylinders_ = std::async(std::launch::async, [this] {
    return std::make_unique<CylindersPart>(demo_, renderer_);
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
    cylinders_ = preparedCylinders_.get();
  } catch (const std::exception& error) {
    errors_.push_back(std::string("cannot show the cylinders: ") + error.what());
  }
}

void SceneModel::backToCylinders() {
  if (demoWhenEmpty_ && !hasCloud() && !cylinders_ && !preparedCylinders_.valid()) showDemo();
}

Box3d SceneModel::bounds() const {
  Box3d shown = stream_ ? stream_->bounds() : Box3d{};
  if (inCore_.holds()) shown.extend(inCore_.bounds());
  return shown;
}

Box3d SceneModel::shownBounds() const {
  if (!hasCloud() && preview_.bounds().empty()) {
    return cylinders_ || preparedCylinders_.valid() ? demoSceneBounds(demo_) : Box3d{};
  }
  Box3d shown = preview_.bounds();
  shown.extend(bounds());
  return shown;
}

std::vector<std::string> SceneModel::files() const {
  std::vector<std::string> files;
  if (stream_) files.push_back(stream_->path());
  files.insert(files.end(), inCore_.files().begin(), inCore_.files().end());
  return files;
}

std::string SceneModel::sceneKey() const {
  const std::vector<std::string> shownFiles = files();
  if (shownFiles.empty()) {
    return "cylinders points=" + std::to_string(demo_.pointCount) +
           " seed=" + std::to_string(demo_.seed);
  }
  std::string key;
  for (const std::string& file : shownFiles) {
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::weakly_canonical(file, error);
    key += (key.empty() ? "" : " + ") + (error ? file : absolute.string());
  }
  return key;
}

void SceneModel::open(const std::vector<std::string>& files, bool replace,
                      const ReadOptions& options) {
  if (files.empty()) return;
  if (!replace) {
    readWhole(files, false, options);
    return;
  }
  opening_.reset();  // files still planned would replace these when ready
  const bool tiles = files.size() > 1 && std::all_of(files.begin(), files.end(), hasTileExtension);
  bool onThread = !limits_.inCore && (tiles || namesDataset(files));
  if (!onThread) {
    // One file's header (or none: a format read whole) says it at once.
    ScenePlan plan;
    try {
      plan = planScene({.files = files}, limits_);
    } catch (const Error&) {
      plan.kind = SceneKind::InCore;  // the reader says what is wrong with the file
    }
    if (plan.kind != SceneKind::Streamed) {
      readWhole(files, true, options);
      return;
    }
    onThread = plan.cacheMissing;
    if (!onThread) {
      if (!openStream(plan, options)) backToCylinders();
      return;
    }
  }
  // Headers of thousands of tiles, their hierarchies and the overview's samples, or a COPC cache
  // to convert, take seconds: planned on a thread of their own so the window keeps drawing. The
  // renderer is not touched there; poll() makes the stream.
  opening_ = std::make_unique<SceneOpening>(files, options, limits_);
  report_.say("opening " + opening_->label() + " on its own thread");
}

void SceneModel::readWhole(const std::vector<std::string>& files, bool replace,
                           const ReadOptions& options) {
  // Added files go beside a stream (its nodes live in a reserved pool of the renderer, they in
  // the rest of its memory); files that replace the scene replace the stream too.
  if (replace) closeStreamed();
  if (!loader_) loader_ = std::make_unique<CloudLoader>();
  for (const std::string& file : files) report_.say("loading " + file);
  loader_->load(files, replace, options);
}

std::optional<SceneModel::DatasetOpeningProgress> SceneModel::openingDataset() const {
  if (!opening_) return std::nullopt;
  return DatasetOpeningProgress{.label = opening_->label(), .seconds = opening_->seconds()};
}

void SceneModel::waitUntilOpened() {
  if (opening_) finishOpening();
}

void SceneModel::finishOpening() {
  const std::unique_ptr<SceneOpening> opening = std::move(opening_);
  opening->wait();
  for (const std::string& note : opening->notes()) report_.say(note);
  if (!opening->error().empty()) {
    errors_.push_back(opening->error());
    report_.fail(opening->error());
    backToCylinders();
    return;
  }
  if (opening->plan().kind != SceneKind::Streamed) {
    readWhole(opening->files(), true, opening->read());  // LAS/LAZ files that fit in memory
  } else if (!openStream(opening->plan(), opening->read(), opening->forest())) {
    backToCylinders();
  }
}

bool SceneModel::openStream(const ScenePlan& plan, const ReadOptions& read,
                            std::shared_ptr<const ForestNodeSource> forest) {
  waitUntilPrepared();  // the renderer is the cylinders' layout thread's until then
  cancelLoading();      // what was loading would replace the stream when it finished
  closeStreamed();
  removeInCore();
  inCore_.clear();
  pickedIndex_.reset();
  pickedPosition_.reset();
  return startStream(plan, read, std::move(forest));
}

bool SceneModel::startStream(const ScenePlan& plan, const ReadOptions& read,
                             std::shared_ptr<const ForestNodeSource> forest) {
  try {
    std::vector<std::string> notes;
    StreamingOptions streaming = streamingOptionsFor(limits_, renderer_, notes);
    for (const std::string& note : notes) report_.say(note);
    streaming.coloring = coloring_;
    stream_ = std::make_unique<StreamPart>(plan, read, renderer_, streaming, report_,
                                           std::move(forest));
  } catch (const Error& error) {
    // Not COPC, or a GPU budget the renderer cannot reserve beside what is shown: said, and
    // the viewer keeps running.
    errors_.push_back(error.what());
    return false;
  }
  streamPlan_ = plan;
  streamRead_ = read;
  streamFramed_ = false;
  usedColoring_ = stream_->cloud().coloring();
  shownOrigin_ = stream_->cloud().origin();
  report_.say(std::to_string(stream_->pointCount()) + " points in " +
              std::to_string(stream_->nodeCount()) + " octree nodes, up to " +
              std::to_string(stream_->cloud().pointBudget()) + " drawn per frame");
  if (tileBoxesShown_) showTileBoxes();
  return true;
}

void SceneModel::closeStreamed() {
  tileBoxes_.reset();
  stream_.reset();  // its reserved pool goes with it: the sets of the files beside it stay
}

void SceneModel::setTileBoxes(bool shown) {
  tileBoxesShown_ = shown;
  if (shown) {
    showTileBoxes();
  } else {
    tileBoxes_.reset();
  }
}

void SceneModel::showTileBoxes() {
  if (tileBoxes_ || !stream_ || !stream_->tiles()) return;
  try {
    tileBoxes_ = std::make_unique<TileBoxes>(renderer_, *stream_->tiles(), shownOrigin_);
  } catch (const Error& error) {
    errors_.push_back(std::string("cannot draw the tile boxes: ") + error.what());
  }
}

void SceneModel::closeStream() {
  if (!stream_) return;
  report_.say("closing the stream of " + stream_->path());
  closeStreamed();
  // The files beside it keep their sets and offsets: the view origin stays where it was.
}

void SceneModel::cancelLoading() {
  if (!loader_) return;
  loader_->cancel();
  loader_->takeFinished();
  loader_->takePreview();
}

void SceneModel::removeInCore() {
  cylinders_.reset();
  inCore_.coloured().hide();
  preview_.clear();
}

void SceneModel::removeFiles() {
  cancelLoading();
  removeInCore();
  inCore_.clear();
  pickedIndex_.reset();
}

void SceneModel::updateStream(const Camera& camera, int widthPx, int heightPx) {
  if (!stream_) return;
  try {
    stream_->update(camera, widthPx, heightPx);
  } catch (const Error& error) {
    // The renderer failed to take a node (GPU memory gone, a device error): every later frame
    // would fail alike, so the stream stops and the viewer keeps running.
    errors_.push_back(std::string("streaming stopped: ") + error.what());
    closeStreamed();
    return;
  }
  for (std::string& error : stream_->cloud().takeErrors()) errors_.push_back(std::move(error));
}

SetSelection SceneModel::drawnSets() const {
  if (!stream_) return SetSelection::everySet();
  // The stream's chosen nodes (it keeps others resident that this view does not want), and
  // every set of the files beside it.
  drawn_ = stream_->frameSets();
  if (inCore_.coloured().set()) drawn_.push_back(*inCore_.coloured().set());
  drawn_.insert(drawn_.end(), preview_.sets().begin(), preview_.sets().end());
  if (tileBoxes_ && tileBoxes_->set()) drawn_.push_back(*tileBoxes_->set());
  return SetSelection::only(drawn_);
}

uint64_t SceneModel::pointsDrawn() const {
  if (preparing()) return 0;
  if (!stream_) return renderer_.pointCount();
  uint64_t points = stream_->cloud().stats().pointsDrawn;
  if (inCore_.coloured().set()) points += renderer_.pointCount(*inCore_.coloured().set());
  for (PointSetId set : preview_.sets()) points += renderer_.pointCount(set);
  return points;
}

std::vector<std::string> SceneModel::colorableAttributes() const {
  std::vector<std::string> names = pcv::colorableAttributes(inCore_.cloud());
  if (!stream_) return names;
  // Both kinds: a file beside the stream that lacks one is shown in its colours, with an error.
  for (const std::string& name : stream_->attributeNames()) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  for (const char* axis : {"x", "y", "z"}) {
    if (std::find(names.begin(), names.end(), axis) == names.end()) names.push_back(axis);
  }
  return names;
}

bool SceneModel::loading() const {
  if (opening_) return true;
  if (stream_ && !stream_->cloud().converged()) return true;
  return loader_ && loader_->busy();
}

std::optional<Box3d> SceneModel::poll() {
  if (preparedCylinders_.valid()) {
    // The renderer is the layout thread's until it is done; loaded files wait until then.
    if (preparing()) return std::nullopt;
    takePreparedDemo();
  }
  if (opening_ && opening_->done()) finishOpening();
  if (stream_ && !streamFramed_) {
    streamFramed_ = true;
    return shownBounds();
  }
  if (!loader_) return std::nullopt;
  // Finished files first: a finished file drops its own preview.
  if (takeFinished()) return bounds();
  const std::optional<LoadPreview> update = loader_->takePreview();
  if (!update || update->points.empty()) return std::nullopt;
  return takePreview(*update);
}

bool SceneModel::takeFinished() {
  std::vector<LoadedFile> finished = loader_->takeFinished();
  if (finished.empty()) return false;
  bool changed = false;
  for (LoadedFile& file : finished) {
    for (const std::string& warning : file.warnings) {
      report_.warn(warning);
      warnings_.push_back(warning);
    }
    if (file.cancelled) {
      report_.say(file.error);
      continue;
    }
    if (!file.error.empty()) {
      // The scene keeps what it had: a bad file costs only itself.
      report_.fail(file.error);
      errors_.push_back(file.error);
      continue;
    }
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f s", file.seconds);
    report_.say("loaded " + file.path + ": " + std::to_string(file.cloud.size()) + " points in " +
                seconds);
    inCore_.add(std::move(file.cloud), file.path, file.worldBounds, file.replaces);
    pickedIndex_.reset();
    changed = true;
  }
  // The preview ends with its file, whatever happened to it.
  preview_.clear();
  if (changed) {
    recolor();
  } else if (inCore_.holds()) {
    if (!inCore_.coloured().set()) recolor();  // a file that would have replaced them failed
  } else if (!stream_) {
    backToCylinders();  // a file that replaced the cylinders failed: they come back
  }
  return changed;
}

std::optional<Box3d> SceneModel::takePreview(const LoadPreview& update) {
  if (preview_.isAnotherFile(update)) {
    preview_.begin(update);
    if (update.replaces || !inCore_.holds()) {
      // The file replaces what is shown: its points alone, in its own origin (beside a stream,
      // in the stream's).
      cylinders_.reset();
      inCore_.coloured().hide();
      if (!stream_) shownOrigin_ = update.origin;
    }
  }
  if (!preview_.add(update, shownOrigin_)) return std::nullopt;
  report_.say("showing " + std::to_string(preview_.points()) + " points of " + update.path +
              " so far");
  Box3d shownBounds = preview_.bounds();
  if (inCore_.coloured().set()) shownBounds.extend(inCore_.bounds());
  if (stream_) shownBounds.extend(stream_->bounds());
  return shownBounds;
}

void SceneModel::setColoring(const ColoringOptions& coloring) {
  coloring_ = coloring;
  if (stream_) {
    // A streamed node is coloured as it is decoded: the nodes are decoded again, from the root.
    // The files beside it go first (recolor() lays them out again after), so that the stream's
    // reservation is made in the memory it had.
    const ScenePlan plan = streamPlan_;
    const ReadOptions read = streamRead_;
    const std::shared_ptr<const ForestNodeSource> forest = stream_->forest();
    removeInCore();
    closeStreamed();
    if (!startStream(plan, read, forest)) {
      coloring_ = ColoringOptions{};  // an attribute the file lacks: its colours, or elevation
      startStream(plan, read, forest);
    }
    streamFramed_ = true;  // the view stays where it is
  }
  recolor();
}

void SceneModel::recolor() {
  if (!inCore_.holds()) return;
  // Everything in core goes first: with no set left the renderer frees its pool, so the new set
  // is laid out in memory of exactly its size. A stream keeps its reserved pool.
  removeInCore();
  std::string fallback;
  const Coloring streamColoring = usedColoring_;
  try {
    // The source order finds a picked point's double coordinates and attributes in cloud().
    const std::optional<glm::dvec3> origin =
        stream_ ? std::optional<glm::dvec3>(shownOrigin_) : std::nullopt;
    const Coloring used =
        inCore_.coloured().show(coloring_, {.keepSourceOrder = true}, &fallback, origin);
    usedColoring_ = stream_ ? streamColoring : used;  // the stream's, with its range
  } catch (const Error& error) {
    // Out of memory beside a stream (its reserved pool holds the GPU budget), say: the files
    // stay listed and loaded on the host, drawn once there is room (recolouring tries again).
    errors_.push_back(std::string("cannot show the files: ") + error.what());
    return;
  }
  if (!fallback.empty()) {
    // An attribute this cloud lacks (--color-attribute, or a file without it): say so, show rgb.
    errors_.push_back(fallback);
    if (!stream_) coloring_ = ColoringOptions{};  // a stream beside keeps what it shows
  }
  if (!stream_) shownOrigin_ = inCore_.cloud().origin;
  report_.say(std::to_string(inCore_.cloud().size()) + " points coloured by " +
              colorModeName(usedColoring_.mode) +
              (usedColoring_.attribute.empty() ? "" : " " + usedColoring_.attribute));
}

std::optional<glm::dvec3> SceneModel::pick(const Camera& camera, const RenderSettings& settings,
                                           int width, int height, int xPx, int yPx) {
  if (preparing()) return std::nullopt;
  const ViewTransform view = makeViewTransform(camera, width, height, shownOrigin_);
  const std::optional<PickedPoint> picked = renderer_.pick(drawnSets(), view, settings, xPx, yPx);
  if (!picked) return std::nullopt;
  pickedIndex_ = inCore_.pickedIndex(*picked);
  if (pickedIndex_) {
    // The file's own point: double coordinates, and the index finds its attributes.
    const Point& p = inCore_.cloud().points[*pickedIndex_];
    pickedPosition_ = inCore_.cloud().origin + glm::dvec3(p.x, p.y, p.z);
  } else {
    // The cylinders, a file still loading or a streamed node (it keeps no attributes on the
    // host): the stored point, no index.
    pickedPosition_ =
        shownOrigin_ + glm::dvec3(picked->position[0], picked->position[1], picked->position[2]);
  }
  return pickedPosition_;
}

std::vector<std::string> SceneModel::takeErrors() {
  return std::exchange(errors_, {});
}

}  // namespace pcv
