/// @brief `pcv classify IN... (OUT | --in-place) --ground --noise [parameters]`: sets the LAS
/// classification of ground points (SMRF) and isolated points (noise) in LAS, LAZ and COPC
/// files, every other field kept as it was.
#pragma once

#include <CLI/CLI.hpp>

namespace pcv::app {

void addClassifyCommand(CLI::App& cli);

}  // namespace pcv::app
