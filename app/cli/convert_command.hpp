/// @brief `pcv convert IN... OUT.las|OUT.laz|OUT.copc.laz [--point-format N]`: writes LAS, LAZ
/// or COPC from any files pcv reads, merged (LAS and LAZ records are copied exactly); `pcv
/// convert --points N --seed S OUT` writes the demo cylinders, generated in slices so any N fits
/// in memory. COPC is built out of core under `--memory`, with temporary files in `--tmp`.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace pcv::app {

void addConvertCommand(CLI::App& cli);

}  // namespace pcv::app
