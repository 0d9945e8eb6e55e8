#include "viewer/tools/polygon/polygon_tool.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key and button codes only
#include <imgui.h>

#include <cstdio>

#include "pcv/core/error.hpp"
#include "viewer/input/input_script.hpp"
#include "viewer/tools/selection_export_row.hpp"

namespace pcv::app {
namespace {

ImVec2 toImVec(glm::dvec2 p) {
  return ImVec2(float(p.x), float(p.y));
}

}  // namespace

bool PolygonTool::onKey(const KeyEvent& event) {
  const bool press = event.action == GLFW_PRESS;
  if (event.key == GLFW_KEY_L) {
    if (press) setDrawing(!drawing_);
    return true;
  }
  if (!drawing_) return false;
  if (event.key == GLFW_KEY_ENTER) {
    if (press) close();
  } else if (event.key == GLFW_KEY_BACKSPACE) {
    if (press && !corners_.empty()) corners_.pop_back();
  } else {
    return false;
  }
  return true;
}

bool PolygonTool::onClick(const ButtonEvent& event) {
  if (!drawing_) return false;
  if (event.button == GLFW_MOUSE_BUTTON_LEFT) {
    if (corners_.empty()) {
      const ScreenProjector projector = host_.projector();
      camera_ = projector.camera();
      windowSize_ = {projector.windowWidth(), projector.windowHeight()};
    }
    // A corner on the last one adds no edge (a double click clicks twice).
    if (corners_.empty() || corners_.back() != event.atPx) {
      corners_.push_back(event.atPx);
      std::fprintf(stderr, "pcv: polygon corner %zu at (%.1f, %.1f)\n", corners_.size(),
                   event.atPx.x, event.atPx.y);
    }
    return true;
  }
  if (event.button == GLFW_MOUSE_BUTTON_RIGHT) {
    close();
    return true;
  }
  return false;
}

bool PolygonTool::onDoubleClick(glm::dvec2) {
  if (!drawing_) return false;
  close();
  return true;
}

void PolygonTool::drawSection() {
  ImGui::PushID("polygon");
  if (ImGui::Button(drawing_ ? "Stop drawing" : "Draw (L)")) setDrawing(!drawing_);
  if (drawing_) {
    ImGui::SameLine();
    ImGui::Text("%zu corners", corners_.size());
    ImGui::TextWrapped("Click the corners; Enter, a right click or a double click closes it.");
    if (corners_.size() >= 3 && ImGui::Button("Close polygon")) close();
  }
  const std::optional<PolygonSelection>& polygon = host_.settings().clip.polygon;
  int keep = keepInside_ ? 0 : 1;
  ImGui::TextUnformatted("Keep");
  ImGui::SameLine();
  bool changed = ImGui::RadioButton("inside", &keep, 0);
  ImGui::SameLine();
  changed = ImGui::RadioButton("outside", &keep, 1) || changed;
  if (changed) setKeepInside(keep == 0);
  if (polygon) {
    ImGui::Text("%zu corners clip the view", polygon->ndcVertices().size());
    ImGui::SameLine();
    if (ImGui::SmallButton("Clear")) clear();
    SelectionExportActions actions;
    drawSelectionExportRow(exportPath_, exporter_.progress(), exporter_.lastOutcome(), actions);
    if (actions.exportTo) exporter_.start(*actions.exportTo);
    if (actions.cancelExport) exporter_.cancel();
  }
  exporter_.done();
  ImGui::PopID();
}

void PolygonTool::drawOverlay(const ScreenProjector& projector) {
  ImDrawList& draw = *ImGui::GetBackgroundDrawList();
  const ImU32 line = IM_COL32(0, 220, 255, 255), closing = IM_COL32(0, 220, 255, 110);
  if (drawing_) {
    for (size_t i = 0; i < corners_.size(); ++i) {
      draw.AddCircleFilled(toImVec(corners_[i]), 4.0f, line);
      if (i > 0) draw.AddLine(toImVec(corners_[i - 1]), toImVec(corners_[i]), line, 2.0f);
    }
    if (corners_.size() >= 3) {
      draw.AddLine(toImVec(corners_.back()), toImVec(corners_.front()), closing, 1.0f);
    }
    return;
  }
  const glm::dvec2 size(projector.windowWidth(), projector.windowHeight());
  if (closed_.empty() || !host_.settings().clip.polygon || size != closedWindowSize_ ||
      !sameView(projector.camera(), closedCamera_)) {
    return;
  }
  for (size_t i = 0; i < closed_.size(); ++i) {
    draw.AddLine(toImVec(closed_[i]), toImVec(closed_[(i + 1) % closed_.size()]), line, 2.0f);
  }
}

void PolygonTool::addScriptCommands(ScriptCommands& commands) {
  commands.add("polygon", [this](ScriptLine& line) {
    const bool on = line.oneOf({"on", "off"}, "on or off") == "on";
    return stepOf([this, on] { setDrawing(on); });
  });
  commands.add("polygon_close", [this](ScriptLine&) { return stepOf([this] { close(); }); });
  commands.add("polygon_keep", [this](ScriptLine& line) {
    const bool inside = line.oneOf({"inside", "outside"}, "inside or outside") == "inside";
    return stepOf([this, inside] { setKeepInside(inside); });
  });
  commands.add("polygon_plan", [this](ScriptLine& line) {
    std::vector<glm::dvec2> corners;
    try {
      corners = parsePolygonVertices(line.word("x0,y0,x1,y1,x2,y2[,...]"), "polygon_plan");
    } catch (const InputError& error) {
      line.fail(error.what());
    }
    return stepOf([this, corners] {
      clear();
      host_.settings().clip.polygon = PolygonSelection::plan(corners, keepInside_);
      std::fprintf(stderr, "pcv: polygon of %zu corners (plan)\n", corners.size());
    });
  });
  commands.add("polygon_clear", [this](ScriptLine&) { return stepOf([this] { clear(); }); });
}

bool PolygonTool::cancel() {
  if (!drawing_) return false;
  if (corners_.empty()) {
    setDrawing(false);
    return true;
  }
  corners_.clear();
  std::fprintf(stderr, "pcv: polygon corners cancelled\n");
  return true;
}

void PolygonTool::setDrawing(bool on) {
  drawing_ = on;
  corners_.clear();
  std::fprintf(stderr, "pcv: polygon drawing %s\n", on ? "on" : "off");
}

void PolygonTool::close() {
  if (corners_.size() < 3) {
    host_.showError("a polygon needs at least three corners: click them on the view");
    return;
  }
  try {
    host_.settings().clip.polygon =
        PolygonSelection(camera_, windowSize_.x, windowSize_.y, corners_, keepInside_);
  } catch (const Error& error) {
    host_.showError(error.what());
    return;
  }
  closed_ = corners_;
  closedCamera_ = camera_;
  closedWindowSize_ = windowSize_;
  std::fprintf(stderr, "pcv: polygon of %zu corners clips the view (keep %s)\n", corners_.size(),
               keepInside_ ? "inside" : "outside");
  drawing_ = false;
  corners_.clear();
}

void PolygonTool::clear() {
  host_.settings().clip.polygon.reset();
  closed_.clear();
  std::fprintf(stderr, "pcv: polygon cleared\n");
}

void PolygonTool::setKeepInside(bool keepInside) {
  keepInside_ = keepInside;
  if (std::optional<PolygonSelection>& polygon = host_.settings().clip.polygon) {
    polygon->setKeepInside(keepInside);
  }
}

}  // namespace pcv::app
