/// @brief A scene opened while frames run, for an interactive front end (the viewer): made of the
/// parts Scene is made of (SceneParts), it keeps what is asynchronous: the cylinders' layout
/// thread, the background loader, the planning of what is opened (SceneOpening: prepareScene under
/// the limits it was given, so Open and drop stream and use the COPC cache as `pcv view FILE`
/// does). No window and no GL, so it is tested on its own.
#pragma once

#include <future>
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
#include "pcv/session/cloud_loader.hpp"
#include "pcv/session/scene_opening.hpp"
#include "pcv/session/scene_parts.hpp"
#include "pcv/session/scene_sources.hpp"
#include "pcv/session/session_report.hpp"
#include "pcv/session/stream_limits.hpp"

namespace pcv {

class SceneModel {
 public:
  /// `renderer` must outlive the model; the model owns the sets it adds to it. `limits` are the
  /// front end's (--memory, --in-core, --point-budget ...): what opens streamed, from the COPC
  /// cache or whole is planned under them (planScene). `report` hears what is loaded, streamed
  /// and coloured.
  SceneModel(Renderer& renderer, const DemoScene& demo, const ColoringOptions& coloring,
             const StreamLimits& limits = {}, SessionReport report = {});
  ~SceneModel();
  SceneModel(const SceneModel&) = delete;
  SceneModel& operator=(const SceneModel&) = delete;

  /// Shows the cylinder scene (nothing is loaded). Its points are laid out on a thread of their
  /// own (10 M points take seconds on the CPU backend), so the window draws meanwhile; poll()
  /// shows them once they are ready.
  void showDemo();
  /// True while the cylinders are being laid out. The renderer is busy on that thread then: the
  /// caller draws nothing with it (and the model picks nothing) until this is false.
  bool preparing() const;
  /// Waits until the cylinders are ready and shows them (tests; closing the window).
  void waitUntilPrepared();
  const DemoScene& demo() const { return demo_; }
  /// The files read whole carry what point filters read (ColouredCloud::setFilterData), with
  /// `rangeAttribute`'s values (may be empty); streams carry it as the limits say.
  void keepFilterData(bool keep, const std::string& rangeAttribute = {}) {
    parts_.inCore.coloured().setFilterData(keep, rangeAttribute);
  }
  /// Opens `files`. With `replace` they replace the scene as planScene decides under the
  /// limits: a COPC file streams at once; a dataset (a folder, a .vpc, several tiles of which one
  /// is COPC or too many to read whole) streams as one forest, and LAS/LAZ files too large for
  /// memory stream from their COPC cache (converted first when missing): both planned on a
  /// thread (openingDataset() says how long so far) while the scene shown stays, until poll()
  /// finds them ready; the rest is read whole on the background loader. Without `replace`
  /// they are read whole and added (beside a stream too: shown as offsets from the stream's
  /// origin, in the renderer's memory outside its reserved pool). `options` says what to read
  /// of each (an E57 scan ...).
  void open(const std::vector<std::string>& files, bool replace, const ReadOptions& options = {});
  /// While files are planned (a dataset's headers, a COPC cache converted): their name and the
  /// seconds so far, for a progress line.
  struct DatasetOpeningProgress {
    std::string label;
    double seconds = 0.0;
  };
  std::optional<DatasetOpeningProgress> openingDataset() const;
  /// Waits until files being planned are ready (or failed) and shows them (tests, scripts).
  void waitUntilOpened();
  /// Stops the stream and gives its reserved pool back; the files beside it stay shown, in the
  /// same view origin.
  void closeStream();
  /// Removes the files read whole (and cancels one being read); a stream stays as it is.
  void removeFiles();
  /// One frame's choice of streamed nodes for a width x height view through `camera`
  /// (nothing to do for other scenes). Call before drawing the frame.
  void updateStream(const Camera& camera, int widthPx, int heightPx);
  /// What a frame draws: every set, or with a stream the nodes it chose and the sets of the
  /// files beside it. The listed ids live until the next call.
  SetSelection drawnSets() const { return parts_.drawnSets(); }
  /// Points that selection draws (count of points), for the status line.
  uint64_t pointsDrawn() const { return preparing() ? 0 : parts_.pointsDrawn(); }
  /// Draws the streamed dataset's tile boxes, or not; on by default. Nothing to draw for a COPC
  /// file or files read whole.
  void setTileBoxes(bool shown);
  bool tileBoxes() const { return tileBoxesShown_; }
  /// The streamed COPC file or dataset shown; null for other scenes.
  StreamPart* streamed() { return parts_.stream.get(); }
  const StreamPart* streamed() const { return parts_.stream.get(); }
  /// Takes what the loader finished or decoded since the last call and updates the renderer.
  /// Returns the world bounds of what is shown when it changed (for framing), else empty.
  std::optional<Box3d> poll();
  /// True while files are planned, queued, being read, or read but not yet taken by poll();
  /// for a stream, until the view's nodes are resident.
  bool loading() const;
  /// The background loader (progress, the file being read, cancel); null before any file is read
  /// whole.
  CloudLoader* loader() { return loader_.get(); }

