/// @brief The Filters section's ImGui drawing: the class legend with toggles and counts, the
/// return choice, the range slider and the export row. It edits the filter in place and returns
/// what the tool must do; nothing here acts on the window.
#pragma once

#include <optional>
#include <string>

#include "pcv/core/point_filter.hpp"
#include "pcv/io/copc_writer.hpp"
#include "viewer/tools/filter/filter_tool.hpp"

namespace pcv::app {

struct FilterSectionActions {
  std::optional<std::string> rangeAttribute;  ///< another range attribute chosen ("" for none)
  std::optional<std::string> exportTo;        ///< "Export selection" pressed, to this path
  bool cancelExport = false;
};

/// `progress`: the export running, or null; `outcome`: what the last one did (may be empty).
FilterSectionActions drawFilterSection(PointFilter& filter, FilterPanel& panel,
                                       const CopcWriteProgress* progress,
                                       const std::string& outcome);

}  // namespace pcv::app
