/// @brief Parsing a front end's command line and turning what it throws into the exit status:
/// pcv and pcv-view answer bad input alike (1 with "pcv: error: ...", 2 for the unexpected).
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace pcv::app {

/// Parses `argv` with `cli` (which runs the chosen command's callback), then `afterParse` when
/// given; returns the process's exit status: CLI11's for parse errors and --help, 1 for
/// pcv::Error (said on stderr), 2 for any other exception.
int runCommandLine(CLI::App& cli, int argc, char** argv,
                   const std::function<void()>& afterParse = {});

}  // namespace pcv::app
