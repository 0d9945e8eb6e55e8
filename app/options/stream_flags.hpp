/// @brief The flags of a streamed COPC cloud (--point-budget, --gpu-memory, --memory,
/// --in-core), shared by `pcv view` and `pcv render`, written into the session's StreamLimits.
#pragma once

#include <CLI/CLI.hpp>

#include "pcv/session/stream_limits.hpp"

namespace pcv::app {

void addStreamFlags(CLI::App& command, StreamLimits& flags);

/// The flags of reading datasets and URLs (--http-connections, --http-timeout, --tile-origins,
/// --skip-bad-tiles), part of addStreamFlags; alone for commands that read headers only
/// (`pcv info`).
void addRemoteFlags(CLI::App& command, StreamLimits& flags);

/// --stream-time-limit: how long a command that draws a still view (render, bench) waits for a
/// streamed scene to converge before it draws what is there.
void addStreamTimeLimit(CLI::App& command, double& seconds);

}  // namespace pcv::app
