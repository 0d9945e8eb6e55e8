/// @brief Drawing helpers the overlays share: a world-projected point as an ImGui position and
/// a label with a dark box behind it, readable over any points.
#pragma once

#include <imgui.h>

#include <glm/glm.hpp>

namespace pcv::app {

inline ImVec2 imVec(glm::dvec2 p) {
  return ImVec2(float(p.x), float(p.y));
}

/// `text` up and right of `at` (window coordinates) in `colour`, over a dark box.
void drawLabel(ImDrawList& draw, glm::dvec2 at, const char* text, ImU32 color);

}  // namespace pcv::app
