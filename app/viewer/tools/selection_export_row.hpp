/// @brief The export row of the sections that export a selection (Filters, Polygon): a path and
/// "Export selection...", or the running export's progress and Cancel.
#pragma once

#include <optional>
#include <string>

#include "pcv/io/copc_writer.hpp"

namespace pcv::app {

/// What the row was asked for this frame.
struct SelectionExportActions {
  std::optional<std::string> exportTo;  ///< "Export selection" pressed, to this path
  bool cancelExport = false;
};

/// The row for `path` (edited in place); `progress`: the export running, or null; `outcome`:
/// what the last one did (may be empty).
void drawSelectionExportRow(std::string& path, const CopcWriteProgress* progress,
                            const std::string& outcome, SelectionExportActions& actions);

}  // namespace pcv::app
