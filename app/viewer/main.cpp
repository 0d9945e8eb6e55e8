// pcv-view: the interactive viewer, an executable of its own so that the headless pcv links no
// GLFW, ImGui or X11. `pcv`, `pcv view ...` and `pcv FILE...` run it as `pcv view ...`;
// `pcv-view [OPTIONS] [FILE...]` works as well.
#include <cstring>
#include <vector>

#include <CLI/CLI.hpp>

#include "options/command_line.hpp"
#include "viewer/view_command.hpp"

int main(int argc, char** argv) {
  CLI::App cli{"pcv-view - the interactive point cloud viewer of pcv"};
  cli.require_subcommand(1, 1);
  pcv::app::addViewCommand(cli);
  std::vector<char*> arguments(argv, argv + argc);
  char view[] = "view";
  if (argc < 2 || std::strcmp(argv[1], "view") != 0) arguments.insert(arguments.begin() + 1, view);
  return pcv::app::runCommandLine(cli, int(arguments.size()), arguments.data());
}
