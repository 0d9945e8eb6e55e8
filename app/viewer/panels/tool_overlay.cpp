// What the tools draw over the scene, on ImGui's background draw list: measurements (points,
// segments, a label in world units beside each segment, the area at the polygon's middle) and
// the clip box's edges and handles.
#include <imgui.h>

#include <cstdio>
#include <utility>

#include "viewer/panels/panels.hpp"

namespace pcv::app {
namespace {

constexpr ImU32 kMeasureColour = IM_COL32(255, 220, 60, 255);
constexpr ImU32 kInProgressColour = IM_COL32(120, 220, 255, 255);
constexpr ImU32 kClipColour = IM_COL32(90, 200, 255, 220);
constexpr ImU32 kHoveredColour = IM_COL32(255, 255, 255, 255);

ImVec2 imVec(glm::dvec2 p) {
  return ImVec2(float(p.x), float(p.y));
}

/// Text with a dark box behind it, so labels read over any points.
void label(ImDrawList& draw, glm::dvec2 at, const char* text, ImU32 colour) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  const ImVec2 corner(float(at.x) + 6.0f, float(at.y) - size.y - 4.0f);
  draw.AddRectFilled(ImVec2(corner.x - 3.0f, corner.y - 2.0f),
                     ImVec2(corner.x + size.x + 3.0f, corner.y + size.y + 2.0f),
                     IM_COL32(0, 0, 0, 170), 3.0f);
  draw.AddText(corner, colour, text);
}

void drawMeasurement(ImDrawList& draw, const Measurement& m, const ScreenProjector& projector,
                     ImU32 colour) {
  const float thickness = 2.0f * ImGui::GetIO().FontGlobalScale;
  for (size_t s = 0; s < segmentCount(m); ++s) {
    const glm::dvec3& a = m.points[s];
    const glm::dvec3& b = m.points[(s + 1) % m.points.size()];
    const auto screen = projector.segment(a, b);
    if (!screen) continue;
    draw.AddLine(imVec(screen->first), imVec(screen->second), colour, thickness);
    // Every segment's length beside it, but a distance's and a height's once, below.
    if (m.kind != MeasureKind::Polyline && m.kind != MeasureKind::Area) continue;
    char text[48];
    std::snprintf(text, sizeof text, "%.3f", segmentLength(m, s));
    label(draw, 0.5 * (screen->first + screen->second), text, colour);
  }
  if (m.kind == MeasureKind::Height && m.points.size() == 2) {
    // The right triangle: across at the first point's height, then straight up or down.
    const glm::dvec3& a = m.points[0];
    const glm::dvec3& b = m.points[1];
    glm::dvec3 corner = b;
    (m.up == UpAxis::Z ? corner.z : corner.y) = m.up == UpAxis::Z ? a.z : a.y;
    for (const auto& [from, to] : {std::pair{a, corner}, std::pair{corner, b}}) {
      if (const auto s = projector.segment(from, to)) {
        draw.AddLine(imVec(s->first), imVec(s->second), colour, 0.5f * thickness);
      }
    }
  }
  for (const glm::dvec3& p : m.points) {
    if (const auto at = projector.toWindow(p)) draw.AddCircleFilled(imVec(*at), 4.0f, colour);
  }
  if (m.points.size() < minimumPoints(m.kind)) return;
  // The headline: at the middle of a two-point measurement, at the polygon's mean for an area,
  // at the end of a polyline.
  glm::dvec3 anchor = m.points.back();
  if (m.kind == MeasureKind::Distance || m.kind == MeasureKind::Height) {
    anchor = 0.5 * (m.points.front() + m.points.back());
  } else if (m.kind == MeasureKind::Area) {
    anchor = glm::dvec3(0.0);
    for (const glm::dvec3& p : m.points) anchor += p / double(m.points.size());
  }
  const std::string text =
      m.kind == MeasureKind::Polyline ? "total " + summaryText(m) : summaryText(m);
  if (const auto at = projector.toWindow(anchor)) label(draw, *at, text.c_str(), colour);
}

void drawClip(ImDrawList& draw, const ClipSettings& clip, const ClipPanel& panel,
              const ScreenProjector& projector, ClipHandle hovered) {
  if (clip.box) {
    const glm::dvec3 corners[2] = {clip.box->min, clip.box->max};
    auto corner = [&](int bits) {
      return glm::dvec3(corners[bits & 1].x, corners[(bits >> 1) & 1].y, corners[bits >> 2].z);
    };
    for (int bits = 0; bits < 8; ++bits) {
      for (int axis = 0; axis < 3; ++axis) {
        if (bits & (1 << axis)) continue;  // each edge once, from its lower corner
        if (const auto s = projector.segment(corner(bits), corner(bits | (1 << axis)))) {
          draw.AddLine(imVec(s->first), imVec(s->second), kClipColour, 1.5f);
        }
      }
    }
  }
  if (!panel.showHandles) return;
  for (const ClipHandlePoint& h : clipHandles(clip)) {
    const auto at = projector.toWindow(h.world);
    if (!at) continue;
    const bool isHovered = h.handle == hovered;
    const float radius = (isHovered ? 8.0f : 6.0f) * ImGui::GetIO().FontGlobalScale;
    draw.AddCircleFilled(imVec(*at), radius, isHovered ? kHoveredColour : kClipColour);
    draw.AddCircle(imVec(*at), radius, IM_COL32(0, 0, 0, 200));
  }
}

}  // namespace

void drawToolOverlay(const MeasureTool& measure, const ClipSettings& clip,
                     const ClipPanel& clipPanel, const ScreenProjector& projector,
                     ClipHandle hovered, const std::string& notice) {
  // Behind every window: the overlay belongs to the scene, the panels stay readable over it.
  ImDrawList& draw = *ImGui::GetBackgroundDrawList();
  drawClip(draw, clip, clipPanel, projector, hovered);
  for (const Measurement& m : measure.finished()) {
    drawMeasurement(draw, m, projector, kMeasureColour);
  }
  drawMeasurement(draw, measure.current(), projector, kInProgressColour);
  if (notice.empty()) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const ImVec2 size = ImGui::CalcTextSize(notice.c_str());
  label(draw,
        glm::dvec2(viewport->Pos.x + 0.5 * (viewport->Size.x - size.x) - 6.0,
                   viewport->Pos.y + 0.5 * (viewport->Size.y + size.y)),
        notice.c_str(), IM_COL32(230, 230, 230, 255));
}

}  // namespace pcv::app
