/// @brief `pcv view`, `pcv FILE...` and `pcv` alone: the headless pcv hands its command line to
/// pcv-view, the windowed executable beside it, so that pcv itself links no GLFW, ImGui or X11.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pcv::app {

/// Exit status when pcv-view is not beside pcv (the shell's "command not found").
constexpr int kViewerMissingStatus = 127;
/// Exit status when pcv-view is there but cannot be started (the shell's "cannot execute").
constexpr int kViewerNotExecutableStatus = 126;

/// Where pcv-view is looked for: the folder of the running executable (/proc/self/exe).
std::filesystem::path viewerExecutablePath();

/// Replaces this process with pcv-view, run as `programName view ARGUMENTS...` so that its help
/// and messages read as pcv's. Returns only when pcv-view cannot be started, after saying why on
/// stderr, with the exit status to end with.
int runViewerExecutable(const std::string& programName, const std::vector<std::string>& arguments);

}  // namespace pcv::app
