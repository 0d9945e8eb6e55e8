// The viewer's loaded files: queued on the background loader, shown growing while each one is
// read (a preview of its decoded prefix), merged as each one finishes, coloured from the host
// copy (so switching colour modes loses nothing), and framed.
#include <cstdio>

#include "pcv/core/camera_framing.hpp"
#include "pcv/scene/cylinders.hpp"
#include "viewer/viewer_window.hpp"

namespace pcv::app {

void ViewerWindow::openFiles(const std::vector<std::string>& files, bool replace) {
  if (files.empty()) return;
  if (!loader_) loader_ = std::make_unique<CloudLoader>();
  if (replace) autoFrame_ = true;  // a new scene: show it whole as it arrives
  for (const std::string& file : files) std::fprintf(stderr, "pcv: loading %s\n", file.c_str());
  loader_->load(files, replace, readOptions_);
}

bool ViewerWindow::waitingForLoad() const {
  return loader_ && loader_->busy();
}

void ViewerWindow::takeLoadedFiles() {
  if (!loader_) return;
  std::vector<LoadedFile> finished = loader_->takeFinished();
  if (finished.empty()) return;
  // Whatever happened to the file being previewed, the scene below replaces its preview.
  preview_ = PointCloud{};
  previewSerial_ = 0;
  bool changed = false;
  for (LoadedFile& file : finished) {
    if (file.cancelled) {
      std::fprintf(stderr, "pcv: %s\n", file.error.c_str());
      continue;
    }
    if (!file.error.empty()) {
      // The scene keeps what it had: a bad file costs only itself.
      showError(file.error);
      continue;
    }
    std::fprintf(stderr, "pcv: loaded %s: %llu points in %.3f s\n", file.path.c_str(),
                 static_cast<unsigned long long>(file.cloud.size()), file.seconds);
    if (file.replaces || !haveCloud_) {
      cloud_ = std::move(file.cloud);
      cloudFiles_.clear();
    } else {
      appendPointCloud(cloud_, file.cloud);
    }
    cloudFiles_.push_back(file.path);
    haveCloud_ = true;
    pickedIndex_.reset();
    changed = true;
  }
  if (!changed) {
    // A failed or cancelled file leaves the scene as it was, without its partial preview.
    if (previewShown_ && haveCloud_) recolor();
    if (previewShown_ && !haveCloud_) {
      if (options_.files.empty()) {
        backend_->generateCylinders(makeCylinderScene(options_.seed), options_.pointCount);
      } else {
        backend_->setPoints({});
      }
      shownOrigin_ = glm::dvec3(0.0);
      previewShown_ = false;
    }
    return;
  }
  cloudBounds_ = cloud_.worldBounds();
  // --edl auto: eye-dome lighting shades clouds without colour of their own.
  if (options_.edlAuto) settings_.quality.edl = !cloud_.hasColor;
  recolor();
  if (autoFrame_) frameCloud();
}

void ViewerWindow::takeLoadPreview() {
  if (!loader_) return;
  std::optional<LoadPreview> update = loader_->takePreview();
  if (!update || update->points.empty()) return;
  if (update->fileSerial != previewSerial_) {
    preview_ = PointCloud{};
    preview_.origin = update->origin;
    preview_.hasColor = update->hasColor;
    previewSerial_ = update->fileSerial;
    previewReplaces_ = update->replaces;
  }
  if (update->firstPoint != preview_.points.size()) return;  // not this prefix's continuation
  preview_.points.insert(preview_.points.end(), update->points.begin(), update->points.end());
  std::fprintf(stderr, "pcv: showing %llu points of %s so far\n",
               static_cast<unsigned long long>(preview_.size()), update->path.c_str());
  showPreview();
}

void ViewerWindow::showPreview() {
  // The growing file joins the files already loaded, unless it replaces them. The merge copies
  // positions and colours only (no attributes), so it costs about one upload's worth of memory.
  PointCloud merged;
  const bool alone = previewReplaces_ || !haveCloud_;
  if (!alone) {
    merged.origin = cloud_.origin;
    merged.hasColor = cloud_.hasColor;
    merged.points = cloud_.points;
    appendPointCloud(merged, preview_);
  }
  const PointCloud& shownCloud = alone ? preview_ : merged;
  if (shownCloud.size() > kMaxPointCount) return;  // the finished file will say so
  // Rgb: the file's own colours, or elevation when it has none (the preview has no attributes
  // for the other modes; the finished file gets the chosen colouring).
  UninitializedVector<Point> shown;
  coloredPoints(shownCloud, ColoringOptions{}, shown);
  try {
    backend_->setPoints(shown);
  } catch (const Error&) {
    return;  // out of device memory for a preview: the finished file reports it
  }
  shownOrigin_ = shownCloud.origin;
  previewShown_ = true;
  if (autoFrame_) frameOn(shownCloud.worldBounds());
}

void ViewerWindow::recolor() {
  if (!haveCloud_) return;
  UninitializedVector<Point> shown;
  try {
    usedColoring_ = coloredPoints(cloud_, coloring_, shown);
  } catch (const InputError& error) {
    // An attribute this cloud lacks (--color-attribute, or a file without it): say so, show rgb.
    showError(error.what());
    coloring_ = ColoringOptions{};
    usedColoring_ = coloredPoints(cloud_, coloring_, shown);
  }
  if (cloud_.size() > kMaxPointCount) {
    showError("the scene has " + std::to_string(cloud_.size()) +
              " points; a backend holds at most " + std::to_string(kMaxPointCount));
    return;
  }
  try {
    backend_->setPoints(shown);
  } catch (const Error& error) {
    showError(error.what());
    return;
  }
  shownOrigin_ = cloud_.origin;
  previewShown_ = false;
  std::fprintf(stderr, "pcv: %llu points coloured by %s%s%s\n",
               static_cast<unsigned long long>(cloud_.size()),
               colorModeName(usedColoring_.mode).c_str(),
               usedColoring_.attribute.empty() ? "" : " ", usedColoring_.attribute.c_str());
}

void ViewerWindow::frameCloud() {
  if (haveCloud_) frameOn(cloudBounds_);
}

void ViewerWindow::frameOn(const Box3d& worldBounds) {
  const float aspect = framebufferHeightPx_ > 0
                           ? float(framebufferWidthPx_) / float(framebufferHeightPx_)
                           : float(options_.widthPx) / float(options_.heightPx);
  camera_ = frameBounds(worldBounds, aspect, {}, camera_);
  // Cross the scene in about five seconds, whatever its units.
  fly_.setSpeedUnitsPerSecond(std::max(1e-3, worldBounds.diagonal() / 5.0));
  orbit_.attach(camera_, glm::length(worldBounds.center() - camera_.eye));
  const glm::dvec3& eye = camera_.eye;
  std::fprintf(stderr,
               "pcv: framed %.3f x %.3f x %.3f; eye (%.3f, %.3f, %.3f), near %.4g far %.4g\n",
               worldBounds.size().x, worldBounds.size().y, worldBounds.size().z, eye.x, eye.y,
               eye.z, double(camera_.nearPlane), double(camera_.farPlane));
}

void ViewerWindow::showError(const std::string& message) {
  std::fprintf(stderr, "pcv: error: %s\n", message.c_str());
  errors_.push_back(message);
}

}  // namespace pcv::app
