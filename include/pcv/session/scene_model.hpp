/// @brief A scene opened while frames run, for an interactive front end (the viewer): the
/// cylinder scene or the loaded files (merged, their colours and attributes kept host-side so
/// colour modes switch without loss), the growing preview of the file being read (its decoded
/// prefixes), a COPC file streamed frame by frame (files may be added beside it), and the
/// colouring. It loads files in the
/// background and keeps the renderer's point sets in step with what is shown: the asynchronous
/// form of Scene and renderConverged. No window and no GL, so it is tested on its own.
#pragma once

#include <atomic>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/cloud_loader.hpp"
#include "pcv/session/coloured_cloud.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/session/scene_sources.hpp"
#include "pcv/session/session_report.hpp"
#include "pcv/session/streamed_scene.hpp"

namespace pcv {

class SceneModel {
 public:
  /// `renderer` must outlive the model; the model owns the sets it adds to it. `report` hears
  /// what is loaded, streamed and coloured.
  SceneModel(Renderer& renderer, const DemoScene& demo, const ColoringOptions& coloring,
             SessionReport report = {});
  ~SceneModel();
  SceneModel(const SceneModel&) = delete;
  SceneModel& operator=(const SceneModel&) = delete;

  /// Shows the cylinder scene (nothing is loaded). Its points are laid out on a thread of their
  /// own (10 M points take seconds on the CPU backend), so the window draws meanwhile; poll()
  /// shows them once they are ready.
  void showDemo();
  /// True while the cylinders are being laid out. The renderer is busy on that thread then: the
  /// caller draws nothing with it (and the model picks nothing) until this is false.
  bool preparing() const { return demoThread_.joinable() && !demoReady_.load(); }
  /// Waits until the cylinders are ready and shows them (tests; closing the window).
  void waitUntilPrepared();
  const DemoScene& demo() const { return demo_; }
  /// From now on a COPC file opened alone (replacing the scene) is streamed from its octree
  /// with `options`, instead of read whole; without a call every file is read whole.
  void streamCopcFiles(const StreamingOptions& options) { streaming_ = options; }
  /// The files read whole carry what point filters read (ColouredCloud::setFilterData), with
  /// `rangeAttribute`'s values (may be empty); streams carry it as their options say.
  void keepFilterData(bool keep, const std::string& rangeAttribute = {}) {
    cloud_.setFilterData(keep, rangeAttribute);
  }
  /// Queues `files` on the background loader: with `replace` the first replaces the scene,
  /// except a dataset (a folder, a .vpc, several tiles of which one is COPC or too many to read
  /// whole), which replaces the scene as one streamed forest of its tiles: its headers,
  /// hierarchies and overview are read on a thread of their own (openingDataset() says how
  /// long so far), the scene shown stays until poll() finds them read;
  /// otherwise all are added to it (beside a stream too: they are shown as offsets from the
  /// stream's origin, in the renderer's memory outside the stream's reserved pool). `options`
  /// says what to read of each (an E57 scan ...). A COPC file opened alone is streamed instead
  /// (see streamCopcFiles): it shows at once.
  void open(const std::vector<std::string>& files, bool replace, const ReadOptions& options = {});
  /// While a dataset opens: its name and the seconds so far, for a progress line.
  struct DatasetOpeningProgress {
    std::string label;
    double seconds = 0.0;
  };
  std::optional<DatasetOpeningProgress> openingDataset() const;
  /// Waits until a dataset being opened is read (or failed) and shows it (tests, scripts).
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
  SetSelection drawnSets() const;
  /// Points that selection draws (count of points), for the status line.
  uint64_t pointsDrawn() const;
  /// Draws the streamed dataset's tile boxes (tile_boxes.hpp), or not; on by default. Nothing
  /// to draw for a COPC file or files read whole.
  void setTileBoxes(bool shown);
  bool tileBoxes() const { return tileBoxes_; }
  /// The streamed COPC file or dataset shown; null for other scenes.
  StreamedScene* streamed() { return streamed_.get(); }
  const StreamedScene* streamed() const { return streamed_.get(); }
  /// Takes what the loader finished or decoded since the last call and updates the renderer.
  /// Returns the world bounds of what is shown when it changed (for framing), else empty.
  std::optional<Box3d> poll();
  /// True while a file is queued, being read, or read but not yet taken by poll(); for a
  /// streamed file, until the view's nodes are resident.
  bool loading() const;
  /// The background loader (progress, the file being read, cancel); null before any open().
  CloudLoader* loader() { return loader_.get(); }

  /// Recolours the loaded files; an attribute they lack falls back to rgb with an error.
  void setColoring(const ColoringOptions& coloring);
  const ColoringOptions& coloring() const { return coloring_; }
  /// The colouring in effect (its map, range and classes, and why it differs from the asked).
  const Coloring& usedColoring() const { return usedColoring_; }

