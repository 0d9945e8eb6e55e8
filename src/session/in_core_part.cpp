// Files read whole, merged, with their names and bounds kept beside.
#include "pcv/session/in_core_part.hpp"

#include <utility>

namespace pcv {

void InCorePart::add(PointCloud&& cloud, const std::string& path, const Box3d& worldBounds,
                     bool replace) {
  replace = replace || !holds_;
  colored_.merge(std::move(cloud), replace);
  if (replace) {
    files_.clear();
    bounds_ = {};
  }
  if (!path.empty()) files_.push_back(path);
  bounds_.extend(worldBounds);
  holds_ = true;
}

void InCorePart::clear() {
  colored_.clear();
  holds_ = false;
  files_.clear();
  bounds_ = {};
}

std::optional<uint64_t> InCorePart::pickedIndex(const PickedPoint& picked) const {
  if (!colored_.set() || picked.location.set != *colored_.set() || !picked.sourceIndex) {
    return std::nullopt;
  }
  return colored_.cloudIndex(*picked.sourceIndex);
}

}  // namespace pcv
