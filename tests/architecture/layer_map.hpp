/// @brief The layers of pcv, which may use which (dependencies point down), and the checks of a
/// source tree against them: project includes, system headers per layer, unknown folders.
//   core <- cuda <- octree, demo, io <- raster <- stream, gl <- session <- app/options
//                                                   <- app/cli, app/main; <- app/viewer
//   core <- video (FFmpeg) <- app/cli, app/main
// app/camera (the camera rig) <- app/viewer, app/server
// app/viewer: the input (input/: the input script) <- each tool's folder
// (tools/<tool>/) and the tools' plumbing (tools/) <- panels <- the window's files; the tools
// never include the panels nor the window, the panels and the window never a tool's folder
// (standard_tools, in the plumbing, adds the tools).
// In src/, a quoted path in another layer's private folder (io_cuda's "laz/...") is that layer's.
// demo and io sit on core (demo may use the cuda helpers); the renderer knows neither; stream
// draws io's octrees through the renderer; session is what a front end does with sources.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace pcv::architecture {

struct Layer {
  std::string name;
  /// Folders relative to the source root; absent ones are skipped (a layer being added).
  std::vector<std::string> folders;
  /// Only the files directly in the folders (app/main: the entry points beside app/cli).
  bool topLevelOnly = false;
  /// Layers whose headers this one may include (itself among them).
  std::set<std::string> mayInclude;
};

/// Every layer; a folder under include/pcv, src or app that none names is an error.
const std::vector<Layer>& layers();

/// The layer named `name`; throws std::out_of_range for an unknown one.
const Layer& layerNamed(const std::string& name);

/// The include lines of `file` (of layer `layer`) that break a rule, as "file:line: text (why)":
/// a project header of a layer it may not use, or a system header (GL, GLFW, epoxy, EGL, ImGui,
/// CUDA, CLI11) outside the layers that may use it.
std::vector<std::string> includeViolations(const std::filesystem::path& file,
                                           const std::string& layer);

/// Folders directly under include/pcv, src and app of `root` that belong to no layer.
std::vector<std::string> unknownFolders(const std::filesystem::path& root);

/// The folders of the layers that the page `text` (docs/code-layout.md) does not name, each as
/// it would be written there: `src/io`.
std::vector<std::string> foldersMissingFromPage(const std::string& text);

/// Every file of every layer under `root` with its layer.
std::vector<std::pair<std::filesystem::path, std::string>> layerFiles(
    const std::filesystem::path& root);

}  // namespace pcv::architecture
