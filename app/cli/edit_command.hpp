/// @brief `pcv edit FILES|DIR|VPC [selection] (--set-class N | --delete | --restore)
/// (--in-place | --out PATH)`: edits of points' classes and withheld flags without the window,
/// saved into each LAS, LAZ or COPC file rewriting only what changed; `--log` and `--apply`
/// record and replay them.
#pragma once

#include <CLI/CLI.hpp>

namespace pcv::app {

void addEditCommand(CLI::App& cli);

}  // namespace pcv::app
