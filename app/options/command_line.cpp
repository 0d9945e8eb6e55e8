#include "options/command_line.hpp"

#include <cstdio>
#include <exception>

#include "pcv/core/error.hpp"

namespace pcv::app {

int runCommandLine(CLI::App& cli, int argc, char** argv, const std::function<void()>& afterParse) {
  try {
    cli.parse(argc, argv);
    if (afterParse) afterParse();
  } catch (const CLI::ParseError& error) {
    // CLI11 prints the message (or the help) and gives each kind of mistake its own status
    // (105, 106, 109 ...); scripts get one: 2, the shell's "misused", for every option error.
    const int status = cli.exit(error);
    return status == 0 ? 0 : kUsageStatus;
  } catch (const StatusError& error) {
    std::fprintf(stderr, "pcv: error: %s\n", error.what());
    return error.status();
  } catch (const pcv::Error& error) {
    std::fprintf(stderr, "pcv: error: %s\n", error.what());
    return 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "pcv: unexpected error: %s\n", error.what());
    return 2;
  }
  return 0;
}

}  // namespace pcv::app
