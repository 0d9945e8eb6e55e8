// The Edit tool: painting strokes, acting on the selection, undo and redo, saving; its
// section and overlay are in edit_section.cpp, its script commands in edit_script.cpp.
#include "viewer/tools/edit/edit_tool.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key and button codes only
#include <imgui.h>       // the modifier keys

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "pcv/core/error.hpp"
#include "pcv/io/copc_writer.hpp"  // ConversionCancelled
#include "pcv/session/classes_ahead.hpp"
#include "pcv/session/edit_log.hpp"
#include "pcv/session/file_classification.hpp"

namespace pcv::app {
namespace {

/// Dabs closer than this share of the radius add nothing a stroke needs.
constexpr double kDabSpacing = 0.25;

}  // namespace

bool EditTool::onKey(const KeyEvent& event) {
  const bool press = event.action == GLFW_PRESS;
  if (event.key == GLFW_KEY_K) {
    if (press) setPainting(!painting_);
    return true;
  }
  // Ctrl+Z undoes, Ctrl+Y or Ctrl+Shift+Z redoes (ImGui tracks the modifiers).
  const ImGuiIO& io = ImGui::GetIO();
  if (press && io.KeyCtrl && event.key == GLFW_KEY_Z) {
    io.KeyShift ? redo() : undo();
    return true;
  }
  if (press && io.KeyCtrl && event.key == GLFW_KEY_Y) {
    redo();
    return true;
  }
  return false;
}

bool EditTool::onButton(const ButtonEvent& event) {
  if (!painting_ || event.button != GLFW_MOUSE_BUTTON_LEFT) return false;
  if (event.action == GLFW_PRESS) {
    beginStroke(event.atPx);
    return true;
  }
  if (event.action == GLFW_RELEASE && dragging_) {
    endStroke();
    return true;
  }
  return false;
}

bool EditTool::onCursor(const CursorEvent& event) {
  if (!dragging_) return false;
  addDab(event.atPx);
  return true;
}

bool EditTool::cancel() {
  if (dragging_ || stroke_) {
    dragging_ = false;
    dabs_.clear();
    stroke_.reset();
    std::fprintf(stderr, "pcv: brush stroke dropped\n");
    return true;
  }
  if (!painting_) return false;
  setPainting(false);
  return true;
}

void EditTool::setPainting(bool on) {
  painting_ = on;
  dragging_ = false;
  std::fprintf(stderr, "pcv: brush painting %s\n", on ? "on" : "off");
}

void EditTool::beginStroke(glm::dvec2 atPx) {
  const ScreenProjector projector = host_.projector();
  strokeCamera_ = projector.camera();
  strokeWindow_ = {projector.windowWidth(), projector.windowHeight()};
  dabs_.clear();
  stroke_.reset();
  dragging_ = true;
  target_ = EditTarget::Brush;
  addDab(atPx);
}

void EditTool::addDab(glm::dvec2 atPx) {
  if (!dabs_.empty() && glm::length(atPx - dabs_.back()) < kDabSpacing * radiusPx_) return;
  // A long drag fills the gap to the last dab, so a fast stroke has no holes.
  if (!dabs_.empty()) {
    const glm::dvec2 from = dabs_.back();
    const int steps = int(glm::length(atPx - from) / (kDabSpacing * radiusPx_));
    for (int s = 1; s < steps && dabs_.size() + 1 < BrushSelection::kMaxDabs; ++s) {
      dabs_.push_back(from + (atPx - from) * (double(s) / steps));
    }
  }
  if (dabs_.size() < BrushSelection::kMaxDabs) dabs_.push_back(atPx);
}

void EditTool::endStroke() {
  dragging_ = false;
  if (dabs_.empty()) return;
  try {
    stroke_.emplace(strokeCamera_, strokeWindow_.x, strokeWindow_.y, dabs_, radiusPx_);
    ++strokeNumber_;
    std::fprintf(stderr, "pcv: brush stroke of %zu dabs, radius %.1f px\n", dabs_.size(),
                 radiusPx_);
  } catch (const Error& error) {
    host_.showError(error.what());
  }
}

bool EditTool::idle() {
  if (saver_.running()) {
    host_.showError("a save is running: wait for it or cancel it");
    return false;
  }
  if (classifier_.running()) {
    host_.showError("a classification is running: wait for it or cancel it");
    return false;
  }
  return true;
}

bool EditTool::classify(bool ground, bool noise) {
  if (!idle()) return false;
  const ViewDescription view = host_.describeView();
  if (view.files.empty()) {
    host_.showError("the cylinder scene has no file to classify");
    return false;
  }
  try {
    // The airborne defaults, in the unit the files declare (feet data gets feet).
    pendingClassify_ = settingsForFiles(
        view.files, ClassifySettings{.ground = ground, .noise = noise}, GivenLengths{});
  } catch (const Error& error) {
    host_.showError(error.what());
    return false;
  }
  if (!host_.scene().parts().stream) return act(EditAction::Classify);
  // A streamed scene holds only some of its points: each file's selected points are read and
  // classified on a thread, as a save of the edit would classify them, and the nodes show the
  // classes found once the edit is applied.
  std::optional<PointEdit> edit = selectionEdit(EditAction::Classify);
  if (!edit) return false;
  const auto applied = history_.applied();
  std::vector<PointEdit> edits(applied.begin(), applied.end());
  edits.push_back(std::move(*edit));
  ClassesAheadPlan plan;
  try {
    plan = planClassesAhead(view.files, edits, 0, history_.foundClassesBytes());
  } catch (const Error& error) {
    host_.showError(std::string("cannot classify: ") + error.what());
    return false;
  }
  classifyingFiles_ = plan.files.size();
  classifyingGeneration_ = host_.scene().generation();
  std::fprintf(stderr, "pcv: classifying the selection in %zu files\n", plan.files.size());
  classifier_.start([plan = std::move(plan), edits = std::move(edits)](
                        const std::atomic<bool>& stop, std::atomic<uint64_t>& filesDone) {
    ClassifyOutcome outcome{.files = plan.files.size()};
    const auto started = std::chrono::steady_clock::now();
    try {
      PointEdit edit = edits.back();
      edit.found = findClassesAhead(plan, edits, &stop, [&](size_t done) { filesDone = done; });
      outcome.edit = std::move(edit);
    } catch (const ConversionCancelled&) {
      // Cancelled: no edit, nothing to say.
    } catch (const std::exception& error) {
      outcome.error = std::string("the classification failed: ") + error.what();
    }
    outcome.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return outcome;
  });
  return true;
}

void EditTool::finishClassify() {
  std::optional<ClassifyOutcome> outcome = classifier_.takeFinished();
  if (!outcome) return;
  if (!outcome->error.empty()) {
    std::fprintf(stderr, "pcv: %s\n", outcome->error.c_str());
    host_.showError(outcome->error);
    return;
  }
  if (!outcome->edit) {
    std::fprintf(stderr, "pcv: the classification was cancelled\n");
    return;
  }
  // The scene the classes were found for is gone: so is the edit.
  if (host_.scene().generation() != classifyingGeneration_) return;
  std::fprintf(stderr, "pcv: classes found in %zu files in %.2f s\n", outcome->files,
               outcome->seconds);
  apply(std::move(*outcome->edit));
}

bool EditTool::act(EditAction action, uint32_t classification) {
  if (!idle()) return false;
  std::optional<PointEdit> edit = selectionEdit(action, classification);
  return edit && apply(std::move(*edit));
}

std::optional<PointEdit> EditTool::selectionEdit(EditAction action, uint32_t classification) {
  followScene();
  PointEdit edit;
  edit.selection.clip = host_.settings().clip;
  edit.selection.filter = host_.settings().filter;
  if (target_ == EditTarget::Brush) {
    if (!stroke_) {
      host_.showError(
          "paint a stroke first (K, then drag over the points), or select what is "
          "shown");
      return std::nullopt;
    }
    edit.selection.brush = stroke_;
  } else if (target_ == EditTarget::ProfileLine) {
    if (!host_.profileLine()) {
      host_.showError(
          "draw a line in the Profile window first: cut a profile, click two points "
          "in it, then Select above or Select below");
      return std::nullopt;
    }
    edit.selection.profileLine = host_.profileLine();
  }
  edit.action = action;
  edit.classification = classification;
  if (action == EditAction::Classify) edit.classify = pendingClassify_;
  try {
    validateEdit(edit);
  } catch (const Error& error) {
    host_.showError(error.what());
    return std::nullopt;
  }
  return edit;
}

bool EditTool::apply(PointEdit edit) {
  followScene();
  const EditAction action = edit.action;
  const uint32_t classification = edit.classification;
  history_.push(edit);
  stroke_.reset();
  dabs_.clear();
  highlighted_.clear();  // pushEdit clears the highlight
  std::fprintf(
      stderr, "pcv: edit %zu: %s%s\n", history_.applied().size(), editActionName(action),
      action == EditAction::SetClass ? (" " + std::to_string(classification)).c_str() : "");
  // Only the new edit changes the points shown (undo and redo show the history again).
  host_.scene().pushEdit(std::move(edit));
  sceneGeneration_ = host_.scene().generation();
  if (host_.scene().edits().size() != history_.applied().size()) {
    history_.undo();  // the scene could not show it (said in the error window)
    return false;
  }
  return true;
}

void EditTool::undo() {
  if (!idle()) return;
  followScene();
  if (!history_.undo()) return;
  std::fprintf(stderr, "pcv: edit undone (%zu applied)\n", history_.applied().size());
  // The scene takes its last edit back at the cost of that edit's points where it shows the
  // same edits as the history did; else the whole list is shown again.
  if (host_.scene().edits().size() == history_.applied().size() + 1) {
    host_.scene().undoLastEdit();
    sceneGeneration_ = host_.scene().generation();
  } else {
    showEdits();
  }
}

void EditTool::redo() {
  if (!idle()) return;
  followScene();
  if (!history_.redo()) return;
  std::fprintf(stderr, "pcv: edit redone (%zu applied)\n", history_.applied().size());
  if (host_.scene().edits().size() + 1 == history_.applied().size()) {
    host_.scene().pushEdit(history_.applied().back());  // only the edit redone changes points
    sceneGeneration_ = host_.scene().generation();
    if (host_.scene().edits().size() != history_.applied().size()) history_.undo();
  } else {
    showEdits();
  }
}

void EditTool::showEdits() {
  const auto applied = history_.applied();
  host_.scene().setEdits({applied.begin(), applied.end()});
  sceneGeneration_ = host_.scene().generation();
}

void EditTool::followScene() {
  if (host_.scene().generation() == sceneGeneration_) return;
  sceneGeneration_ = host_.scene().generation();
  history_ = EditHistory();
  stroke_.reset();
}

bool EditTool::startSave(const EditSaveTarget& target) {
  followScene();
  if (!idle()) return false;
  const ViewDescription view = host_.describeView();
  if (view.files.empty()) {
    host_.showError("the cylinder scene has no file to save edits into");
    return false;
  }
  const auto applied = history_.applied();
  EditSaveTarget how = target;
  // A stream goes on reading its files while they are saved: they are replaced whole, so it
  // reads the old files to the end, never a chunk halfway written.
  if (host_.scene().parts().stream) how.writing = InPlaceWriting::WholeCopy;
  try {
    saver_.start(view.files, how, {applied.begin(), applied.end()});
  } catch (const Error& error) {
    host_.showError(std::string("cannot save: ") + error.what());
    return false;
  }
  std::fprintf(stderr, "pcv: saving %zu edits %s\n", applied.size(),
               target.inPlace ? "in place" : ("to " + target.out).c_str());
  return true;
}

void EditTool::finishSave() {
  std::optional<EditSaveOutcome> outcome = saver_.takeFinished();
  if (!outcome) return;
  std::fprintf(stderr, "pcv: %s\n", outcome->message.c_str());
  if (!outcome->succeeded) host_.showError(outcome->message);
  if (outcome->succeeded && outcome->inPlace) {
    history_.committed();
    host_.scene().editsSaved();
  }
  lastSave_ = std::move(outcome);
}

void EditTool::writeLog(const std::string& path) {
  try {
    writeEditLog(path, history_.applied());
    std::fprintf(stderr, "pcv: %zu edits logged to %s\n", history_.applied().size(), path.c_str());
  } catch (const Error& error) {
    host_.showError(error.what());
  }
}

void EditTool::onFrame(double) {
  followScene();
  finishSave();
  finishClassify();
  followSelection();
}

std::optional<PointSelection> EditTool::pendingSelection() const {
  PointSelection selection{.clip = host_.settings().clip, .filter = host_.settings().filter};
  if (target_ == EditTarget::Brush && stroke_ && !dragging_) {
    selection.brush = stroke_;
    return selection;
  }
  if (target_ == EditTarget::ProfileLine && host_.profileLine()) {
    selection.profileLine = host_.profileLine();
    return selection;
  }
  return std::nullopt;
}

void EditTool::followSelection() {
  // A text that changes with the selection: the stroke's number, the line, the clip and the
  // filters in effect (their log form; the stroke's dabs left out, a long stroke is long).
  const std::optional<PointSelection> pending = pendingSelection();
  std::string key;
  if (pending) {
    PointSelection rest = *pending;
    rest.brush.reset();
    key = (pending->brush ? "stroke " + std::to_string(strokeNumber_) + " " : std::string()) +
          editLogText(std::vector<PointEdit>{PointEdit{.selection = rest}});
  }
  if (key == highlighted_) return;
  highlighted_ = key;
  host_.scene().setHighlight(pending);
}

void EditTool::onSceneShown() {
  const std::vector<std::string> files = host_.scene().parts().files();
  if (files.empty()) return;
  // "tile.copc.laz" -> "tile-edited.copc.laz": the copy keeps its input's kind.
  const std::string name = std::filesystem::path(files.front()).filename().string();
  const size_t dot = name.find('.');
  saveAsPath_ = dot == std::string::npos ? name + "-edited"
                                         : name.substr(0, dot) + "-edited" + name.substr(dot);
  if (files.size() > 1) saveAsPath_ = "edited";  // several files are saved into a folder
}

}  // namespace pcv::app
