/// @brief `pcv convert IN... OUT.laz|OUT.las [--point-format N]`: writes LAS or LAZ from any
/// files pcv reads, merged (LAS and LAZ records are copied exactly); `pcv convert --points N
/// --seed S OUT` writes the demo cylinders, generated in slices so any N fits in memory.
#pragma once

#include <CLI/CLI.hpp>

namespace pcv::app {

void addConvertCommand(CLI::App& cli);

}  // namespace pcv::app
