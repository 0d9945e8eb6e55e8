/// @brief The flags of a streamed COPC cloud (--point-budget, --gpu-memory, --memory,
/// --in-core), shared by `pcv view` and `pcv render`, written into the session's StreamLimits.
#pragma once

#include <CLI/CLI.hpp>

#include "pcv/session/stream_limits.hpp"

namespace pcv::app {

void addStreamFlags(CLI::App& command, StreamLimits& flags);

}  // namespace pcv::app
