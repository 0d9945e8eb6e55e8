// The viewer's scene: files queued on the background loader, shown growing while each one is read
// (a preview of its decoded prefix), merged as each one finishes, coloured from the host copy; and
// one COPC file streamed from its octree, its nodes chosen frame by frame, in a reserved pool of
// the renderer beside them. With a stream the frame's one view origin is the stream's: the files
// added beside it are shown as offsets from it (near the data, so they stay small).
#include "pcv/session/scene_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "pcv/raster/view_setup.hpp"
#include "pcv/session/tile_boxes.hpp"

namespace pcv {

struct SceneModel::DatasetOpening {
  std::vector<std::string> files;
  std::string label;
  ReadOptions options;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::thread thread;
  std::atomic<bool> done{false};
  // Set by the thread before `done`:
  bool notDataset = false;  ///< LAS/LAZ files that fit in memory: read whole, as before
  std::shared_ptr<const TileSet> tiles;
  std::shared_ptr<const ForestNodeSource> forest;
  std::string error;
};

SceneModel::SceneModel(Renderer& renderer, const DemoScene& demo, const ColoringOptions& coloring,
                       SessionReport report)
    : renderer_(renderer), demo_(demo), coloring_(coloring), report_(std::move(report)) {}

SceneModel::~SceneModel() {
  abandonOpening();
  loader_.reset();    // cancels a load in progress and joins its thread
  streamed_.reset();  // stops its decoders, removes its sets
  if (demoThread_.joinable()) demoThread_.join();
  preparedCylinders_.reset();
  removeShown();
}

void SceneModel::removeShown() {
  closeStreamed();
  removeInCore();
}

void SceneModel::removeInCore() {
  cylinders_.reset();
  cloud_.hide();
  dropPreview();
}

void SceneModel::dropPreview() {
  for (PointSetId set : previewSets_) renderer_.removeSet(set);
  previewSets_.clear();
  previewSerial_ = 0;
  previewPoints_ = 0;
  previewBounds_ = {};
}

void SceneModel::showDemo() {
  waitUntilPrepared();
  removeShown();
  demoBounds_ = demoSceneBounds(demo_);
  shownOrigin_ = glm::dvec3(0.0);
  demoWhenEmpty_ = true;
  demoReady_ = false;
  report_.say("preparing " + std::to_string(demo_.pointCount) + " cylinder points");
  demoThread_ = std::thread([this] {
    try {
      preparedCylinders_ =
          std::make_unique<Scene>(planScene({.demo = demo_}, {}), SceneOptions{}, renderer_);
    } catch (...) {
      demoError_ = std::current_exception();
    }
    demoReady_ = true;
  });
}

void SceneModel::waitUntilPrepared() {
  if (!demoThread_.joinable()) return;
  demoThread_.join();
  takePreparedDemo();
}

void SceneModel::takePreparedDemo() {
  cylinders_ = std::move(preparedCylinders_);
  if (demoError_) {
    try {
      std::rethrow_exception(std::exchange(demoError_, nullptr));
    } catch (const std::exception& error) {
      errors_.push_back(std::string("cannot show the cylinders: ") + error.what());
    }
  }
}

Box3d SceneModel::bounds() const {
  Box3d shown = streamed_ ? streamed_->bounds() : Box3d{};
  if (haveCloud_) shown.extend(bounds_);
  return shown;
}

Box3d SceneModel::shownBounds() const {
  if (!streamed_ && !haveCloud_ && previewBounds_.empty())
    return cylinders_ || preparing() ? demoBounds_ : Box3d{};
  Box3d shown = previewBounds_;
  shown.extend(bounds());
  return shown;
}

std::vector<std::string> SceneModel::files() const {
  std::vector<std::string> files;
  if (streamed_) files.push_back(streamed_->path());
  files.insert(files.end(), files_.begin(), files_.end());
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
  if (replace) abandonOpening();  // a dataset still opening would replace these when read
  if (replace && streaming_ && streamsAsCopc(files, {})) {
    if (!openStreamed({.path = files[0]}, options) && demoWhenEmpty_) {
      showDemo();  // as for a bad file
    }
    return;
  }
  if (replace && streaming_ && openDataset(files, options)) return;
  // Added files go beside a stream (its nodes live in a reserved pool of the renderer, they in
  // the rest of its memory); files that replace the scene replace the stream too.
  if (streamed_ && replace) closeStreamed();
  if (!loader_) loader_ = std::make_unique<CloudLoader>();
  for (const std::string& file : files) report_.say("loading " + file);
  loader_->load(files, replace, options);
}

bool SceneModel::openDataset(const std::vector<std::string>& files, const ReadOptions& options) {
  const bool tiles = files.size() > 1 && std::all_of(files.begin(), files.end(), hasTileExtension);
  if (!namesDataset(files) && !tiles) return false;
  abandonOpening();
  auto opening = std::make_unique<DatasetOpening>();
  opening->files = files;
  opening->options = options;
  opening->label = files.size() == 1
                       ? files[0]
                       : files[0] + " and " + std::to_string(files.size() - 1) + " more";
  report_.say("opening " + opening->label + ": tile headers, hierarchies and overview");
  // Headers of thousands of tiles, their hierarchies and the overview's samples take a second or
  // more: read on a thread of their own so the window keeps drawing. The renderer is not touched
  // there; poll() makes the stream.
  DatasetOpening& o = *opening;
  o.thread = std::thread([&o] {
    try {
      const ScenePlan plan = planScene({.files = o.files}, {});
      if (!plan.tiles) {
        o.notDataset = true;
      } else {
        o.tiles = plan.tiles;
        o.forest = openTileForest(*plan.tiles, {.read = o.options});
      }
    } catch (const std::exception& error) {
      o.error = error.what();
    }
    o.done = true;
  });
  opening_ = std::move(opening);
  return true;
}

std::optional<SceneModel::DatasetOpeningProgress> SceneModel::openingDataset() const {
  if (!opening_) return std::nullopt;
  return DatasetOpeningProgress{
      .label = opening_->label,
      .seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - opening_->start)
                     .count()};
}

