#include "layer_map.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <stdexcept>

namespace pcv::architecture {
namespace {

const std::set<std::string> kLibraries = {"core", "cuda",    "octree",       "demo",
                                          "io",   "io_cuda", "raster",       "stream",
                                          "gl",   "process", "process_cuda", "session"};

std::set<std::string> librariesAnd(std::set<std::string> more) {
  more.insert(kLibraries.begin(), kLibraries.end());
  return more;
}

/// System headers that only some layers may include.
struct SystemHeaderFamily {
  const char* what;
  std::regex header;  ///< matched against the path inside <...>
  std::set<std::string> layers;
};

const std::vector<SystemHeaderFamily>& systemHeaderFamilies() {
  static const std::vector<SystemHeaderFamily> families = {
      // The rasterizer never includes a GL header; the headless commands need none.
      {"a GL, GLFW, epoxy, EGL or ImGui header",
       std::regex(R"(^(GL/|GLES|GLFW/|epoxy/|EGL/|KHR/|imgui|backends/imgui))"),
       {"gl", "viewer", "viewer_input", "viewer_tools", "viewer_panels", "python_window"}},
      {"a CUDA header",
       std::regex(R"(^(cuda[_a-z0-9]*\.h|cuda/|cub/|thrust/|nccl\.h|curand|cooperative_groups)"
                  R"(|device_launch_parameters\.h|vector_types\.h))"),
       {"cuda", "raster", "demo", "gl", "octree", "io_cuda", "process_cuda"}},
      // The option groups the front ends parse with, the viewer's `pcv view` command
      // (viewer/view_command.hpp) and `pcv serve` (server/serve_command.hpp).
      {"CLI11", std::regex(R"(^CLI/)"), {"options", "cli", "main", "viewer", "server"}},
      // Open MPI ranks share `pcv convert --tiles`: the headless commands alone, so that neither
      // the libraries nor the viewer depend on it.
      {"an MPI header", std::regex(R"(^(mpi\.h|mpi_[a-z_]+\.h|mpi/|openmpi/))"), {"cli"}},
      // FFmpeg's libraries stay inside the video writer, an optional part of the build.
      // Asio, Beast and OpenSSL serve the page and the frames: the server alone.
      {"a Boost or OpenSSL header", std::regex(R"(^(boost/|openssl/))"), {"server"}},
      {"an FFmpeg header",
       std::regex(R"(^lib(avcodec|avformat|avutil|swscale|swresample)/)"),
       {"video"}},
  };
  return families;
}

bool isAppLayer(const std::string& layer) {
  return layer == "options" || layer == "cli" || layer == "main" || layer == "viewer" ||
         layer == "viewer_input" || layer == "viewer_tools" || layer == "viewer_panels" ||
         layer == "camera" || layer == "server";
}

/// Headers in a tool's own folder (app/viewer/tools/<tool>/: its section, overlay and state).
/// Their files are the viewer_tools layer's; an include of one is told apart from an include of
/// the tools' shared plumbing (app/viewer/tools/*.hpp), which the panels may use.
constexpr const char* kToolFolders = "viewer_tool_folders";

/// The viewer's sub-layer an include under "viewer/" names: a tool's folder, the tools' plumbing,
/// the panels, the camera rig and input script below them, or the window's own files.
std::string viewerSubLayer(const std::string& path) {
  static const std::regex toolFolder(R"(^viewer/tools/[A-Za-z0-9_]+/)");
  if (std::regex_search(path, toolFolder)) return kToolFolders;
  if (path.starts_with("viewer/tools/")) return "viewer_tools";
  if (path.starts_with("viewer/panels/")) return "viewer_panels";
  if (path.starts_with("viewer/input/")) return "viewer_input";
  return "viewer";
}

/// The layer whose private sources hold `header` (a path relative to src/<layer>/, which that
/// layer's target has on its include path: io_cuda's "laz/chunk_decoder.hpp" is io's), the
/// including layer's own first; "" when no library layer's folder has it, or `file` lies
/// outside src/.
std::string privateHeaderLayer(const std::string& header, const std::filesystem::path& file,
                               const std::string& layer) {
  // The source root: the folder whose src/<layer>/ holds `file`.
  std::filesystem::path root;
  for (std::filesystem::path dir = file.parent_path(); dir.has_relative_path();
       dir = dir.parent_path()) {
    if (dir.filename() == "src") {
      if (file.string().starts_with((dir / layer).string() + "/")) root = dir.parent_path();
      break;
    }
  }
  if (root.empty()) return "";
  std::vector<std::string> candidates{layer};
  candidates.insert(candidates.end(), kLibraries.begin(), kLibraries.end());
  for (const std::string& candidate : candidates) {
    if (std::filesystem::is_regular_file(root / "src" / candidate / header)) return candidate;
  }
  return "";
}

/// The layer a project include names, or "" for a header of the including file's own folder.
/// "pcv/<layer>/..." names a library layer; in src/, another quoted path names the layer whose
/// private folder holds it. In app/, "viewer/..." (its sub-layers: viewerSubLayer), "options/..."
/// and "cli/..." name their folders, and a bare name not beside the file is a CLI header
/// (app/cli is on the include path of what links pcv_cli).
std::string includedLayer(const std::string& line, const std::filesystem::path& file,
                          const std::string& layer) {
  static const std::regex library(R"(^\s*#\s*include\s*["<]pcv/([a-z_]+)/)");
  static const std::regex appFolder(R"re(^\s*#\s*include\s*"((viewer|options|cli|camera|server)/[^"]*)")re");
  static const std::regex bare(R"re(^\s*#\s*include\s*"([A-Za-z0-9_.]+)")re");
  static const std::regex quoted(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::smatch match;
  if (std::regex_search(line, match, library)) return match[1];
  if (!isAppLayer(layer)) {
    if (!std::regex_search(line, match, quoted)) return "";
    if (std::filesystem::exists(file.parent_path() / match[1].str())) return "";
    return privateHeaderLayer(match[1], file, layer);
  }
  if (std::regex_search(line, match, appFolder)) {
    return match[2] == "viewer" ? viewerSubLayer(match[1]) : match[2].str();
  }
  if (std::regex_search(line, match, bare)) {
    if (std::filesystem::exists(file.parent_path() / match[1].str())) return "";
    return "cli";
  }
  return "";
}

std::string systemHeaderViolation(const std::string& line, const std::string& layer) {
  static const std::regex system(R"(^\s*#\s*include\s*<([^>]+)>)");
  std::smatch match;
  if (!std::regex_search(line, match, system)) return "";
  const std::string header = match[1];
  for (const SystemHeaderFamily& family : systemHeaderFamilies()) {
    if (std::regex_search(header, family.header) && !family.layers.contains(layer)) {
      return std::string(family.what) + " outside the layers that may use it";
    }
  }
  return "";
}

}  // namespace

const std::vector<Layer>& layers() {
  static const std::vector<Layer> all = {
      {"core", {"include/pcv/core", "src/core"}, false, {"core"}},
      {"cuda", {"include/pcv/cuda", "src/cuda"}, false, {"core", "cuda"}},
      {"octree", {"include/pcv/octree", "src/octree"}, false, {"core", "cuda", "octree"}},
      {"demo", {"include/pcv/demo", "src/demo"}, false, {"core", "cuda", "demo"}},
      {"io", {"include/pcv/io", "src/io"}, false, {"core", "octree", "io"}},
      // io's GPU part (LAZ chunks decoded on the device), beside io so that io has no CUDA.
      {"io_cuda",
       {"include/pcv/io_cuda", "src/io_cuda"},
       false,
       {"core", "cuda", "octree", "io", "io_cuda"}},
      {"raster", {"include/pcv/raster", "src/raster"}, false, {"core", "cuda", "raster"}},
      {"stream",
       {"include/pcv/stream", "src/stream"},
       false,
       {"core", "cuda", "octree", "io", "raster", "stream"}},
      {"gl", {"include/pcv/gl", "src/gl"}, false, {"core", "cuda", "raster", "gl"}},
      // Algorithms over points (ground and noise classification): over core alone, so that
      // every front end and the session layer can run them on points from anywhere.
      {"process", {"include/pcv/process", "src/process"}, false, {"core", "process"}},
      // process's GPU part (the same classes found on the device), beside process so that
      // process has no CUDA; its kernels share process's per-point arithmetic.
      {"process_cuda",
       {"include/pcv/process_cuda", "src/process_cuda"},
       false,
       {"core", "cuda", "process", "process_cuda"}},
      {"session",
       {"include/pcv/session", "src/session"},
       false,
       {"core", "cuda", "io", "demo", "raster", "stream", "octree", "process", "process_cuda",
        "session"}},
      // What both front ends share (option groups, --report, the render command's text, the
      // terminal's report and COPC cache conversion): the library layers, neither front end.
      {"options", {"app/options"}, false, librariesAnd({"options"})},
      // Frames to a video file (FFmpeg): the headless side's, over core alone.
      {"video", {"include/pcv/video", "src/video"}, false, {"core", "video"}},
      // The headless commands: every library layer, the shared options and the video writer,
      // never the viewer.
      {"cli", {"app/cli"}, false, librariesAnd({"options", "cli", "video"})},
      {"main", {"app"}, true, librariesAnd({"options", "cli", "main", "video", "server"})},
      // The camera rig and its controllers: what the viewer's window and the server's browsers
      // both move their views with, over the library layers alone.
      {"camera", {"app/camera"}, false, librariesAnd({"camera"})},
      // pcv serve: HTTP, the WebSocket, the page and the per-browser views (Boost.Beast), over
      // the library layers, the shared options and the camera rig; never the viewer's window.
      {"server", {"app/server"}, false, librariesAnd({"options", "camera", "server"})},
      // The window (its loop, input routing, commands): the library layers, the shared options,
      // its panels, the tools' plumbing and the input below them; never the headless commands,
      // nor a tool's own folder (tools plug in through standard_tools).
      {"viewer",
       {"app/viewer"},
       true,
       librariesAnd(
           {"options", "camera", "viewer", "viewer_input", "viewer_panels", "viewer_tools"})},
      // What the window and the tools both drive the view with (the camera rig and its
      // controllers, the input script): below both, so that no tool includes the window's files
      // (the window includes the tools: that would be a folder cycle).
      {"viewer_input", {"app/viewer/input"}, false, librariesAnd({"camera", "viewer_input"})},
      // The tools: each in its folder (tools/<tool>/, its section, overlay and state) over the
      // shared plumbing in tools/ and the input below; they draw their own ImGui and never
      // include the panels nor the window.
      {"viewer_tools",
       {"app/viewer/tools"},
       false,
       librariesAnd({"options", "camera", "viewer_input", "viewer_tools", kToolFolders})},
      // The window's own panels (sidebar, data, rendering, legend): the tools' plumbing (the
      // tool list the sidebar draws, the text field), never a tool's folder.
      {"viewer_panels",
       {"app/viewer/panels"},
       false,
       librariesAnd({"options", "camera", "viewer_input", "viewer_panels", "viewer_tools"})},
      // The Python module: a front end beside app/, over the library layers, never the CLI.
      {"python", {"python/src"}, false, librariesAnd({"python"})},
      // pcv.window: the seed's window, screen buffer and GL buffers in CUDA for Python programs.
      {"python_window", {"python/window"}, false, librariesAnd({"python_window"})},
  };
  return all;
}

const Layer& layerNamed(const std::string& name) {
  for (const Layer& layer : layers()) {
    if (layer.name == name) return layer;
  }
  throw std::out_of_range("no layer " + name);
}

std::vector<std::string> includeViolations(const std::filesystem::path& file,
                                           const std::string& layer) {
  const std::set<std::string>& allowed = layerNamed(layer).mayInclude;
  std::vector<std::string> found;
  std::ifstream in(file);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::string why = systemHeaderViolation(line, layer);
    const std::string target = includedLayer(line, file, layer);
    if (!target.empty() && !allowed.contains(target)) {
      why = "the " + target + " layer from the " + layer + " layer";
    }
    if (!why.empty()) {
      found.push_back(file.string() + ":" + std::to_string(number) + ": " + line + " (" + why +
                      ")");
    }
  }
  return found;
}

std::vector<std::string> unknownFolders(const std::filesystem::path& root) {
  std::set<std::filesystem::path> known;
  for (const Layer& layer : layers()) {
    for (const std::string& folder : layer.folders) known.insert(root / folder);
  }
  std::vector<std::string> unknown;
  // app/viewer's folders are sub-layers: one left out of the map would go unchecked.
  for (const char* parent : {"include/pcv", "src", "app", "app/viewer"}) {
    if (!std::filesystem::is_directory(root / parent)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(root / parent)) {
      if (entry.is_directory() && !known.contains(entry.path())) {
        unknown.push_back(entry.path().string());
      }
    }
  }
  std::sort(unknown.begin(), unknown.end());
  return unknown;
}

std::vector<std::pair<std::filesystem::path, std::string>> layerFiles(
    const std::filesystem::path& root) {
  std::vector<std::pair<std::filesystem::path, std::string>> files;
  for (const Layer& layer : layers()) {
    for (const std::string& folder : layer.folders) {
      const std::filesystem::path dir = root / folder;
      if (!std::filesystem::is_directory(dir)) continue;
      if (layer.topLevelOnly) {
        for (const auto& entry : std::filesystem::directory_iterator(dir)) {
          if (entry.is_regular_file()) files.emplace_back(entry.path(), layer.name);
        }
        continue;
      }
      for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        if (entry.is_regular_file()) files.emplace_back(entry.path(), layer.name);
      }
    }
  }
  return files;
}

std::vector<std::string> foldersMissingFromPage(const std::string& text) {
  std::vector<std::string> missing;
  for (const Layer& layer : layers()) {
    for (const std::string& folder : layer.folders) {
      if (text.find("`" + folder + "`") == std::string::npos) missing.push_back(folder);
    }
  }
  return missing;
}

}  // namespace pcv::architecture
