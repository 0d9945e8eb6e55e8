/// @brief A scene opened while frames run, for an interactive front end (the viewer): the parts
/// Scene is made of (SceneParts, which the front end reads), made as files arrive. The model keeps
/// what is asynchronous or remembered between frames: the cylinders' layout thread, the planning of
/// what is opened (SceneOpening: prepareScene under the limits it was given, so Open and drop
/// stream and use the COPC cache as `pcv view FILE` does), the files read whole (WholeFileFeed:
/// the background loader and its preview), the colouring and the picked point; it says what it
/// does, warnings and errors through its SessionReport, as Scene does. No window and no GL:
/// tested on its own.
#pragma once

#include <future>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/scene_opening.hpp"
#include "pcv/session/scene_parts.hpp"
#include "pcv/session/scene_sources.hpp"
#include "pcv/session/session_report.hpp"
#include "pcv/session/stream_limits.hpp"
#include "pcv/session/whole_file_feed.hpp"

namespace pcv {

/// The colouring asked for, and the one in effect (its map, range and classes, and why it
/// differs from the asked).
struct SceneColoring {
  ColoringOptions asked;
  Coloring used;
};

class SceneModel {
 public:
  /// `renderer` must outlive the model; the model owns the sets it adds to it. `limits` are the
  /// front end's (--memory, --in-core, --point-budget ...): what opens streamed, from the COPC
  /// cache or whole is planned under them (planScene). `report` hears what is loaded, streamed
  /// and coloured, the files' warnings (a count that disagrees, colours that say nothing) and
  /// the errors to show (a file that failed, an attribute a file lacks), each once. Tile boxes
  /// are drawn until setTileBoxes(false).
  SceneModel(Renderer& renderer, const DemoCylinders& demo, const ColoringOptions& coloring,
             const StreamLimits& limits = {}, SessionReport report = {});
  ~SceneModel();
  SceneModel(const SceneModel&) = delete;
  SceneModel& operator=(const SceneModel&) = delete;

  /// What is shown: the cylinders, the files read whole and the one being read, a stream and its
  /// tile boxes; what a frame draws and where, their files, bounds and attributes. While
  /// preparing(), ask nothing of the renderer through them (points drawn, a pick).
  const SceneParts& parts() const { return parts_; }
  /// The stream shown, to tune (its point budget); null for other scenes.
  StreamPart* stream() { return parts_.stream.get(); }

  /// Shows the cylinder scene (nothing is loaded). Its points are laid out on a thread of their
  /// own (10 M points take seconds on the CPU backend), so the window draws meanwhile; poll()
  /// shows them once they are ready.
  void showDemo();
  /// True while the cylinders are being laid out. The renderer is busy on that thread then: the
  /// caller draws nothing with it (and the model picks nothing) until this is false.
  bool preparing() const;
  /// Opens `files`. With `replace` they replace the scene as planScene decides under the
  /// limits: a COPC file streams at once; a dataset (a folder, a .vpc, several tiles of which one
  /// is COPC or too many to read whole) streams as one forest, and LAS/LAZ files too large for
  /// memory stream from their COPC cache (converted first when missing): both planned on a
  /// thread (opening()) while the scene shown stays; the rest is read whole on the
  /// background loader. Without `replace` they are read whole and added (beside a stream too, in
  /// the renderer's memory outside its reserved pool). `options`: what to read of each.
  void open(const std::vector<std::string>& files, bool replace, const ReadOptions& options = {});
  /// Files being planned (a dataset's headers, a COPC cache converted), for a progress line.
  const SceneOpening* opening() const { return opening_.get(); }
  /// Waits until the cylinders are laid out and files being planned are ready (or failed), and
  /// shows them (tests).
  void wait();
  /// Takes what the threads and the loader finished or decoded since the last call and updates
  /// the renderer. Returns the world bounds of what is shown when it changed (for framing).
  std::optional<Box3d> poll();
  /// True while files are planned, queued, being read, or read but not yet taken by poll();
  /// for a stream, until the view's nodes are resident.
  bool loading() const;
  /// The background loader (progress, the file being read, cancel); null before any file is read
  /// whole.
  CloudLoader* loader() { return files_.loader(); }
  /// One frame's choice of streamed nodes for a width x height view through `camera`; a stream
  /// that fails stops, with an error. Call before drawing the frame.
  void updateStream(const Camera& camera, int widthPx, int heightPx);
  /// Stops the stream and gives its reserved pool back; the files beside it stay shown, in the
  /// same view origin.
  void closeStream();
  /// Removes the files read whole (and cancels one being read); a stream stays as it is.
  void removeFiles();

