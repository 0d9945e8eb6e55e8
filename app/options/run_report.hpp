/// @brief `--report FILE`: the figures of a run (points read, what was drawn, how long it took) as
/// JSON for scripts and tests, beside the human messages, which stay as they are.
#pragma once

#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

namespace pcv::app {

/// The figures of this run, one JSON object; commands add to it where they print their messages.
nlohmann::json& runReport();

/// Adds `--report FILE` to `command`: the run's figures as JSON, written when it succeeds ("-":
/// standard output).
void addReportOption(CLI::App& command);

/// True when --report names standard output, so that a command keeps its human text off it.
bool reportGoesToStdout();

/// Forgets --report's path, for a process whose report another one writes (an MPI rank but 0).
void discardRunReport();

/// Writes the report where --report asked, if it was given; throws Error when it cannot.
void writeRunReport();

}  // namespace pcv::app
