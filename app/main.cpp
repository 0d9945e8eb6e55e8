// pcv: the command line. Subcommands are thin wrappers over the library; with no subcommand the
// viewer opens (when built with it), as the seed's demo does.
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pcv/core/error.hpp"
#include "bench_command.hpp"
#include "compare_command.hpp"
#include "convert_command.hpp"
#include "info_command.hpp"
#include "render_command.hpp"
#if PCV_WITH_VIEWER
#include "viewer/view_command.hpp"
#endif

int main(int argc, char** argv) {
  CLI::App cli{"pcv - a real-time point cloud viewer with a CUDA software rasterizer"};
  cli.require_subcommand(0, 1);
  pcv::app::addRenderCommand(cli);
  pcv::app::addBenchCommand(cli);
#if PCV_WITH_VIEWER
  pcv::app::addViewCommand(cli);
#endif
  pcv::app::addInfoCommand(cli);
  pcv::app::addCompareCommand(cli);
  pcv::app::addConvertCommand(cli);
  // `pcv FILE...` opens the viewer on the files, as `pcv view FILE...` does.
  std::vector<std::string> files;
#if PCV_WITH_VIEWER
  cli.add_option("files", files, "Point cloud files to open in the viewer");
#endif
  try {
    cli.parse(argc, argv);
    if (cli.get_subcommands().empty()) {
#if PCV_WITH_VIEWER
      pcv::app::runDefaultViewer(files);
#else
      std::fputs(cli.help().c_str(), stdout);
#endif
    }
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
