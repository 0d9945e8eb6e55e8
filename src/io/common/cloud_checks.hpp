/// @brief The rules every format shares once its points are decoded: points with NaN or
/// infinite coordinates are dropped, and colours that carry no information (all black: a point
/// format with colour fields nobody wrote) are not shown as colours.
#pragma once

#include <cstdint>

#include "pcv/core/point_cloud.hpp"

namespace pcv::io {

/// Removes points with a NaN or infinite coordinate (and their attribute values); returns how
/// many were removed.
uint64_t dropNonFinitePoints(PointCloud& cloud);

/// True when the cloud has colours and every point's RGB is 0: the file's colour fields were
/// never written.
bool colorsAreAllBlack(const PointCloud& cloud);

}  // namespace pcv::io
