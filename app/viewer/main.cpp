// pcv-view: the interactive viewer, an executable of its own so that the headless pcv links no
// GLFW, ImGui or X11. `pcv`, `pcv view ...` and `pcv FILE...` run it as `pcv view ...`;
// `pcv-view [OPTIONS] [FILE...]` works as well.
#include <cstdio>
#include <cstring>
#include <vector>

#include <CLI/CLI.hpp>

#include "pcv/core/error.hpp"
#include "viewer/view_command.hpp"

int main(int argc, char** argv) {
  CLI::App cli{"pcv-view - the interactive point cloud viewer of pcv"};
  cli.require_subcommand(1, 1);
  pcv::app::addViewCommand(cli);
  std::vector<char*> arguments(argv, argv + argc);
  char view[] = "view";
  if (argc < 2 || std::strcmp(argv[1], "view") != 0) arguments.insert(arguments.begin() + 1, view);
  try {
    cli.parse(int(arguments.size()), arguments.data());
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