  /// SceneParts::setTileBoxes; boxes the renderer cannot take are an error.
  void setTileBoxes(bool shown);
  /// The files read whole carry what point filters read (ColouredCloud::setFilterData), with
  /// `rangeAttribute`'s values (may be empty); streams carry it as the limits say.
  void keepFilterData(bool keep, const std::string& rangeAttribute = {});
  /// Recolours the files (a stream opens again); an attribute they lack: rgb, with an error.
  void setColoring(const ColoringOptions& coloring);
  /// Shows the points as `edits` change them (in order, from the classes and flags the files
  /// hold): the files read whole are laid out again; a stream's resident nodes that the changed
  /// edits may reach are decoded again with every edit applied, each drawn as it was until
  /// its new points replace it (nodes decoded later get the edits too); withheld points are
  /// never drawn. Files read later get them too; a scene
  /// that replaces this one starts without. An edit whose filter reads an attribute the points
  /// lack is an error said through the report, and the edits are not shown. The highlight
  /// (setHighlight) is cleared.
  void setEdits(std::vector<PointEdit> edits);
  const std::vector<PointEdit>& edits() const { return edits_; }
  /// setEdits(edits() and `edit`), the files read whole changing only by `edit`.
  void pushEdit(PointEdit edit);
  /// setEdits(edits() without the last), the files read whole changing back only where the
  /// last edit changed them when they kept what it changed (ColoredCloud::undoLastEdit). The
  /// highlight is cleared.
  void undoLastEdit();
  /// Draws the points that `selection` holds highlighted (a selection before its action): in
  /// the files read whole, colours replaced in place; in a stream, its nodes that the old or the
  /// new selection may reach decoded again with the highlight and swapped in when ready (nodes
  /// decoded later get it too). Empty: none.
  void setHighlight(std::optional<PointSelection> selection);
  /// The files now hold the edits shown (saved in place): the files read whole keep what they
  /// show, a stream opens its files again (their chunks moved), and there are no edits.
  void editsSaved();
  /// Changes each time the edits shown change (setEdits, editsSaved): what was counted of the
  /// points' classes before is stale.
  uint64_t editsVersion() const { return editsVersion_; }
  /// Changes each time open() replaces the scene (its edits dropped).
  uint64_t generation() const { return generation_; }
  const SceneColoring& coloring() const { return coloring_; }
  /// SceneParts::shownBounds, and the cylinders' while they are laid out.
  Box3d shownBounds() const;

  /// The point drawn at pixel (x, y) of the width x height frame `settings` draw through
  /// `camera` (SceneParts::pick), remembered as picked() when there is one.
  std::optional<glm::dvec3> pick(const Camera& camera, const RenderSettings& settings, int width,
                                 int height, int xPx, int yPx);
  /// The last point picked; its index in the files read whole is dropped when they change.
  const std::optional<PickedWorldPoint>& picked() const { return picked_; }

 private:
  void waitUntilPrepared();
  void takePreparedDemo();
  void finishOpening();
  /// Takes the files the loader finished; true when any was added (then recoloured).
  bool takeFinishedFiles();
  /// Replaces the scene with the stream `plan` names; false, with the error said, when it fails.
  bool openStream(const ScenePlan& plan, const ReadOptions& read,
                  std::shared_ptr<const ForestNodeSource> forest = nullptr);
  /// Opens the stream beside what is shown (recolouring restarts the stream alone).
  bool startStream(const ScenePlan& plan, const ReadOptions& read,
                   std::shared_ptr<const ForestNodeSource> forest);
  void recolor();
  /// Opens the stream again from its plan (coloured, edited as asked now), the view kept; with
  /// `readAgain` its files' hierarchies are read again (they were rewritten), not reused.
  void reopenStream(bool readAgain = false);
  /// Shows edits_ in the stream, its nodes that the edits since `before` may reach decoded
  /// again and swapped in when ready (the view stays drawn: the stream is not opened again).
  void showEditsInStream(std::span<const PointEdit> before);
  /// Shows the files read whole with their points' classes and flags as they are now.
  void showFilesAsTheyAre();
  /// Drops the highlight (the selection shown was acted on); returns the points of the files
  /// read whole it held, ascending.
  std::vector<uint64_t> dropHighlight();
  /// Shows the files read whole after an edit was made or taken back that changed the points
  /// `changed` (ascending), with the points `wasHighlighted` no longer highlighted: only those
  /// drawn again for a change of classes alone, the set laid out again otherwise.
  void showEditedPoints(bool classesOnly, std::span<const uint64_t> changed,
                        const std::vector<uint64_t>& wasHighlighted);
  void backToCylinders();  // when the viewer started on them and nothing else is shown

  Renderer& renderer_;
  StreamLimits limits_;
  SessionReport report_;
  SceneColoring coloring_;
  std::vector<PointEdit> edits_;  ///< shown on the files read whole and the stream
  uint64_t generation_ = 0;
  uint64_t editsVersion_ = 0;
  bool demoWhenEmpty_ = false;  // the viewer started on the cylinders: back to them, not black
  bool streamFramed_ = false;   // poll() returned the stream's bounds once

  // What is asynchronous: the cylinders' layout, files planned, files read whole (after parts_,
  // which they feed).
  std::future<std::unique_ptr<CylindersPart>> preparedCylinders_;
  std::unique_ptr<SceneOpening> opening_;

  SceneParts parts_;  // what is shown
  WholeFileFeed files_;
  std::optional<PickedWorldPoint> picked_;
};

}  // namespace pcv
