// The Edit tool's script commands and its part of the run report.
#include "viewer/tools/edit/edit_tool.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "viewer/input/input_script.hpp"

namespace pcv::app {
namespace {

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
    const std::string which = line.oneOf({"brush", "shown", "profile"}, "brush, shown or profile");
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
  commands.add("edit_delete",
               [this](ScriptLine&) { return stepOf([this] { act(EditAction::Delete); }); });
  commands.add("edit_restore",
               [this](ScriptLine&) { return stepOf([this] { act(EditAction::Restore); }); });
  commands.add("edit_classify", [this](ScriptLine& line) {
    const std::string which = line.oneOf({"ground", "noise", "both"}, "ground, noise or both");
    // A streamed scene's classification is awaited: the next line sees its classes.
    auto started = std::make_shared<bool>(false);
    return ScriptStep([this, which, started] {
      if (!*started) {
        *started = true;
        if (!classify(which != "noise", which != "ground")) return true;
      }
      finishClassify();
      return !classifier_.running();
    });
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
  commands.add("edit_save", [saveStep](ScriptLine&) { return saveStep({.inPlace = true}); });
  commands.add("edit_save_as",
               [saveStep](ScriptLine& line) { return saveStep({.out = line.word("a path")}); });
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
                        {"outputs", lastSave_->outputs},
                        {"filesWrittenInPlace", lastSave_->filesWrittenInPlace}};
  }
  report["edit"] = std::move(edit);
}

}  // namespace pcv::app
