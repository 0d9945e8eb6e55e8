#include "viewer/tools/edit/edit_tool.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key and button codes only
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "pcv/core/error.hpp"
#include "pcv/core/point_filter.hpp"
#include "pcv/session/edit_log.hpp"
#include "pcv/session/file_classification.hpp"
#include "viewer/input/input_script.hpp"

namespace pcv::app {
namespace {

/// Dabs closer than this share of the radius add nothing a stroke needs.
constexpr double kDabSpacing = 0.25;

ImVec2 toImVec(glm::dvec2 p) {
  return ImVec2(float(p.x), float(p.y));
}

bool sameView(const Camera& a, const Camera& b) {
  return a.eye == b.eye && a.yawRadians == b.yawRadians && a.pitchRadians == b.pitchRadians &&
         a.fovYRadians == b.fovYRadians && a.projection == b.projection &&
         a.orthoWidth == b.orthoWidth && a.upAxis == b.upAxis;
}

/// "x,y": one dab of a script's stroke.
glm::dvec2 parseDab(ScriptLine& line, const std::string& text) {
  std::istringstream in(text);
  glm::dvec2 dab;
  char comma = 0;
  if (!(in >> dab.x >> comma >> dab.y) || comma != ',' || !in.eof()) {
    line.fail("a dab '" + text + "' is not x,y (window pixels)");
  }
  return dab;
}

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

bool EditTool::classify(bool ground, bool noise) {
  if (host_.scene().parts().stream) {
    host_.showError(
        "a streamed scene is classified by pcv classify (tile by tile, with its neighbours); "
        "the Edit tool classifies files read whole");
    return false;
  }
  const ViewDescription view = host_.describeView();
  if (view.files.empty()) {
    host_.showError("the cylinder scene has no file to classify");
    return false;
  }
  try {
    // The airborne defaults, in the unit the files declare (feet data gets feet).
    pendingClassify_ = settingsForFiles(view.files, ClassifySettings{.ground = ground,
                                                                     .noise = noise},
                                        GivenLengths{});
  } catch (const Error& error) {
    host_.showError(error.what());
    return false;
  }
  return act(EditAction::Classify);
}

bool EditTool::act(EditAction action, uint32_t classification) {
  followScene();
  PointEdit edit;
  edit.selection.clip = host_.settings().clip;
  edit.selection.filter = host_.settings().filter;
  if (target_ == EditTarget::Brush) {
    if (!stroke_) {
      host_.showError("paint a stroke first (K, then drag over the points), or select what is "
                      "shown");
      return false;
    }
    edit.selection.brush = stroke_;
  } else if (target_ == EditTarget::ProfileLine) {
    if (!host_.profileLine()) {
      host_.showError("draw a line in the Profile window first: cut a profile, click two points "
                      "in it, then Select above or Select below");
      return false;
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
    return false;
  }
  history_.push(edit);
  stroke_.reset();
  dabs_.clear();
  highlighted_.clear();  // pushEdit clears the highlight
  std::fprintf(stderr, "pcv: edit %zu: %s%s\n", history_.applied().size(), editActionName(action),
               action == EditAction::SetClass ? (" " + std::to_string(classification)).c_str()
                                              : "");
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
  followScene();
  if (!history_.undo()) return;
  std::fprintf(stderr, "pcv: edit undone (%zu applied)\n", history_.applied().size());
  showEdits();
}

void EditTool::redo() {
  followScene();
  if (!history_.redo()) return;
  std::fprintf(stderr, "pcv: edit redone (%zu applied)\n", history_.applied().size());
  showEdits();
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
  if (saver_.running()) {
    host_.showError("a save is running: wait for it or cancel it");
    return false;
  }
  const ViewDescription view = host_.describeView();
  if (view.files.empty()) {
    host_.showError("the cylinder scene has no file to save edits into");
    return false;
  }
  const auto applied = history_.applied();
  try {
    saver_.start(view.files, target, {applied.begin(), applied.end()});
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
    std::fprintf(stderr, "pcv: %zu edits logged to %s\n", history_.applied().size(),
                 path.c_str());
  } catch (const Error& error) {
    host_.showError(error.what());
  }
}

void EditTool::onFrame(double) {
  followScene();
  finishSave();
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

void EditTool::drawSection() {
  ImGui::PushID("edit");
  int target = int(target_);
  ImGui::TextUnformatted("Select");
  ImGui::SameLine();
  if (ImGui::RadioButton("brush", &target, 0)) target_ = EditTarget::Brush;
  ImGui::SameLine();
  if (ImGui::RadioButton("all shown", &target, 1)) target_ = EditTarget::Shown;
  ImGui::SameLine();
  if (ImGui::RadioButton("profile line", &target, 2)) target_ = EditTarget::ProfileLine;
  if (target_ == EditTarget::Brush) {
    if (ImGui::Button(painting_ ? "Stop painting" : "Paint (K)")) setPainting(!painting_);
    ImGui::SameLine();
    float radius = float(radiusPx_);
    ImGui::SetNextItemWidth(110.0f);
    if (ImGui::SliderFloat("radius px", &radius, 1.0f, 200.0f, "%.0f")) radiusPx_ = radius;
    ImGui::TextWrapped(stroke_ ? "A stroke is selected: every point under it that the clip "
                                 "and filters draw."
                               : "Drag over the points to paint a stroke.");
  } else if (target_ == EditTarget::Shown) {
    ImGui::TextWrapped("Every point the clip region and the filters draw.");
  } else if (const std::optional<ProfileLineSelection>& line = host_.profileLine()) {
    ImGui::TextWrapped("The profile's points %s its blue line (and in the clip region, passing "
                       "the filters).",
                       line->above() ? "above" : "below");
  } else {
    ImGui::TextWrapped("Cut a profile, click two points in its window, then Select above or "
                       "below.");
  }
  const std::string current = std::to_string(classChoice_) + " " + asprsClassName(classChoice_);
  ImGui::SetNextItemWidth(180.0f);
  if (ImGui::BeginCombo("class", current.c_str())) {
    for (int c = 0; c < 256; ++c) {
      const std::string label = std::to_string(c) + " " + asprsClassName(uint32_t(c));
      if (ImGui::Selectable(label.c_str(), c == classChoice_)) classChoice_ = c;
    }
    ImGui::EndCombo();
  }
  if (ImGui::Button("Set class")) act(EditAction::SetClass, uint32_t(classChoice_));
  ImGui::SameLine();
  if (ImGui::Button("Delete")) act(EditAction::Delete);
  ImGui::SameLine();
  if (ImGui::Button("Restore")) act(EditAction::Restore);
  ImGui::Checkbox("ground", &classifyGround_);
  ImGui::SameLine();
  ImGui::Checkbox("noise", &classifyNoise_);
  ImGui::SameLine();
  ImGui::BeginDisabled(!classifyGround_ && !classifyNoise_);
  if (ImGui::Button("Classify")) classify(classifyGround_, classifyNoise_);
  ImGui::EndDisabled();
  ImGui::BeginDisabled(!history_.canUndo());
  if (ImGui::Button("Undo")) undo();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!history_.canRedo());
  if (ImGui::Button("Redo")) redo();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::Text("%zu edits, %zu undone", history_.applied().size(), history_.undone());
  if (saver_.running()) {
    ImGui::TextUnformatted("Saving...");
    ImGui::SameLine();
    if (ImGui::SmallButton("Cancel")) saver_.cancel();
  } else {
    ImGui::BeginDisabled(!history_.unsaved());
    if (ImGui::Button("Save")) startSave({.inPlace = true});
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(140.0f);
    char path[512];
    std::snprintf(path, sizeof(path), "%s", saveAsPath_.c_str());
    if (ImGui::InputText("##saveas", path, sizeof(path))) saveAsPath_ = path;
    ImGui::SameLine();
    if (ImGui::Button("Save as")) startSave({.out = saveAsPath_});
  }
  ImGui::SetNextItemWidth(140.0f);
  char log[512];
  std::snprintf(log, sizeof(log), "%s", logPath_.c_str());
  if (ImGui::InputText("##log", log, sizeof(log))) logPath_ = log;
  ImGui::SameLine();
  if (ImGui::Button("Write edit log")) writeLog(logPath_);
  if (lastSave_) ImGui::TextWrapped("%s", lastSave_->message.c_str());
  ImGui::PopID();
}

void EditTool::drawOverlay(const ScreenProjector& projector) {
  const std::vector<glm::dvec2>* dabs = nullptr;
  if (dragging_) {
    dabs = &dabs_;
  } else if (stroke_ && sameView(projector.camera(), strokeCamera_) &&
             glm::dvec2(projector.windowWidth(), projector.windowHeight()) == strokeWindow_) {
    dabs = &stroke_->dabs();  // in another view the stroke selects a cone, not a band
  }
  ImDrawList& draw = *ImGui::GetBackgroundDrawList();
  const ImU32 fill = IM_COL32(255, 200, 0, 60);
  if (dabs) {
    for (const glm::dvec2& dab : *dabs) draw.AddCircleFilled(toImVec(dab), float(radiusPx_), fill);
  }
  if (painting_) {
    const glm::dvec2 mouse(ImGui::GetIO().MousePos.x, ImGui::GetIO().MousePos.y);
    draw.AddCircle(toImVec(mouse), float(radiusPx_), IM_COL32(255, 200, 0, 220), 0, 1.5f);
  }
}

void EditTool::addScriptCommands(ScriptCommands& commands) {
  commands.add("edit_brush", [this](ScriptLine& line) {
    const bool on = line.oneOf({"on", "off"}, "on or off") == "on";
    return stepOf([this, on] { setPainting(on); });
  });
  commands.add("edit_radius", [this](ScriptLine& line) {
    const double radius = line.number("a radius in pixels");
    if (!(radius >= 0.5 && radius <= BrushSelection::kMaxRadiusPx)) {
      line.fail("a brush radius is 0.5 to 4096 pixels");
    }
    return stepOf([this, radius] { radiusPx_ = radius; });
  });
  commands.add("edit_stroke", [this](ScriptLine& line) {
    std::vector<glm::dvec2> dabs{parseDab(line, line.word("x,y (window pixels)"))};
    for (std::string word; !(word = line.optionalWord()).empty();) {
      dabs.push_back(parseDab(line, word));
    }
    return stepOf([this, dabs] {
      beginStroke(dabs.front());
      for (size_t i = 1; i < dabs.size(); ++i) addDab(dabs[i]);
      endStroke();
    });
  });
  commands.add("edit_select", [this](ScriptLine& line) {
    const std::string which =
        line.oneOf({"brush", "shown", "profile"}, "brush, shown or profile");
    const EditTarget target = which == "brush"   ? EditTarget::Brush
                              : which == "shown" ? EditTarget::Shown
                                                 : EditTarget::ProfileLine;
    return stepOf([this, target] { target_ = target; });
  });
  commands.add("edit_set_class", [this](ScriptLine& line) {
    const double value = line.number("a class 0-255");
    if (!(value >= 0.0 && value <= 255.0) || value != double(int(value))) {
      line.fail("a class is a whole number 0-255");
    }
    return stepOf([this, value] {
      classChoice_ = int(value);
      act(EditAction::SetClass, uint32_t(value));
    });
  });
  commands.add("edit_delete", [this](ScriptLine&) {
    return stepOf([this] { act(EditAction::Delete); });
  });
  commands.add("edit_restore", [this](ScriptLine&) {
    return stepOf([this] { act(EditAction::Restore); });
  });
  commands.add("edit_classify", [this](ScriptLine& line) {
    const std::string which = line.oneOf({"ground", "noise", "both"}, "ground, noise or both");
    return stepOf([this, which] { classify(which != "noise", which != "ground"); });
  });
  commands.add("edit_undo", [this](ScriptLine&) { return stepOf([this] { undo(); }); });
  commands.add("edit_redo", [this](ScriptLine&) { return stepOf([this] { redo(); }); });
  // A save is awaited: the script's next line sees the files saved (or the error said).
  const auto saveStep = [this](EditSaveTarget target) {
    auto started = std::make_shared<bool>(false);
    return ScriptStep([this, target, started] {
      if (!*started) {
        *started = true;
        if (!startSave(target)) return true;
      }
      finishSave();
      return !saver_.running();
    });
  };
  commands.add("edit_save", [saveStep](ScriptLine&) {
    return saveStep({.inPlace = true});
  });
  commands.add("edit_save_as", [saveStep](ScriptLine& line) {
    return saveStep({.out = line.word("a path")});
  });
  commands.add("edit_log", [this](ScriptLine& line) {
    const std::string path = line.word("a path");
    return stepOf([this, path] { writeLog(path); });
  });
}

void EditTool::addToReport(nlohmann::json& report) const {
  nlohmann::json edit = {{"applied", history_.applied().size()},
                         {"undone", history_.undone()},
                         {"unsaved", history_.unsaved()},
                         {"painting", painting_},
                         {"stroke", stroke_ ? stroke_->dabs().size() : 0}};
  if (lastSave_) {
    edit["lastSave"] = {{"succeeded", lastSave_->succeeded},
                        {"inPlace", lastSave_->inPlace},
                        {"files", lastSave_->files},
                        {"filesSaved", lastSave_->filesSaved},
                        {"changed", lastSave_->changed},
                        {"outputs", lastSave_->outputs}};
  }
  report["edit"] = std::move(edit);
}

}  // namespace pcv::app
