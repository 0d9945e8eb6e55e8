// The viewer's scene: files queued on the background loader, shown growing while each one is read
// (a preview of its decoded prefix), merged as each one finishes, coloured from the host copy.
#include "viewer/scene_model.hpp"

#include <cstdio>

#include "pcv/raster/view_setup.hpp"
#include "pcv/scene/cylinder_producer.hpp"
#include "viewer/point_picker.hpp"

namespace pcv::app {

SceneModel::SceneModel(Renderer& renderer, const DemoScene& demo, const ColoringOptions& coloring)
    : renderer_(renderer), demo_(demo), coloring_(coloring) {}

SceneModel::~SceneModel() {
  loader_.reset();  // cancels a load in progress and joins its thread
  removeShown();
}

void SceneModel::removeShown() {
  if (demoSet_) renderer_.removeSet(*demoSet_);
  if (cloudSet_) renderer_.removeSet(*cloudSet_);
  demoSet_.reset();
  cloudSet_.reset();
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
  removeShown();
  demoSet_ = renderer_.addSet(CylinderProducer(makeCylinderScene(demo_.seed), demo_.pointCount));
  shownOrigin_ = glm::dvec3(0.0);
  demoWhenEmpty_ = true;
  demoPoints_.clear();
}

void SceneModel::open(const std::vector<std::string>& files, bool replace,
                      const ReadOptions& options) {
  if (files.empty()) return;
  if (!loader_) loader_ = std::make_unique<CloudLoader>();
  for (const std::string& file : files) std::fprintf(stderr, "pcv: loading %s\n", file.c_str());
  loader_->load(files, replace, options);
}

bool SceneModel::loading() const {
  return loader_ && loader_->busy();
}

std::optional<Box3d> SceneModel::poll() {
  if (!loader_) return std::nullopt;
  // Finished files first: a finished file drops its own preview.
  if (takeFinished()) return bounds_;
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
      std::fprintf(stderr, "pcv: warning: %s\n", warning.c_str());
      warnings_.push_back(warning);
    }
    if (file.cancelled) {
      std::fprintf(stderr, "pcv: %s\n", file.error.c_str());
      continue;
    }
    if (!file.error.empty()) {
      // The scene keeps what it had: a bad file costs only itself.
      std::fprintf(stderr, "pcv: error: %s\n", file.error.c_str());
      errors_.push_back(file.error);
      continue;
    }
    std::fprintf(stderr, "pcv: loaded %s: %llu points in %.3f s\n", file.path.c_str(),
                 static_cast<unsigned long long>(file.cloud.size()), file.seconds);
    if (file.replaces || !haveCloud_) {
      cloud_ = std::move(file.cloud);
      files_.clear();
      bounds_ = file.worldBounds;
    } else {
      appendPointCloud(cloud_, file.cloud);
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
    if (!cloudSet_) recolor();  // a file that would have replaced them failed
  } else if (demoWhenEmpty_ && !demoSet_) {
    showDemo();  // a file that replaced the cylinders failed: they come back
  }
  return changed;
}

std::optional<Box3d> SceneModel::takePreview(const LoadPreview& update) {
  if (update.fileSerial != previewSerial_) {
    dropPreview();
    previewSerial_ = update.fileSerial;
    if (update.replaces || !haveCloud_) {
      // The file replaces what is shown: its points alone, in its own origin.
      if (demoSet_) renderer_.removeSet(*demoSet_);
      if (cloudSet_) renderer_.removeSet(*cloudSet_);
      demoSet_.reset();
      cloudSet_.reset();
      shownOrigin_ = update.origin;
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
  std::fprintf(stderr, "pcv: showing %llu points of %s so far\n",
               static_cast<unsigned long long>(previewPoints_), update.path.c_str());
  Box3d shownBounds = previewBounds_;
  if (cloudSet_) shownBounds.extend(bounds_);
  return shownBounds;
}

void SceneModel::setColoring(const ColoringOptions& coloring) {
  coloring_ = coloring;
  recolor();
}

void SceneModel::recolor() {
  if (!haveCloud_) return;
  UninitializedVector<Point> coloured;
  try {
    usedColoring_ = coloredPoints(cloud_, coloring_, coloured);
  } catch (const InputError& error) {
    // An attribute this cloud lacks (--color-attribute, or a file without it): say so, show rgb.
    errors_.push_back(error.what());
    coloring_ = ColoringOptions{};
    usedColoring_ = coloredPoints(cloud_, coloring_, coloured);
  }
  // Everything goes first: with no set left the renderer frees its pool, so the new set is laid
  // out in memory of exactly its size.
  removeShown();
  try {
    cloudSet_ = renderer_.addSet(coloured, {.hasColor = cloud_.hasColor});
  } catch (const Error& error) {
    errors_.push_back(error.what());
    return;
  }
  shownOrigin_ = cloud_.origin;
  std::fprintf(stderr, "pcv: %llu points coloured by %s%s%s\n",
               static_cast<unsigned long long>(cloud_.size()),
               colorModeName(usedColoring_.mode).c_str(),
               usedColoring_.attribute.empty() ? "" : " ", usedColoring_.attribute.c_str());
}

std::optional<glm::dvec3> SceneModel::pick(const Camera& camera, int width, int height, int xPx,
                                           int yPx) {
  const ViewTransform view = makeViewTransform(camera, width, height, shownOrigin_);
  if (haveCloud_) {
    // The host copy in file order: the index also finds the point's attributes for the panel.
    pickedIndex_ = pickPointIndex(cloud_.points, view, xPx, yPx);
    if (!pickedIndex_) return std::nullopt;
    const Point& p = cloud_.points[*pickedIndex_];
    return cloud_.origin + glm::dvec3(p.x, p.y, p.z);
  }
  if (!demoSet_) return std::nullopt;
  if (demoPoints_.empty()) demoPoints_ = renderer_.downloadPoints(*demoSet_);
  const std::optional<glm::dvec3> offset = pickPoint(demoPoints_, view, xPx, yPx);
  if (!offset) return std::nullopt;
  return shownOrigin_ + *offset;
}

std::vector<std::string> SceneModel::takeErrors() {
  return std::exchange(errors_, {});
}

}  // namespace pcv::app