void SceneModel::abandonOpening() {
  if (!opening_) return;
  opening_->thread.join();
  opening_.reset();
}

void SceneModel::waitUntilOpened() {
  if (!opening_) return;
  opening_->thread.join();
  finishOpening();
}

void SceneModel::finishOpening() {
  if (opening_->thread.joinable()) opening_->thread.join();
  const std::unique_ptr<DatasetOpening> opening = std::move(opening_);
  if (!opening->error.empty()) {
    errors_.push_back(opening->error);
    report_.fail(opening->error);
    if (demoWhenEmpty_ && !hasCloud()) showDemo();
    return;
  }
  if (opening->notDataset) {
    // Files that fit in memory: read whole, as any files that replace the scene.
    if (streamed_) closeStreamed();
    if (!loader_) loader_ = std::make_unique<CloudLoader>();
    for (const std::string& file : opening->files) report_.say("loading " + file);
    loader_->load(opening->files, true, opening->options);
    return;
  }
  if (!openStreamed({.path = opening->label, .tiles = opening->tiles, .forest = opening->forest},
                    opening->options) &&
      demoWhenEmpty_ && !hasCloud()) {
    showDemo();
  }
}

bool SceneModel::openStreamed(const StreamSource& source, const ReadOptions& options) {
  waitUntilPrepared();  // the renderer is the cylinders' layout thread's until then
  if (loader_) {
    loader_->cancel();  // what was loading would replace the stream when it finished
    loader_->takeFinished();
    loader_->takePreview();
  }
  removeShown();
  cloud_.clear();
  haveCloud_ = false;
  files_.clear();
  bounds_ = {};
  pickedIndex_.reset();
  pickedPosition_.reset();
  return startStream(source, options);
}

