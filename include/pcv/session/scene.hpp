/// @brief A scene opened on a renderer at once, whatever its sources: made of the parts every
/// front end composes (SceneParts: cylinders, files read whole, a stream, tile boxes) from one
/// ScenePlan.
/// `pcv render`, `pcv bench` and the bindings open scenes here; the viewer's SceneModel makes the
/// same parts as its files arrive.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/scene_parts.hpp"
#include "pcv/session/scene_sources.hpp"
#include "pcv/session/session_report.hpp"
#include "pcv/session/stream_limits.hpp"
#include "pcv/stream/streamed_cloud.hpp"

namespace pcv {

struct SceneOptions {
  ReadOptions read;          ///< what to read of each file (an E57 scan ...)
  ColoringOptions coloring;  ///< how files are coloured
  StreamLimits stream;       ///< how much a streamed source may take; --in-core
  /// Converts LAS/LAZ `inputs` into the COPC file `output` for the cache (a front end's `pcv
  /// convert`, with its progress and Ctrl+C handling). Empty: a missing cache is an InputError.
  std::function<void(const std::vector<std::string>& inputs, const std::string& output)>
      convertToCopc;
  SessionReport report;  ///< notes, warnings and progress for the user
  /// A dataset's tile boxes drawn as outlines (tile_boxes.hpp) with its points (--tile-boxes).
  bool tileBoxes = false;
};

/// planScene(), then the COPC cache made when the plan needs one that is missing (through
/// `options.convertToCopc`, its outdated versions removed). The plan returned has nothing
/// missing.
ScenePlan prepareScene(const SceneSources& sources, const SceneOptions& options);

/// A file a scene read whole, and the points it gave.
struct FileRead {
  std::string path;
  uint64_t points = 0;
  double seconds = 0.0;  ///< wall time of reading it into memory (decoded, not yet laid out)
};

/// A scene's point sets on one renderer; removes them when destroyed.
class Scene {
 public:
  /// Opens `plan` on `renderer` (which must outlive the scene, and is best created with
  /// plan.rendererOptions()): reads and merges the files, colours them and lays them out; or
  /// opens the stream (its root decoded); or lays out the cylinders. Throws InputError for bad
  /// files (file, byte offset, expectation) and a missing cache.
  Scene(const ScenePlan& plan, const SceneOptions& options, Renderer& renderer);
  ~Scene();
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  SceneKind kind() const { return plan_.kind; }
  const ScenePlan& plan() const { return plan_; }
  /// World bounds: of the points read, as the COPC file states them, or of the cylinders.
  const Box3d& worldBounds() const { return bounds_; }
  /// The origin the renderer's points are offsets from.
  const glm::dvec3& origin() const { return parts_.origin; }
  /// Colours came from the files (the cylinders have their own).
  bool hasColor() const { return hasColor_; }
  /// The colouring in effect (files; streamed nodes are coloured as they are decoded).
  const Coloring& coloring() const { return coloring_; }
  /// The files read whole, merged, with their own colours and attributes; empty otherwise.
  const PointCloud& cloud() const;
  /// The files read whole, in order, with their points (empty for a stream or the cylinders).
  const std::vector<FileRead>& filesRead() const { return filesRead_; }
  /// Points in the scene (a streamed file's total, not what is resident).
  uint64_t pointCount() const;
  /// The streamed cloud; null unless kind() is Streamed.
  StreamedCloud* streamed() { return parts_.stream ? &parts_.stream->cloud() : nullptr; }
  const StreamedCloud* streamed() const {
    return parts_.stream ? &parts_.stream->cloud() : nullptr;
  }

  /// One frame's choice for a width x height view through `camera`: the streamed nodes it draws
  /// (never waiting for a decode), or every set.
  SetSelection update(const Camera& camera, int widthPx, int heightPx);
  /// Every node the last update() wanted is drawn (always true in core).
  bool converged() const;
  /// Errors of streamed nodes that could not be decoded (each once).
  std::vector<std::string> takeErrors();
  /// Tiles read on demand that disagreed with the dataset's index or were skipped (each once).
  std::vector<std::string> takeWarnings();
  Renderer& renderer() { return renderer_; }
  /// Where the scene says what it does.
  const SessionReport& report() const { return options_.report; }

 private:
  void openCylinders();
  void openInCore();
  void openStreamed();
  void openProduced();

  ScenePlan plan_;
  SceneOptions options_;
  Renderer& renderer_;
  Box3d bounds_;
  std::vector<FileRead> filesRead_;
  bool hasColor_ = false;
  Coloring coloring_;
  SceneParts parts_{renderer_, plan_.demo};
  std::optional<PointSetId> produced_;  ///< points from a producer, one set
};

/// prepareScene() and the Scene on `renderer`, for a renderer made without the plan.
std::unique_ptr<Scene> openScene(const SceneSources& sources, const SceneOptions& options,
                                 Renderer& renderer);

}  // namespace pcv
