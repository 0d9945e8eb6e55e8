#include "viewer/tools/measure/measure_tool.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key codes only

#include <cstdio>
#include <fstream>

#include "pcv/core/number_text.hpp"
#include "pcv/session/scene_model.hpp"
#include "viewer/input/input_script.hpp"
#include "viewer/tools/measure/measure_section.hpp"

namespace pcv::app {

bool MeasureTool::onKey(const KeyEvent& event) {
  const bool press = event.action == GLFW_PRESS;
  if (event.key == GLFW_KEY_M) {
    if (press) {
      state_.setActive(!state_.active());
      std::fprintf(stderr, "pcv: measure %s (%s)\n", state_.active() ? "on" : "off",
                   measureKindName(state_.kind()));
    }
    return true;
  }
  if (!state_.active()) return false;
  if (event.key >= GLFW_KEY_1 && event.key <= GLFW_KEY_4) {
    if (press) state_.setKind(MeasureKind(event.key - GLFW_KEY_1));
  } else if (event.key == GLFW_KEY_ENTER) {
    if (press) finish();
  } else if (event.key == GLFW_KEY_BACKSPACE) {
    if (press) state_.undoPoint();
  } else if (event.key == GLFW_KEY_DELETE) {
    if (press && !state_.finished().empty()) state_.remove(state_.finished().size() - 1);
  } else {
    return false;
  }
  return true;
}

bool MeasureTool::onClick(const ButtonEvent& event) {
  if (!state_.active()) return false;
  if (event.button == GLFW_MOUSE_BUTTON_LEFT) {
    addPoint(event.atPx);
    return true;
  }
  if (event.button == GLFW_MOUSE_BUTTON_RIGHT) {
    finish();
    return true;
  }
  return false;
}

bool MeasureTool::onDoubleClick(glm::dvec2) {
  if (!state_.active()) return false;
  finish();  // a double click ends a polyline or polygon
  return true;
}

bool MeasureTool::cancel() {
  if (!state_.current().points.empty()) {
    state_.setKind(state_.kind());  // drops the points, keeps the kind
    std::fprintf(stderr, "pcv: measurement cancelled\n");
    return true;
  }
  if (!state_.active()) return false;
  state_.setActive(false);
  std::fprintf(stderr, "pcv: measure off\n");
  return true;
}

void MeasureTool::drawSection() {
  if (const std::optional<std::string> path =
          drawMeasureSection(state_, exportPath_, host_.coordinateSystem().lengthUnit())) {
    exportTo(*path);
  }
}

void MeasureTool::drawOverlay(const ScreenProjector& projector) {
  drawMeasureOverlay(state_, projector, host_.coordinateSystem().lengthUnit());
}

void MeasureTool::addScriptCommands(ScriptCommands& commands) {
  commands.add("measure", [this](ScriptLine& line) {
    const std::string name = line.word("distance, polyline, height, area or off");
    MeasureKind kind = MeasureKind::Distance;
    const bool on = parseMeasureKind(name, kind);
    if (!on && name != "off") line.fail("expected distance, polyline, height, area or off");
    return stepOf([this, on, kind] {
      state_.setActive(on);
      if (on) state_.setKind(kind);
    });
  });
  commands.add("export_measures", [this](ScriptLine& line) {
    return stepOf([this, path = line.word("a CSV or JSON path")] { exportTo(path); });
  });
}

void MeasureTool::addPoint(glm::dvec2 atPx) {
  const std::optional<glm::dvec3> picked = host_.pickAt(atPx);
  if (!picked) return;
  const size_t finished = state_.finished().size();
  state_.addPoint(*picked, host_.rig().camera().upAxis);
  // The point's digits at the float precision it is held at, not a double's binary noise.
  const glm::dvec3& origin = host_.scene().parts().origin;
  std::fprintf(stderr, "pcv: measure point (%s, %s, %s)\n", offsetText(picked->x, origin.x).c_str(),
               offsetText(picked->y, origin.y).c_str(), offsetText(picked->z, origin.z).c_str());
  if (state_.finished().size() > finished) reportLast();
}

void MeasureTool::finish() {
  if (state_.finish()) reportLast();
}

void MeasureTool::reportLast() const {
  const std::vector<Measurement>& list = state_.finished();
  const MeasureResult r = measure(list.back());
  // Measured between points held as floats: their precision, without binary noise.
  const auto text = [](double value) { return exactFloatText(float(value)); };
  const LengthUnit unit = host_.coordinateSystem().lengthUnit();
  std::fprintf(stderr,
               "pcv: measurement %zu (%s): length %s, horizontal %s, height %s, area %s, unit %s\n",
               list.size(), measureKindName(list.back().kind), text(r.length).c_str(),
               text(r.horizontal).c_str(), text(r.height).c_str(), text(r.area).c_str(),
               unit.known() ? unit.symbol().c_str() : "not declared");
}

void MeasureTool::exportTo(const std::string& path) {
  const bool json = path.size() >= 5 && path.substr(path.size() - 5) == ".json";
  std::ofstream out(path);
  const LengthUnit unit = host_.coordinateSystem().lengthUnit();
  out << (json ? measurementsJson(state_.finished(), unit)
               : measurementsCsv(state_.finished(), unit));
  if (!out) {
    host_.showError("cannot write the measurements to '" + path + "'");
    return;
  }
  std::fprintf(stderr, "pcv: wrote %zu measurements to %s\n", state_.finished().size(),
               path.c_str());
}

}  // namespace pcv::app
