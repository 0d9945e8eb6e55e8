#include "viewer/tools/profile/profile_tool.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key codes only
#include <imgui.h>

#include <cstdio>
#include <sstream>

#include "pcv/core/error.hpp"
#include "pcv/core/number_text.hpp"
#include "pcv/core/profile_corridor.hpp"
#include "pcv/io/png_writer.hpp"
#include "pcv/session/cloud_writer.hpp"
#include "pcv/session/profile_figure.hpp"
#include "viewer/input/input_script.hpp"

namespace pcv::app {
namespace {

/// The profile image's size in pixels.
constexpr int kImageWidthPx = 800, kImageHeightPx = 300;

}  // namespace

bool ProfileTool::onKey(const KeyEvent& event) {
  const bool press = event.action == GLFW_PRESS;
  if (event.key == GLFW_KEY_P) {
    if (press) setDrawing(!drawing_);
    return true;
  }
  if (!drawing_) return false;
  if (event.key == GLFW_KEY_ENTER) {
    if (press) cut();
  } else if (event.key == GLFW_KEY_BACKSPACE) {
    if (press && !vertices_.empty()) vertices_.pop_back();
  } else {
    return false;
  }
  return true;
}

bool ProfileTool::onClick(const ButtonEvent& event) {
  if (!drawing_) return false;
  if (event.button == GLFW_MOUSE_BUTTON_LEFT) {
    const std::optional<glm::dvec3> picked = host_.pickAt(event.atPx);
    // A point on the last one adds no segment (a double click clicks twice).
    if (picked && (vertices_.empty() || glm::dvec2(*picked) != glm::dvec2(vertices_.back()))) {
      vertices_.push_back(*picked);
      const glm::dvec3& origin = host_.scene().parts().origin;
      std::fprintf(stderr, "pcv: profile point (%s, %s, %s)\n",
                   offsetText(picked->x, origin.x).c_str(), offsetText(picked->y, origin.y).c_str(),
                   offsetText(picked->z, origin.z).c_str());
    }
    return true;
  }
  if (event.button == GLFW_MOUSE_BUTTON_RIGHT) {
    cut();
    return true;
  }
  return false;
}

bool ProfileTool::onDoubleClick(glm::dvec2) {
  if (!drawing_) return false;
  cut();
  return true;
}

void ProfileTool::drawSection() {
  ProfileRequests requests;
  drawProfileSection(drawing_, vertices_.size(), widthUnits_, exportPath_, view_, requests);
  if (requests.toggleDrawing) setDrawing(!drawing_);
  if (requests.clear) {
    vertices_.clear();
    profile_.reset();
    view_.open = false;
  }
  if (requests.cut) cut();
  if (requests.exportPath) exportTo(*requests.exportPath);
}

void ProfileTool::drawOverlay(const ScreenProjector& projector) {
  ImDrawList& draw = *ImGui::GetBackgroundDrawList();
  const ImU32 line = IM_COL32(255, 220, 0, 255), edge = IM_COL32(255, 220, 0, 140);
  const double half = 0.5 * widthUnits_;
  for (size_t i = 0; i < vertices_.size(); ++i) {
    if (const std::optional<glm::dvec2> at = projector.toWindow(vertices_[i])) {
      draw.AddCircleFilled(ImVec2(float(at->x), float(at->y)), 4.0f, line);
    }
    if (i == 0) continue;
    const glm::dvec3 a = vertices_[i - 1], b = vertices_[i];
    if (const auto s = projector.segment(a, b)) {
      draw.AddLine(ImVec2(float(s->first.x), float(s->first.y)),
                   ImVec2(float(s->second.x), float(s->second.y)), line, 2.0f);
    }
    // The corridor's sides, at the picked heights.
    const glm::dvec2 d = glm::normalize(glm::dvec2(b - a));
    const glm::dvec3 across(-d.y * half, d.x * half, 0.0);
    for (const double side : {-1.0, 1.0}) {
      if (const auto s = projector.segment(a + side * across, b + side * across)) {
        draw.AddLine(ImVec2(float(s->first.x), float(s->first.y)),
                     ImVec2(float(s->second.x), float(s->second.y)), edge, 1.0f);
      }
    }
  }
  ProfileWindowRequests windowRequests;
  drawProfileWindow(view_, windowRequests);
  if (windowRequests.selectAbove && view_.measured.size() == 2) {
    selectSide(view_.measured[0], view_.measured[1], *windowRequests.selectAbove);
  }
}

void ProfileTool::addScriptCommands(ScriptCommands& commands) {
  commands.add("profile", [this](ScriptLine& line) {
    const bool on = line.oneOf({"on", "off"}, "on or off") == "on";
    return stepOf([this, on] { setDrawing(on); });
  });
  commands.add("profile_width", [this](ScriptLine& line) {
    const double width = line.number("a width in world units");
    if (!(width > 0.0)) line.fail("expected a width > 0");
    return stepOf([this, width] { widthUnits_ = width; });
  });
  commands.add("profile_line", [this](ScriptLine& line) {
    const std::vector<glm::dvec2> points =
        ProfileCorridor::parseLine(line.word("x0,y0,x1,y1[,...]"));
    return stepOf([this, points] {
      vertices_.clear();
      // Heights of the scene's middle: the line is drawn at them.
      const double z =
          host_.scene().parts().holdsFiles() ? host_.scene().shownBounds().center().z : 0.0;
      for (const glm::dvec2& p : points) vertices_.push_back({p.x, p.y, z});
    });
  });
  commands.add("profile_select", [this](ScriptLine& line) {
    const bool above = line.oneOf({"above", "below"}, "above or below") == "above";
    glm::dvec2 points[2];
    for (glm::dvec2& p : points) {
      const std::string text = line.word("distance,height");
      char comma = 0;
      std::istringstream in(text);
      if (!(in >> p.x >> comma >> p.y) || comma != ',' || !in.eof()) {
        line.fail("'" + text + "' is not distance,height");
      }
    }
    return stepOf([this, above, from = points[0], to = points[1]] { selectSide(from, to, above); });
  });
  commands.add("profile_cut", [this](ScriptLine&) { return stepOf([this] { cut(); }); });
  commands.add("export_profile", [this](ScriptLine& line) {
    return stepOf([this, path = line.word("a .csv, .las, .laz or .png path")] { exportTo(path); });
  });
}

void ProfileTool::onSceneShown() {
  if (widthUnits_ > 0.0 || !host_.scene().parts().holdsFiles()) return;
  // A first width: a hundredth of the scene's horizontal size.
  const glm::dvec3 size = host_.scene().shownBounds().size();
  widthUnits_ = std::max(0.01 * std::max(size.x, size.y), 1e-3);
}

bool ProfileTool::cancel() {
  if (!drawing_) return false;
  if (vertices_.empty()) {
    setDrawing(false);
    return true;
  }
  vertices_.clear();
  std::fprintf(stderr, "pcv: profile line cancelled\n");
  return true;
}

void ProfileTool::setDrawing(bool on) {
  drawing_ = on;
  if (on && widthUnits_ <= 0.0) widthUnits_ = 1.0;
  std::fprintf(stderr, "pcv: profile drawing %s\n", on ? "on" : "off");
}

void ProfileTool::cut() {
  if (vertices_.size() < 2) {
    host_.showError("a profile needs a line of at least two points: click them on the cloud");
    return;
  }
  try {
    std::vector<glm::dvec2> line;
    for (const glm::dvec3& v : vertices_) line.emplace_back(v.x, v.y);
    const ProfileCorridor corridor(line, widthUnits_);
    const SceneParts& parts = host_.scene().parts();
    // In-core points where the scene holds them; a streamed scene's files are read where the
    // corridor meets their nodes.
    const PointCloud& cloud = parts.inCore.cloud();
    ProfilePoints profile = cloud.size() > 0 ? extractProfile(cloud, corridor)
                                             : extractProfile(parts.files(), corridor);
    if (!profile.crs.known()) profile.crs = host_.coordinateSystem();  // the CSV names the unit
    if (!renderer_) renderer_ = createRenderer("cpu");
    // The figure `pcv profile --out` writes: points sized from the corridor's density, axes
    // with numbers and units, the line as its title.
    const ProfileFigureLayout layout = profileFigureLayout(kImageWidthPx, kImageHeightPx);
    const LengthUnit unit = profile.crs.lengthUnit();
    const ProfileFigure figure =
        renderProfileFigure(profile, *renderer_, kImageWidthPx, kImageHeightPx, RenderSettings{},
                            {.title = profileTitle(corridor, unit),
                             .unit = unit,
                             .verticalUnit = profile.crs.verticalUnit});
    view_.image = figure.image;
    view_.dataLeft = layout.left;
    view_.dataBottom = layout.bottom;
    view_.dataWidth = layout.dataWidth();
    view_.dataHeight = layout.dataHeight();
    view_.camera = profileImageCamera(profile, view_.dataWidth, view_.dataHeight);
    view_.uploaded = false;
    view_.open = true;
    view_.measured.clear();
    view_.points = profile.size();
    view_.length = corridor.length();
    view_.unit = unit;
    std::fprintf(stderr, "pcv: profile: %llu points, line %s long, width %s\n",
                 static_cast<unsigned long long>(profile.size()),
                 exactFloatText(float(corridor.length())).c_str(),
                 exactText(corridor.width()).c_str());
    profile_ = std::move(profile);
    corridor_ = corridor;
    host_.profileLine().reset();  // a line of the profile before
    view_.selectionLine.reset();
  } catch (const Error& error) {
    host_.showError(error.what());
  }
}

void ProfileTool::selectSide(glm::dvec2 from, glm::dvec2 to, bool above) {
  if (!corridor_) {
    host_.showError("no profile to select in: cut one first");
    return;
  }
  try {
    host_.profileLine() = ProfileLineSelection(*corridor_, from, to, above);
  } catch (const Error& error) {
    host_.showError(error.what());
    return;
  }
  view_.selectionLine = std::pair{from, to};
  view_.selectsAbove = above;
  std::fprintf(stderr, "pcv: profile selects the points %s the line (%.3f, %.3f) - (%.3f, %.3f)\n",
               above ? "above" : "below", from.x, from.y, to.x, to.y);
}

void ProfileTool::exportTo(const std::string& path) {
  if (!profile_) {
    host_.showError("no profile to export: cut one first");
    return;
  }
  try {
    switch (profileFileKindFor(path)) {
      case ProfileFileKind::Csv:
        writeProfileCsv(*profile_, path);
        break;
      case ProfileFileKind::Las:
      case ProfileFileKind::Laz:
        writePointCloud(profile_->cloud, path);
        break;
      case ProfileFileKind::Png:
        writePng(path, view_.image);
        break;
    }
    std::fprintf(stderr, "pcv: wrote the profile (%llu points) to %s\n",
                 static_cast<unsigned long long>(profile_->size()), path.c_str());
  } catch (const Error& error) {
    host_.showError(error.what());
  }
}

}  // namespace pcv::app
