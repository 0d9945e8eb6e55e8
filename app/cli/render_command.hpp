/// @brief `pcv render`: draws a scene headless and writes a PNG.
#pragma once

#include <CLI/CLI.hpp>

namespace pcv::app {

/// Adds the `render` subcommand to `cli`; its callback does the work.
void addRenderCommand(CLI::App& cli);

}  // namespace pcv::app
