/// @brief The Edit tool: change the classes of points and delete (withhold) or restore them,
/// with unlimited undo and redo, and save the edits into the scene's LAS, LAZ and COPC files
/// (only what changed rewritten) or a copy. What an action changes is the selection: a brush
/// stroke painted on the view (K paints; every point under the brush that the clip region and
/// filters draw), everything the clip region and filters draw, or the points of a profile's
/// corridor above or below a line drawn in the Profile window. The scene shows the edits at
/// once (files read whole laid out again, a stream's nodes edited as they decode). Classify runs
/// pcv classify's ground and noise filters on the selection, with the airborne defaults in the
/// files' unit: on the points in memory of files read whole, and for a streamed scene on each
/// file's selected points, read and classified on a thread of their own (Cancel stops it) and
/// shown on the nodes once found. The edit log replays them with `pcv edit --apply`. Script
/// commands:
///   <seconds> edit_brush on|off                 (painting: a left drag paints a stroke)
///   <seconds> edit_radius <pixels>
///   <seconds> edit_stroke x0,y0 [x1,y1 ...]     (a stroke of dabs at window pixels)
///   <seconds> edit_select brush|shown|profile
///   <seconds> edit_set_class <0-255>
///   <seconds> edit_delete
///   <seconds> edit_restore
///   <seconds> edit_classify ground|noise|both  (the selection classified together; the script
///                                               waits for a streamed scene's)
///   <seconds> edit_undo
///   <seconds> edit_redo
///   <seconds> edit_save                         (in place; the script waits for it)
///   <seconds> edit_save_as <path>               (a file, or a folder for several)
///   <seconds> edit_log <path>                   (the edits applied, as JSON)
/// The run report's "edit" says what the history holds and what the last save did.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/brush_selection.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/session/edit_history.hpp"
#include "viewer/tools/edit/background_job.hpp"
#include "viewer/tools/edit/edit_saver.hpp"
#include "viewer/tools/tool_host.hpp"
#include "viewer/tools/viewer_tool.hpp"

namespace pcv::app {

/// What an action changes.
enum class EditTarget {
  Brush,        ///< the points under the stroke painted (in the clip region, passing the filters)
  Shown,        ///< every point the clip region and filters draw
  ProfileLine,  ///< the corridor's points above or below the line drawn in the Profile window
};

class EditTool final : public ViewerTool {
 public:
  explicit EditTool(ToolHost& host) : host_(host) {}

  bool onKey(const KeyEvent& event) override;
  bool onButton(const ButtonEvent& event) override;
  bool onCursor(const CursorEvent& event) override;
  /// The stroke being painted or the one painted; with none, leaves painting.
  bool cancel() override;
  const char* sectionTitle() const override { return "Edit"; }
  bool inUse() const override {
    return painting_ || stroke_.has_value() || history_.unsaved() || history_.canRedo() ||
           saver_.running() || classifier_.running();
  }
  void drawSection() override;
  void drawOverlay(const ScreenProjector& projector) override;
  void addScriptCommands(ScriptCommands& commands) override;
  void onFrame(double nowSeconds) override;
  /// Names "Save as" after the scene's first file (NAME-edited with its extension).
  void onSceneShown() override;
  void addToReport(nlohmann::json& report) const override;

 private:
  void setPainting(bool on);
  void beginStroke(glm::dvec2 atPx);
  void addDab(glm::dvec2 atPx);
  void endStroke();
  /// Applies `action` (with `classification` for SetClass) to the selection; false, said in
  /// the error window, when there is nothing to select.
  bool act(EditAction action, uint32_t classification = 0);
  /// The edit `action` makes of the selection, checked; empty, said, when there is nothing to
  /// select or the edit is bad.
  std::optional<PointEdit> selectionEdit(EditAction action, uint32_t classification = 0);
  /// Adds `edit` to the history and shows it; false when the scene could not (said).
  bool apply(PointEdit edit);
  /// Classifies the selection (ground and/or noise); false, said, where it cannot. A streamed
  /// scene's classes are found on a thread (classifier_), and applied when found.
  bool classify(bool ground, bool noise);
  /// Takes a classification that ended: applies its edit, or says why there is none.
  void finishClassify();
  /// False, said, while a save or a classification runs (the history must stay as they saw it).
  bool idle();
  void undo();
  void redo();
  /// Shows the history's edits on the scene.
  void showEdits();
  bool startSave(const EditSaveTarget& target);
  void writeLog(const std::string& path);
  /// Takes a save that ended: says it, and after a save in place the files hold the edits.
  void finishSave();
  /// Drops the history when the scene was replaced (its edits went with it).
  void followScene();
  /// The selection an action would change now, without its action; empty when there is none
  /// to show (no stroke, no profile line, or everything shown).
  std::optional<PointSelection> pendingSelection() const;
  /// Highlights the pending selection on the scene when it changed.
  void followSelection();

  ToolHost& host_;
  EditHistory history_;
  EditTarget target_ = EditTarget::Brush;
  int classChoice_ = 2;  ///< ground
  bool classifyGround_ = true, classifyNoise_ = true;
  ClassifySettings pendingClassify_;  ///< the next Classify edit's filters
  bool painting_ = false;
  double radiusPx_ = 24.0;
  // The stroke being painted (dragging_) or the last one painted (stroke_), with its view.
  bool dragging_ = false;
  std::vector<glm::dvec2> dabs_;
  Camera strokeCamera_;
  glm::dvec2 strokeWindow_{0.0};
  std::optional<BrushSelection> stroke_;
  uint64_t strokeNumber_ = 0;  ///< counts the strokes made: a new one is highlighted anew
  EditSaver saver_;
  /// A streamed scene's Classify edit with its classes found, or why there is none.
  struct ClassifyOutcome {
    std::optional<PointEdit> edit;
    std::string error;  ///< empty when found (or cancelled)
    size_t files = 0;
    double seconds = 0.0;
  };
  BackgroundJob<ClassifyOutcome> classifier_;
  size_t classifyingFiles_ = 0;         ///< the running classification's
  uint64_t classifyingGeneration_ = 0;  ///< the scene it classifies
  std::optional<EditSaveOutcome> lastSave_;
  std::string saveAsPath_ = "edited.laz";
  std::string logPath_ = "edits.json";
  uint64_t sceneGeneration_ = 0;
  /// What is highlighted: a text naming the pending selection ("" for none).
  std::string highlighted_;
};

}  // namespace pcv::app
