/// @brief A text field bound to a std::string, for the sidebar's sections (the tools' export
/// paths, the Data section's Open field): ImGui 1.86 edits char buffers.
#pragma once

#include <string>

namespace pcv::app {

/// The field labelled `label` editing `text` (paths fit its 4 KiB); true when Enter was pressed
/// in it.
bool inputString(const char* label, std::string& text);

}  // namespace pcv::app
