/// @brief A recolouring of some of a node's points after the stream's colouring (a selection
/// drawn highlighted): `colored[i]` is point i of `cloud`, and may be the cloud's own points
/// (coloured in place), so a tint reads positions and attributes, not the file's colours.
/// Called on the loader's threads.
#pragma once

#include <functional>
#include <span>

#include "pcv/core/point.hpp"
#include "pcv/core/point_cloud.hpp"

namespace pcv {

using NodeTint = std::function<void(const PointCloud& cloud, std::span<Point> colored)>;

}  // namespace pcv
