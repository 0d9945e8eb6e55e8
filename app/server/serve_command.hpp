/// @brief `pcv serve SOURCES... [--port 8080] [--bind 127.0.0.1]`: the sources opened as
/// `pcv view` opens them, drawn on this machine's GPU for every browser that opens the page.
#pragma once

#include <CLI/CLI.hpp>

namespace pcv::app {

void addServeCommand(CLI::App& cli);

}  // namespace pcv::app
