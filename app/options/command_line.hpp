/// @brief Parsing a front end's command line and turning what it throws into the exit status:
/// pcv and pcv-view answer bad input alike (1 with "pcv: error: ...", 2 for a mistyped command
/// line and for the unexpected).
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "pcv/core/error.hpp"

namespace pcv::app {

/// Exit status of a command line that does not parse: an unknown option or command, a value
/// that is not a number or not one of the choices (the shell's "misused").
constexpr int kUsageStatus = 2;

/// Exit status when the viewer has no display to open its window on (no X server named).
constexpr int kNoDisplayStatus = 3;

/// An error that ends the process with a status of its own (kNoDisplayStatus ...), so that
/// scripts can tell it from bad input; said on stderr like any pcv::Error.
class StatusError : public Error {
 public:
  StatusError(int status, const std::string& message) : Error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

/// Parses `argv` with `cli` (which runs the chosen command's callback), then `afterParse` when
/// given; returns the process's exit status: 0 for --help and --version, kUsageStatus for parse
/// errors, StatusError's own, 1 for other pcv::Error (said on stderr), 2 for any other exception.
int runCommandLine(CLI::App& cli, int argc, char** argv,
                   const std::function<void()>& afterParse = {});

}  // namespace pcv::app
