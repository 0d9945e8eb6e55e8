// pcv: the headless command line. Subcommands are thin wrappers over the library and link no
// GLFW, ImGui or X11, so they run on a server without a display. With no subcommand, with `view`
// or with a file, the viewer opens, as the seed's demo does: pcv-view, beside this executable,
// takes the command line over.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench_command.hpp"
#include "classify_command.hpp"
#include "compare_command.hpp"
#include "convert_command.hpp"
#include "info_command.hpp"
#include "profile_command.hpp"
#include "render_command.hpp"
#if PCV_WITH_SERVER
#include "server/serve_command.hpp"
#endif
#include "unknown_command.hpp"
#include "options/command_line.hpp"
#include "options/run_report.hpp"
#include "pcv/raster/renderer.hpp"
#include "viewer_launcher.hpp"
#include "vpc_command.hpp"

namespace {

/// What `pcv --help` says after the commands: where the viewer's options are, the main ones,
/// and its keys.
constexpr const char* kViewerHelp = R"(
pcv [OPTIONS] [FILE...] is pcv view: the viewer on the files, or on the seed's 10 M cylinder
points. Its main options (pcv view --help lists them all):
  --backend auto|cuda|cpu        --size WxH                    --up z|y (Y-up models)
  --eye x,y,z --yaw D --pitch D  --near N --far F              --method compact|...
  --color rgb|elevation|intensity|classification  --color-attribute NAME
  --point-size N  --edl on|off|auto  --hq         --clip-box x0,y0,z0,x1,y1,z1
In the window: W A S D E Q fly, Escape mouselook, Tab orbit, double-click focus, Home frames
the scene, M measure, X clip box, C copy view (as a pcv render command), B bookmark, F12
screenshot; files dropped on the window open (Shift adds them).)";

/// True when the arguments are the viewer's: `view ...`, none, a file, or a viewer option.
bool opensTheViewer(int argc, char** argv, const CLI::App& cli) {
  if (argc < 2) return true;
  const std::string first = argv[1];
  if (first == "view") return true;
  if (first == "-h" || first == "--help" || first == "--version") return false;
  for (const CLI::App* command : cli.get_subcommands({})) {
    if (command->get_name() == first) return false;
  }
  return true;
}

/// The commands' names, for the answer to a mistyped one.
std::vector<std::string> commandNames(const CLI::App& cli) {
  std::vector<std::string> names;
  for (const CLI::App* command : cli.get_subcommands({})) names.push_back(command->get_name());
  return names;
}

/// `pcv --version`: the version and the backends this build holds (a device need not be present).
std::string versionText() {
  std::string text = std::string("pcv ") + PCV_VERSION + "\nbackends:";
  for (const std::string& backend : pcv::builtBackends()) text += " " + backend;
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"pcv - a real-time point cloud viewer with a CUDA software rasterizer"};
  cli.require_subcommand(0, 1);
  cli.set_version_flag("--version", versionText());
  pcv::app::addRenderCommand(cli);
  pcv::app::addBenchCommand(cli);
  // Listed here for --help; pcv-view parses its options.
  cli.add_subcommand("view", "Open the interactive viewer (the default; runs pcv-view)");
  cli.footer(kViewerHelp);
  pcv::app::addInfoCommand(cli);
  pcv::app::addCompareCommand(cli);
  pcv::app::addConvertCommand(cli);
  pcv::app::addClassifyCommand(cli);
#if PCV_WITH_SERVER
  pcv::app::addServeCommand(cli);
#endif
  pcv::app::addVpcCommand(cli);
  pcv::app::addProfileCommand(cli);
  // `pcv`, `pcv FILE...` and `pcv --size 1920x1080 FILE` are `pcv view ...`; `pcv rendr f.las`
  // is a typo, not a file named rendr.
  if (opensTheViewer(argc, argv, cli)) {
    if (argc > 1 && std::strcmp(argv[1], "view") != 0 && pcv::app::looksLikeCommand(argv[1])) {
      std::fprintf(stderr, "pcv: error: %s\n",
                   pcv::app::unknownCommandMessage(argv[1], commandNames(cli)).c_str());
      return pcv::app::kUsageStatus;
    }
    const int skipped = argc > 1 && std::strcmp(argv[1], "view") == 0 ? 2 : 1;
    const std::vector<std::string> viewerArguments(argv + skipped, argv + argc);
    return pcv::app::runViewerExecutable(argv[0], viewerArguments);
  }
  return pcv::app::runCommandLine(cli, argc, argv, pcv::app::writeRunReport);
}
