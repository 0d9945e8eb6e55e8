// pcv: the command line. Subcommands are thin wrappers over the library.
#include <cstdio>

#include <CLI/CLI.hpp>

#include "pcv/core/error.hpp"
#include "info_command.hpp"
#include "render_command.hpp"

int main(int argc, char** argv) {
  CLI::App cli{"pcv - a real-time point cloud viewer with a CUDA software rasterizer"};
  cli.require_subcommand(0, 1);
  pcv::app::addRenderCommand(cli);
  pcv::app::addInfoCommand(cli);
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return cli.exit(error);
  } catch (const pcv::Error& error) {
    std::fprintf(stderr, "pcv: error: %s\n", error.what());
    return 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "pcv: unexpected error: %s\n", error.what());
    return 2;
  }
  if (cli.get_subcommands().empty()) {
    std::fputs(cli.help().c_str(), stdout);
  }
  return 0;
}