  /// Whether files are shown, loaded or streamed (else the cylinders, or nothing while the
  /// first file loads).
  bool hasCloud() const { return haveCloud_ || streamed_; }
  /// What the Colour menu offers to colour by: the files' attributes (loaded or streamed), and
  /// x, y, z.
  std::vector<std::string> colorableAttributes() const;
  /// The files read whole, merged (the streamed file is not among them), in their own origin.
  const PointCloud& cloud() const { return cloud_.cloud(); }
  /// The files shown: the streamed one first, then those read whole.
  std::vector<std::string> files() const;
  /// The files read whole (not the streamed one).
  const std::vector<std::string>& inCoreFiles() const { return files_; }
  /// World bounds of the files shown: the stream's stated bounds and the loaded files'.
  Box3d bounds() const;
  /// World bounds of what is shown: the files (and the one loading), or the cylinders.
  Box3d shownBounds() const;
  /// Names the scene shown, for its bookmarks: the files' absolute paths, or the cylinders with
  /// their point count and seed.
  std::string sceneKey() const;
  /// The origin the renderer's points are offsets from.
  const glm::dvec3& shownOrigin() const { return shownOrigin_; }

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
  bool takeFinished();
  std::optional<Box3d> takePreview(const LoadPreview& update);
  void showPreviewPoints(std::span<const Point> points);
  void dropPreview();
  void recolor();
  void removeShown();
  /// The cylinders, the loaded files' set and the preview (not the stream).
  void removeInCore();
  void takePreparedDemo();
  /// False, with the error kept, when the file cannot be streamed.
  /// What a stream is opened from: a COPC file's path, or a dataset's tiles (path its label).
  struct StreamSource {
    std::string path;
    std::shared_ptr<const TileSet> tiles;
    std::shared_ptr<const ForestNodeSource> forest;  ///< the tiles' forest, once opened
  };
  /// A dataset's headers and forest, read on a thread of their own (scene_model.cpp).
  struct DatasetOpening;
  /// Shows what a finished opening read: the stream, or the files read whole.
  void finishOpening();
  /// Waits for an opening in progress and forgets it (a newer open replaces it).
  void abandonOpening();
  bool openStreamed(const StreamSource& source, const ReadOptions& options);
  /// Opens the stream beside what is shown (openStreamed removes that first; recolouring
  /// restarts the stream alone).
  bool startStream(const StreamSource& source, const ReadOptions& options);
  bool restartStream(const StreamSource& source, const ReadOptions& options);
  void closeStreamed();
  /// Starts opening `files` as a dataset when they name one (a folder, a .vpc, several tiles);
  /// false when they do not. Its faults come with poll(), once its thread has read it.
  bool openDataset(const std::vector<std::string>& files, const ReadOptions& options);
  void showTileBoxes();
  void hideTileBoxes();

  Renderer& renderer_;
  DemoScene demo_;
  std::unique_ptr<CloudLoader> loader_;
  // What this model added to the renderer: the cylinders (a Scene of their own), the loaded
  // files (cloud_), the streamed file (streamed_), and the preview's pieces (each update's new
  // points are a set of their own, so only they are uploaded).
  std::unique_ptr<Scene> cylinders_;
  std::vector<PointSetId> previewSets_;
  bool demoWhenEmpty_ = false;  // the viewer started on the cylinders: back to them, not black
  Box3d demoBounds_;            // the cylinders' world bounds
  // The cylinders' layout thread, their scene once done, and what it threw.
  std::thread demoThread_;
  std::atomic<bool> demoReady_{false};
  std::unique_ptr<Scene> preparedCylinders_;
  std::exception_ptr demoError_;

  ColouredCloud cloud_{renderer_};  // the loaded files, merged, and their set
  bool haveCloud_ = false;
  std::vector<std::string> files_;  // read whole
  Box3d bounds_;                    // of the files read whole
  ColoringOptions coloring_;
  Coloring usedColoring_;
  glm::dvec3 shownOrigin_{0.0};

  // The file being read, as far as it is decoded: shown beside the loaded files (or alone when it
  // replaces them) until the file itself arrives.
  uint64_t previewSerial_ = 0;  // LoadPreview::fileSerial of the preview shown; 0: none
  uint64_t previewPoints_ = 0;  // of that file, shown so far
  Box3d previewBounds_;         // their world bounds

  // A COPC file streamed from its octree (beside cloud_), and how streams are opened.
  std::optional<StreamingOptions> streaming_;
  std::unique_ptr<StreamedScene> streamed_;
  std::unique_ptr<DatasetOpening> opening_;
  ReadOptions streamedRead_;               // what it reads of each node (reopened to recolour)
  StreamSource streamedSource_;            // what it was opened from (reopened to recolour)
  bool tileBoxes_ = true;                  // a dataset's tile boxes are drawn
  std::optional<PointSetId> tileBoxSet_;   // and their set, while drawn
  bool streamedFramed_ = false;            // poll() returned its bounds once
  mutable std::vector<PointSetId> drawn_;  // what drawnSets() lists beside a stream

  std::optional<uint64_t> pickedIndex_;
  std::optional<glm::dvec3> pickedPosition_;
  std::vector<std::string> errors_;
  std::vector<std::string> warnings_;
  SessionReport report_;
};

}  // namespace pcv
