/// @brief The point filter flags `pcv render`, `pcv bench`, `pcv view` and `pcv convert` share
/// (--classes, --exclude-classes, --returns, --range), parsed into a PointFilter in one place.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pcv/core/point_filter.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/session/stream_limits.hpp"

namespace pcv::app {

/// The flags as typed; empty means "not given".
struct FilterFlags {
  std::string classes;              ///< --classes 2,6,9-12
  std::string excludeClasses;       ///< --exclude-classes 7,18
  std::string returns;              ///< --returns first|last|only|N
  std::vector<std::string> ranges;  ///< --range NAME=MIN:MAX, repeatable
};

/// Adds the flags to `command`, writing into `flags` (which must outlive parsing).
void addFilterFlags(CLI::App& command, FilterFlags& flags);

/// Checks and converts the flags; throws InputError naming the flag, the text and the fault.
PointFilter pointFilterFrom(const FilterFlags& flags);

/// Asks the scene for what `filter` reads (filter data, its range attribute) when it filters
/// anything. Throws InputError for more than one range (the renderer tests one per frame).
void requestFilterData(const PointFilter& filter, StreamLimits& stream);

/// Throws InputError naming the attribute when the scene's points read whole lack one the
/// filter reads (a streamed scene's nodes are checked as they come: they draw nothing).
void checkSceneFilterable(const PointFilter& filter, const Scene& scene);

}  // namespace pcv::app