bool SceneModel::restartStream(const StreamSource& source, const ReadOptions& options) {
  closeStreamed();
  return startStream(source, options);
}

bool SceneModel::startStream(const StreamSource& source, const ReadOptions& options) {
  StreamingOptions streaming = *streaming_;
  streaming.coloring = coloring_;
  const std::string& path = source.path;
  if (source.tiles) {
    report_.say("streaming " + std::to_string(source.tiles->tiles.size()) + " tiles of " + path +
                " as one forest");
  } else {
    report_.say("streaming " + path);
  }
  try {
    if (source.forest) {
      streamed_ = std::make_unique<StreamedScene>(source.tiles, source.forest, path, renderer_,
                                                  streaming);
    } else if (source.tiles) {
      streamed_ = std::make_unique<StreamedScene>(source.tiles, path, options, renderer_, streaming);
    } else {
      streamed_ = std::make_unique<StreamedScene>(path, options, renderer_, streaming);
    }
  } catch (const Error& error) {
    // Not COPC, or a GPU budget the renderer cannot reserve beside what is shown: said, and
    // the viewer keeps running.
    errors_.push_back(error.what());
    return false;
  }
  streamedRead_ = options;
  streamedSource_ = source;
  streamedFramed_ = false;
  usedColoring_ = streamed_->cloud().coloring();
  shownOrigin_ = streamed_->cloud().origin();
  report_.say(std::to_string(streamed_->pointCount()) + " points in " +
              std::to_string(streamed_->nodeCount()) + " octree nodes, up to " +
              std::to_string(streamed_->cloud().pointBudget()) + " drawn per frame");
  if (tileBoxes_) showTileBoxes();
  return true;
}

void SceneModel::closeStreamed() {
  if (!streamed_) return;
  hideTileBoxes();
  streamed_.reset();  // its reserved pool goes with it: the sets of the files beside it stay
}

void SceneModel::setTileBoxes(bool shown) {
  tileBoxes_ = shown;
  if (shown) {
    showTileBoxes();
  } else {
    hideTileBoxes();
  }
}

void SceneModel::showTileBoxes() {
  if (tileBoxSet_ || !streamed_ || !streamed_->tiles()) return;
  std::vector<Box3d> boxes;
  for (const Tile& tile : streamed_->tiles()->tiles) boxes.push_back(tile.bounds);
  const std::vector<Point> points = tileBoxPoints(boxes, shownOrigin_);
  if (points.empty()) return;
  try {
    // Outside the stream's reserved pool, as files beside it are.
    tileBoxSet_ = renderer_.addSet(points, {.hasColor = true});
  } catch (const Error& error) {
    errors_.push_back(std::string("cannot draw the tile boxes: ") + error.what());
  }
}

void SceneModel::hideTileBoxes() {
  if (!tileBoxSet_) return;
  renderer_.removeSet(*tileBoxSet_);
  tileBoxSet_.reset();
}

void SceneModel::closeStream() {
  if (!streamed_) return;
  report_.say("closing the stream of " + streamed_->path());
  closeStreamed();
  // The files beside it keep their sets and offsets: the view origin stays where it was.
}

void SceneModel::removeFiles() {
  if (loader_) {
    loader_->cancel();
    loader_->takeFinished();
    loader_->takePreview();
  }
  removeInCore();
  cloud_.clear();
  haveCloud_ = false;
  files_.clear();
  bounds_ = {};
  pickedIndex_.reset();
}

void SceneModel::updateStream(const Camera& camera, int widthPx, int heightPx) {
  if (!streamed_) return;
  try {
    streamed_->update(camera, widthPx, heightPx);
  } catch (const Error& error) {
    // The renderer failed to take a node (GPU memory gone, a device error): every later frame
    // would fail alike, so the stream stops and the viewer keeps running.
    errors_.push_back(std::string("streaming stopped: ") + error.what());
    closeStreamed();
    return;
  }
  for (std::string& error : streamed_->cloud().takeErrors()) errors_.push_back(std::move(error));
}