  /// Recolours the loaded files; an attribute they lack falls back to rgb with an error.
  void setColoring(const ColoringOptions& coloring);
  const ColoringOptions& coloring() const { return coloring_; }
  /// The colouring in effect (its map, range and classes, and why it differs from the asked).
  const Coloring& usedColoring() const { return usedColoring_; }

  /// Whether files are shown, loaded or streamed (else the cylinders, or nothing while the
  /// first file loads).
  bool hasCloud() const { return parts_.inCore.holds() || parts_.stream; }
  /// What the Colour menu offers to colour by: the files' attributes (loaded or streamed), and
  /// x, y, z.
  std::vector<std::string> colorableAttributes() const { return parts_.colorableAttributes(); }
  /// The files read whole, merged (the streamed file is not among them), in their own origin.
  const PointCloud& cloud() const { return parts_.inCore.cloud(); }
  /// The files shown: the streamed one first, then those read whole.
  std::vector<std::string> files() const { return parts_.files(); }
  /// The files read whole (not the streamed one).
  const std::vector<std::string>& inCoreFiles() const { return parts_.inCore.files(); }
  /// World bounds of the files shown: the stream's stated bounds and the loaded files'.
  Box3d bounds() const { return parts_.filesBounds(); }
  /// World bounds of what is shown: the files (and the one loading), or the cylinders.
  Box3d shownBounds() const;
  /// Names the scene shown, for its bookmarks: the files' absolute paths, or the cylinders with
  /// their point count and seed.
  std::string sceneKey() const { return parts_.key(demo_); }
  /// The origin the renderer's points are offsets from.
  const glm::dvec3& shownOrigin() const { return parts_.origin; }

  /// The world position of the point drawn at pixel (x, y) (row 0 at the bottom; or the nearest
  /// drawn within two pixels) of the width x height frame `settings` draw through `camera`,
  /// from the renderer's own depth pass; remembers it for pickedIndex(). Loaded files give the
  /// file's double coordinates (and pickedIndex() their attributes); the cylinders and a
  /// streamed node their stored point (no index: a node keeps no attributes on the host).
  std::optional<glm::dvec3> pick(const Camera& camera, const RenderSettings& settings, int width,
                                 int height, int xPx, int yPx);
  /// The picked point's index in cloud() (after a pick on loaded files).
  std::optional<uint64_t> pickedIndex() const { return pickedIndex_; }
  /// The last picked point's world position.
  std::optional<glm::dvec3> pickedPosition() const { return pickedPosition_; }

  /// Errors to show (a file that failed, an attribute a file lacks); taken once.
  std::vector<std::string> takeErrors();
  /// Warnings of the files read so far (a count that disagrees, colours that say nothing).
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  void takePreparedDemo();
  void readWhole(const std::vector<std::string>& files, bool replace, const ReadOptions& options);
  void finishOpening();
  bool takeFinished();
  std::optional<Box3d> takePreview(const LoadPreview& update);
  /// Replaces the scene with the stream `plan` names (its forest when opened already); false,
  /// with the error kept, when it cannot be opened.
  bool openStream(const ScenePlan& plan, const ReadOptions& read,
                  std::shared_ptr<const ForestNodeSource> forest = nullptr);
  /// Opens the stream beside what is shown (openStream removes that first; recolouring restarts
  /// the stream alone).
  bool startStream(const ScenePlan& plan, const ReadOptions& read,
                   std::shared_ptr<const ForestNodeSource> forest);
  void showTileBoxes();
  void cancelLoading();
  void recolor();
  /// The cylinders come back when the viewer started on them and nothing else is shown.
  void backToCylinders();

  Renderer& renderer_;
  DemoScene demo_;
  StreamLimits limits_;
  SessionReport report_;
  ColoringOptions coloring_;
  Coloring usedColoring_;
  bool demoWhenEmpty_ = false;  // the viewer started on the cylinders: back to them, not black

  // What is asynchronous: the cylinders' layout, files planned, files read whole.
  std::future<std::unique_ptr<CylindersPart>> preparedCylinders_;
  std::unique_ptr<SceneOpening> opening_;
  std::unique_ptr<CloudLoader> loader_;

  SceneParts parts_{renderer_};  // what is shown
  bool tileBoxesShown_ = true;
  bool streamFramed_ = false;  // poll() returned the stream's bounds once

  std::optional<uint64_t> pickedIndex_;
  std::optional<glm::dvec3> pickedPosition_;
  std::vector<std::string> errors_;
  std::vector<std::string> warnings_;
};

}  // namespace pcv
