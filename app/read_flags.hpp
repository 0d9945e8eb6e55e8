/// @brief The file-reading flags `pcv render`, `pcv view` and `pcv info` share (--scan), turned
/// into ReadOptions in one place so the three read files alike.
#pragma once

#include <CLI/CLI.hpp>

#include "pcv/io/point_cloud_reader.hpp"

namespace pcv::app {

/// The flags as typed.
struct ReadFlags {
  int64_t scan = -1;  ///< --scan N: an E57 file's scan N only (0-based); -1 reads every scan
};

/// Adds the flags to `command`, writing into `flags` (which must outlive parsing).
void addReadFlags(CLI::App& command, ReadFlags& flags);

ReadOptions readOptionsFrom(const ReadFlags& flags);

}  // namespace pcv::app