SetSelection SceneModel::drawnSets() const {
  if (!streamed_) return SetSelection::everySet();
  // The stream's chosen nodes (it keeps others resident that this view does not want), and
  // every set of the files beside it.
  const SetSelection streamedSets = streamed_->selection();
  drawn_.assign(streamedSets.sets().begin(), streamedSets.sets().end());
  if (cloud_.set()) drawn_.push_back(*cloud_.set());
  drawn_.insert(drawn_.end(), previewSets_.begin(), previewSets_.end());
  if (tileBoxSet_) drawn_.push_back(*tileBoxSet_);
  return SetSelection::only(drawn_);
}

uint64_t SceneModel::pointsDrawn() const {
  if (preparing()) return 0;
  if (!streamed_) return renderer_.pointCount();
  uint64_t points = streamed_->cloud().stats().pointsDrawn;
  if (cloud_.set()) points += renderer_.pointCount(*cloud_.set());
  for (PointSetId set : previewSets_) points += renderer_.pointCount(set);
  return points;
}

std::vector<std::string> SceneModel::colorableAttributes() const {
  std::vector<std::string> names = pcv::colorableAttributes(cloud_.cloud());
  if (!streamed_) return names;
  // Both kinds: a file beside the stream that lacks one is shown in its colours, with an error.
  for (const std::string& name : streamed_->attributeNames()) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  for (const char* axis : {"x", "y", "z"}) {
    if (std::find(names.begin(), names.end(), axis) == names.end()) names.push_back(axis);
  }
  return names;
}

bool SceneModel::loading() const {
  if (opening_) return true;
  if (streamed_ && !streamed_->cloud().converged()) return true;
  return loader_ && loader_->busy();
}

std::optional<Box3d> SceneModel::poll() {
  if (demoThread_.joinable()) {
    // The renderer is the layout thread's until it is done; loaded files wait until then.
    if (!demoReady_) return std::nullopt;
    demoThread_.join();
    takePreparedDemo();
  }
  if (opening_ && opening_->done) finishOpening();
  if (streamed_ && !streamedFramed_) {
    streamedFramed_ = true;
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
    const bool replaces = file.replaces || !haveCloud_;
    cloud_.merge(std::move(file.cloud), replaces);
    if (replaces) {
      files_.clear();
      bounds_ = file.worldBounds;
    } else {
      bounds_.extend(file.worldBounds);
    }
    files_.push_back(file.path);
    haveCloud_ = true;
    pickedIndex_.reset();
    changed = true;
  }
  // The preview ends with its file, whatever happened to it.
  dropPreview();
  if (changed) {
    recolor();
  } else if (haveCloud_) {
    if (!cloud_.set()) recolor();  // a file that would have replaced them failed
  } else if (demoWhenEmpty_ && !cylinders_ && !streamed_) {
    showDemo();  // a file that replaced the cylinders failed: they come back
  }
  return changed;
}

std::optional<Box3d> SceneModel::takePreview(const LoadPreview& update) {
  if (update.fileSerial != previewSerial_) {
    dropPreview();
    previewSerial_ = update.fileSerial;
    if (update.replaces || !haveCloud_) {
      // The file replaces what is shown: its points alone, in its own origin (beside a stream,
      // in the stream's).
      cylinders_.reset();
      cloud_.hide();
      if (!streamed_) shownOrigin_ = update.origin;
    }
  }
  if (update.firstPoint != previewPoints_) return std::nullopt;  // not a continuation
  // Rgb: the file's own colours, or elevation when it has none (the preview has no attributes
  // for the other modes; the finished file gets the chosen colouring).
  PointCloud piece;
  piece.origin = update.origin;
  piece.hasColor = update.hasColor;
  piece.points.assign(update.points.begin(), update.points.end());
  UninitializedVector<Point> coloured;
  coloredPoints(piece, ColoringOptions{}, coloured);
  piece.points = std::move(coloured);
  PointCloud shown;  // in the origin the renderer's points share
  shown.origin = shownOrigin_;
  appendPointCloud(shown, piece);
  previewPoints_ += update.points.size();
  previewBounds_.extend(piece.worldBounds());
  try {
    previewSets_.push_back(renderer_.addSet(shown.points, {.hasColor = update.hasColor}));
  } catch (const Error&) {
    return std::nullopt;  // out of memory for a preview: the finished file reports it
  }
  report_.say("showing " + std::to_string(previewPoints_) + " points of " + update.path +
              " so far");
  Box3d shownBounds = previewBounds_;
  if (cloud_.set()) shownBounds.extend(bounds_);
  if (streamed_) shownBounds.extend(streamed_->bounds());
  return shownBounds;
}

