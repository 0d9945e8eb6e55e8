/// @brief The session's report on the terminal ("pcv: " lines and progress bars on stderr) and
/// the COPC cache conversion (convertFilesToCopc with a progress bar and Ctrl+C): what `pcv render`
/// and `pcv view` give the session layer.
#pragma once

#include <string>
#include <vector>

#include "pcv/session/scene.hpp"

namespace pcv::app {

/// reportOnStderr(), with progress as a terminal bar.
SessionReport terminalReport();

/// Converts `inputs` to the COPC cache `output` as `pcv convert` does (a progress bar unless
/// `quiet`; Ctrl+C removes what was written).
void convertToCopcCache(const std::vector<std::string>& inputs, const std::string& output,
                        bool quiet = false);

}  // namespace pcv::app
