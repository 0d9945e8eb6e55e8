// The viewer's loaded files: queued on the background loader, merged as each one finishes,
// coloured from the host copy (so switching colour modes loses nothing), and framed.
#include <cstdio>

#include "pcv/core/camera_framing.hpp"
#include "viewer/viewer_window.hpp"

namespace pcv::app {

void ViewerWindow::openFiles(const std::vector<std::string>& files, bool replace) {
  if (files.empty()) return;
  if (!loader_) loader_ = std::make_unique<CloudLoader>();
  if (replace) autoFrame_ = true;  // a new scene: show it whole as it arrives
  for (const std::string& file : files) std::fprintf(stderr, "pcv: loading %s\n", file.c_str());
  loader_->load(files, replace);
}

bool ViewerWindow::waitingForLoad() const {
  return loader_ && loader_->busy();
}

void ViewerWindow::takeLoadedFiles() {
  if (!loader_) return;
  std::vector<LoadedFile> finished = loader_->takeFinished();
  if (finished.empty()) return;
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
  if (!changed) return;
  cloudBounds_ = cloud_.worldBounds();
  // --edl auto: eye-dome lighting shades clouds without colour of their own.
  if (options_.edlAuto) settings_.quality.edl = !cloud_.hasColor;
  recolor();
  if (autoFrame_) frameCloud();
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
  std::fprintf(stderr, "pcv: %llu points coloured by %s%s%s\n",
               static_cast<unsigned long long>(cloud_.size()),
               colorModeName(usedColoring_.mode).c_str(),
               usedColoring_.attribute.empty() ? "" : " ", usedColoring_.attribute.c_str());
}

void ViewerWindow::frameCloud() {
  if (!haveCloud_) return;
  const float aspect = framebufferHeightPx_ > 0
                           ? float(framebufferWidthPx_) / float(framebufferHeightPx_)
                           : float(options_.widthPx) / float(options_.heightPx);
  camera_ = frameBounds(cloudBounds_, aspect, {}, camera_);
  // Cross the scene in about five seconds, whatever its units.
  fly_.setSpeedUnitsPerSecond(std::max(1e-3, cloudBounds_.diagonal() / 5.0));
  orbit_.attach(camera_, glm::length(cloudBounds_.center() - camera_.eye));
  const glm::dvec3& eye = camera_.eye;
  std::fprintf(stderr,
               "pcv: framed %.3f x %.3f x %.3f; eye (%.3f, %.3f, %.3f), near %.4g far %.4g\n",
               cloudBounds_.size().x, cloudBounds_.size().y, cloudBounds_.size().z, eye.x, eye.y,
               eye.z, double(camera_.nearPlane), double(camera_.farPlane));
}

void ViewerWindow::showError(const std::string& message) {
  std::fprintf(stderr, "pcv: error: %s\n", message.c_str());
  errors_.push_back(message);
}

}  // namespace pcv::app