void SceneModel::setColoring(const ColoringOptions& coloring) {
  coloring_ = coloring;
  if (streamed_) {
    // A streamed node is coloured as it is decoded: the nodes are decoded again, from the root.
    const StreamSource source = streamedSource_;
    const ReadOptions read = streamedRead_;
    // The files beside it go first (recolor() lays them out again after), so that the
    // stream's reservation is made in the memory it had.
    removeInCore();
    if (!restartStream(source, read)) {
      coloring_ = ColoringOptions{};  // an attribute the file lacks: its colours, or elevation
      restartStream(source, read);
    }
    streamedFramed_ = true;  // the view stays where it is
  }
  recolor();
}

void SceneModel::recolor() {
  if (!haveCloud_) return;
  // Everything in core goes first: with no set left the renderer frees its pool, so the new set
  // is laid out in memory of exactly its size. A stream keeps its reserved pool.
  removeInCore();
  std::string fallback;
  const Coloring streamColoring = usedColoring_;
  try {
    // The source order finds a picked point's double coordinates and attributes in cloud().
    const std::optional<glm::dvec3> origin =
        streamed_ ? std::optional<glm::dvec3>(shownOrigin_) : std::nullopt;
    const Coloring used = cloud_.show(coloring_, {.keepSourceOrder = true}, &fallback, origin);
    usedColoring_ = streamed_ ? streamColoring : used;  // the stream's, with its range
  } catch (const Error& error) {
    // Out of memory beside a stream (its reserved pool holds the GPU budget), say: the files
    // stay listed and loaded on the host, drawn once there is room (recolouring tries again).
    errors_.push_back(std::string("cannot show the files: ") + error.what());
    return;
  }
  if (!fallback.empty()) {
    // An attribute this cloud lacks (--color-attribute, or a file without it): say so, show rgb.
    errors_.push_back(fallback);
    if (!streamed_) coloring_ = ColoringOptions{};  // a stream beside keeps what it shows
  }
  if (!streamed_) shownOrigin_ = cloud_.cloud().origin;
  report_.say(std::to_string(cloud_.cloud().size()) + " points coloured by " +
              colorModeName(usedColoring_.mode) +
              (usedColoring_.attribute.empty() ? "" : " " + usedColoring_.attribute));
}

std::optional<glm::dvec3> SceneModel::pick(const Camera& camera, const RenderSettings& settings,
                                           int width, int height, int xPx, int yPx) {
  if (preparing()) return std::nullopt;
  const ViewTransform view = makeViewTransform(camera, width, height, shownOrigin_);
  const std::optional<PickedPoint> picked = renderer_.pick(drawnSets(), view, settings, xPx, yPx);
  if (!picked) return std::nullopt;
  pickedIndex_.reset();
  const PointCloud& cloud = cloud_.cloud();
  if (cloud_.set() && picked->location.set == *cloud_.set() && picked->sourceIndex &&
      *picked->sourceIndex < cloud.size()) {
    // The file's own point: double coordinates, and the index finds its attributes.
    pickedIndex_ = *picked->sourceIndex;
    const Point& p = cloud.points[*pickedIndex_];
    pickedPosition_ = cloud.origin + glm::dvec3(p.x, p.y, p.z);
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
