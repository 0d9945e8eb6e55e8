// What the Measure tool draws over the scene, on ImGui's background draw list: points, segments,
// a label in world units beside each segment, the area at the polygon's middle, the height's
// right triangle.
#include <imgui.h>

#include <cstdio>
#include <utility>

#include "viewer/tools/overlay_label.hpp"
#include "viewer/tools/measure/measure_section.hpp"

namespace pcv::app {
namespace {

constexpr ImU32 kMeasureColor = IM_COL32(255, 220, 60, 255);
constexpr ImU32 kInProgressColor = IM_COL32(120, 220, 255, 255);

void drawMeasurement(ImDrawList& draw, const Measurement& m, const ScreenProjector& projector,
                     ImU32 color, const LengthUnit& unit) {
  const float thickness = 2.0f * ImGui::GetIO().FontGlobalScale;
  for (size_t s = 0; s < segmentCount(m); ++s) {
    const glm::dvec3& a = m.points[s];
    const glm::dvec3& b = m.points[(s + 1) % m.points.size()];
    const auto screen = projector.segment(a, b);
    if (!screen) continue;
    draw.AddLine(imVec(screen->first), imVec(screen->second), color, thickness);
    // Every segment's length beside it, but a distance's and a height's once, below.
    if (m.kind != MeasureKind::Polyline && m.kind != MeasureKind::Area) continue;
    drawLabel(draw, 0.5 * (screen->first + screen->second),
              formatLength(segmentLength(m, s), unit).c_str(), color);
  }
  if (m.kind == MeasureKind::Height && m.points.size() == 2) {
    // The right triangle: across at the first point's height, then straight up or down.
    const glm::dvec3& a = m.points[0];
    const glm::dvec3& b = m.points[1];
    glm::dvec3 corner = b;
    (m.up == UpAxis::Z ? corner.z : corner.y) = m.up == UpAxis::Z ? a.z : a.y;
    for (const auto& [from, to] : {std::pair{a, corner}, std::pair{corner, b}}) {
      if (const auto s = projector.segment(from, to)) {
        draw.AddLine(imVec(s->first), imVec(s->second), color, 0.5f * thickness);
      }
    }
  }
  for (const glm::dvec3& p : m.points) {
    if (const auto at = projector.toWindow(p)) draw.AddCircleFilled(imVec(*at), 4.0f, color);
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
  const std::string text = m.kind == MeasureKind::Polyline ? "total " + summaryText(m, 3, unit)
                                                           : summaryText(m, 3, unit);
  if (const auto at = projector.toWindow(anchor)) drawLabel(draw, *at, text.c_str(), color);
}

}  // namespace

void drawMeasureOverlay(const MeasureState& measure, const ScreenProjector& projector,
                        const LengthUnit& unit) {
  // Behind every window: the overlay belongs to the scene, the panels stay readable over it.
  ImDrawList& draw = *ImGui::GetBackgroundDrawList();
  for (const Measurement& m : measure.finished()) {
    drawMeasurement(draw, m, projector, kMeasureColor, unit);
  }
  drawMeasurement(draw, measure.current(), projector, kInProgressColor, unit);
}

}  // namespace pcv::app
