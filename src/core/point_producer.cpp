#include "pcv/core/point_producer.hpp"

#include <algorithm>

namespace pcv {

void HostPoints::produce(uint64_t first, std::span<Point> out) const {
  std::copy_n(points_.begin() + first, out.size(), out.begin());
}

}  // namespace pcv
