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

/// `pcv convert INPUTS... OUTPUT.copc.laz [--memory M] [--quiet]`: the same conversion, for the
/// commands that stream what does not fit (copc_cache.hpp). Ctrl+C removes what was written and
/// ends the process by the signal.
void convertToCopc(const std::vector<std::string>& inputs, const std::string& output,
                   uint64_t memoryBytes, bool quiet);

}  // namespace pcv::app
