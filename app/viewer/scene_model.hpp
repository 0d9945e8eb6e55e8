/// @brief What the viewer shows, apart from how: the cylinder scene or the loaded files (merged,
/// their colours and attributes kept host-side so colour modes switch without loss), the growing
/// preview of the file being read, and the colouring. It loads files in the background and
/// keeps the renderer's point sets in step with what is shown. No window and no GL, so it is
/// tested on its own.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/raster/renderer.hpp"
#include "viewer/cloud_loader.hpp"

namespace pcv::app {

/// The seed's cylinders, shown while no file is.
struct DemoScene {
  uint64_t pointCount = 10'000'000;
  uint64_t seed = 1;
};

class SceneModel {
 public:
  /// `renderer` must outlive the model; the model owns the sets it adds to it.
  SceneModel(Renderer& renderer, const DemoScene& demo, const ColoringOptions& coloring);
  ~SceneModel();
  SceneModel(const SceneModel&) = delete;
  SceneModel& operator=(const SceneModel&) = delete;

  /// Shows the cylinder scene (nothing is loaded).
  void showDemo();
  /// Queues `files` on the background loader: with `replace` the first replaces the scene,
  /// otherwise all are added to it. `options` says what to read of each (an E57 scan ...).
  void open(const std::vector<std::string>& files, bool replace, const ReadOptions& options = {});
  /// Takes what the loader finished or decoded since the last call and updates the renderer.
  /// Returns the world bounds of what is shown when it changed (for framing), else empty.
  std::optional<Box3d> poll();
  /// True while a file is queued, being read, or read but not yet taken by poll().
  bool loading() const;
  /// The background loader (progress, the file being read, cancel); null before any open().
  CloudLoader* loader() { return loader_.get(); }

  /// Recolours the loaded files; an attribute they lack falls back to rgb with an error.
  void setColoring(const ColoringOptions& coloring);
  const ColoringOptions& coloring() const { return coloring_; }
  /// The colouring in effect (its map, range and classes, and why it differs from the asked).
  const Coloring& usedColoring() const { return usedColoring_; }

  /// Whether files are shown (else the cylinders, or nothing while the first file loads).
  bool hasCloud() const { return haveCloud_; }
  const PointCloud& cloud() const { return cloud_; }
  const std::vector<std::string>& files() const { return files_; }
  /// World bounds of the loaded files.
  const Box3d& bounds() const { return bounds_; }
  /// The origin the renderer's points are offsets from.
  const glm::dvec3& shownOrigin() const { return shownOrigin_; }

  /// The world position of the point drawn closest at pixel (x, y) (row 0 at the bottom) of a
  /// width x height view through `camera`; remembers it for pickedIndex().
  std::optional<glm::dvec3> pick(const Camera& camera, int width, int height, int xPx, int yPx);
  /// The picked point's index in cloud() (after a pick on loaded files).
  std::optional<uint64_t> pickedIndex() const { return pickedIndex_; }

  /// Errors to show (a file that failed, an attribute a file lacks); taken once.
  std::vector<std::string> takeErrors();
  /// Warnings of the files read so far (a count that disagrees, colours that say nothing).
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  bool takeFinished();
  std::optional<Box3d> takePreview(const LoadPreview& update);
  void showPreviewPoints(std::span<const Point> points);
  void dropPreview();
  void recolor();
  void removeShown();

  Renderer& renderer_;
  DemoScene demo_;
  std::unique_ptr<CloudLoader> loader_;
  // The renderer's sets this model added: the cylinders, or the loaded files, and the preview's
  // pieces (each update's new points are a set of their own, so only they are uploaded).
  std::optional<PointSetId> demoSet_, cloudSet_;
  std::vector<PointSetId> previewSets_;
  bool demoWhenEmpty_ = false;  // the viewer started on the cylinders: back to them, not black

  PointCloud cloud_;  // the loaded files, merged; their own colours and attributes
  bool haveCloud_ = false;
  std::vector<std::string> files_;
  Box3d bounds_;
  ColoringOptions coloring_;
  Coloring usedColoring_;
  glm::dvec3 shownOrigin_{0.0};

  // The file being read, as far as it is decoded: shown beside the loaded files (or alone when it
  // replaces them) until the file itself arrives.
  uint64_t previewSerial_ = 0;  // LoadPreview::fileSerial of the preview shown; 0: none
  uint64_t previewPoints_ = 0;  // of that file, shown so far
  Box3d previewBounds_;         // their world bounds

  std::optional<uint64_t> pickedIndex_;
  std::vector<Point> demoPoints_;  // host copy of the cylinders, made at the first pick
  std::vector<std::string> errors_;
  std::vector<std::string> warnings_;
};

}  // namespace pcv::app
