/// @brief The Measure tool's ImGui drawing: its sidebar section (the kind, the points in
/// progress, the list and the export field) and the measurements drawn over the scene. The tool
/// calls them and carries out what they ask for.
#pragma once

#include <optional>
#include <string>

#include "pcv/core/length_unit.hpp"
#include "viewer/tools/measure/measure_state.hpp"
#include "viewer/tools/screen_projector.hpp"

namespace pcv::app {

/// The Measure section: the kind, the points in progress, the list (each with Delete) and the
/// export field. Returns the path to export to when Export (or Enter in the field) was pressed.
std::optional<std::string> drawMeasureSection(MeasureState& measure, std::string& exportPath,
                                              const LengthUnit& unit);
/// The measurements (finished and in progress) with a label in world units beside each segment.
void drawMeasureOverlay(const MeasureState& measure, const ScreenProjector& projector,
                        const LengthUnit& unit);

}  // namespace pcv::app
