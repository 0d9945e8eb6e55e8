// pcv: the command line. Subcommands are thin wrappers over the library; with no subcommand the
// viewer opens (when built with it), as the seed's demo does, and takes the viewer's options.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pcv/core/error.hpp"
#include "bench_command.hpp"
#include "compare_command.hpp"
#include "convert_command.hpp"
#include "info_command.hpp"
#include "render_command.hpp"
#include "vpc_command.hpp"
#if PCV_WITH_VIEWER
#include "viewer/view_command.hpp"
#endif

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

/// True when the first argument names no command (none, a file, or a viewer option): the
/// arguments go to `pcv view`.
bool startsWithoutCommand(int argc, char** argv, const CLI::App& cli) {
  if (argc < 2) return true;
  const std::string first = argv[1];
  if (first == "-h" || first == "--help") return false;
  for (const CLI::App* command : cli.get_subcommands({})) {
    if (command->get_name() == first) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"pcv - a real-time point cloud viewer with a CUDA software rasterizer"};
  cli.require_subcommand(0, 1);
  pcv::app::addRenderCommand(cli);
  pcv::app::addBenchCommand(cli);
#if PCV_WITH_VIEWER
  pcv::app::addViewCommand(cli);
  cli.footer(kViewerHelp);
#endif
  pcv::app::addInfoCommand(cli);
  pcv::app::addCompareCommand(cli);
  pcv::app::addConvertCommand(cli);
  pcv::app::addVpcCommand(cli);
  std::vector<char*> arguments(argv, argv + argc);
#if PCV_WITH_VIEWER
  // `pcv`, `pcv FILE...` and `pcv --size 1920x1080 FILE` are `pcv view ...`.
  char view[] = "view";
  if (startsWithoutCommand(argc, argv, cli)) arguments.insert(arguments.begin() + 1, view);
#endif
  try {
    cli.parse(int(arguments.size()), arguments.data());
    if (cli.get_subcommands().empty()) std::fputs(cli.help().c_str(), stdout);  // no viewer
  } catch (const CLI::ParseError& error) {
    return cli.exit(error);
  } catch (const pcv::Error& error) {
    std::fprintf(stderr, "pcv: error: %s\n", error.what());
    return 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "pcv: unexpected error: %s\n", error.what());
    return 2;
  }
  return 0;
}
