#include "read_flags.hpp"

namespace pcv::app {

void addReadFlags(CLI::App& command, ReadFlags& flags) {
  command
      .add_option("--scan", flags.scan,
                  "E57 files: read only this scan (0-based, as pcv info lists them); "
                  "default: every scan, merged with its pose")
      ->check(CLI::Range(int64_t(0), int64_t(UINT32_MAX)));
}

ReadOptions readOptionsFrom(const ReadFlags& flags) {
  ReadOptions options;
  if (flags.scan >= 0) options.scan = uint32_t(flags.scan);
  return options;
}

}  // namespace pcv::app
