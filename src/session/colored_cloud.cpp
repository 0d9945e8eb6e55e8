#include "pcv/session/colored_cloud.hpp"

#include "pcv/core/error.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv {

void ColoredCloud::merge(PointCloud&& cloud, bool replace) {
  if (replace) {
    cloud_ = std::move(cloud);
  } else {
    appendPointCloud(cloud_, cloud);
  }
}

void ColoredCloud::clear() {
  hide();
  cloud_ = {};
}

Coloring ColoredCloud::show(const ColoringOptions& coloring, const PointSetOptions& options,
                            std::string* fallbackError,
                            const std::optional<glm::dvec3>& shownOrigin) {
  UninitializedVector<Point> colored;
  Coloring used;
  try {
    used = coloredPoints(cloud_, coloring, colored);
  } catch (const InputError& error) {
    if (!fallbackError) throw;
    *fallbackError = error.what();
    used = coloredPoints(cloud_, ColoringOptions{}, colored);
  }
  if (shownOrigin && *shownOrigin != cloud_.origin) {
    // The shift is added in double and rounded once: near the other origin the offsets stay
    // small, so UTM-sized coordinates keep the precision of the cloud's own offsets.
    const glm::dvec3 shift = cloud_.origin - *shownOrigin;
    for (Point& p : colored) {
      p.x = float(double(p.x) + shift.x);
      p.y = float(double(p.y) + shift.y);
      p.z = float(double(p.z) + shift.z);
    }
  }
  hide();
  PointSetOptions setOptions = options;
  setOptions.hasColor = cloud_.hasColor;
  setOptions.keepSourceOrder = options.keepSourceOrder || filterData_;
  set_ = renderer_.addSet(colored, setOptions);
  shownColoring_ = coloring;
  shownOrigin_ = shownOrigin;
  shownWithOrder_ = setOptions.keepSourceOrder;
  if (filterData_) applyFilterData();
  return used;
}

void ColoredCloud::applyFilterData() {
  const FilterData data = filterDataOf(cloud_.attributes, rangeAttribute_);
  // Points with nothing a filter reads (a PLY of positions) get no arrays: filters draw none.
  if (data.classification.empty() && data.returnNumber.empty() && !data.hasRangeValues()) return;
  renderer_.setFilterData(*set_, data);
}

void ColoredCloud::setFilterData(bool keep, const std::string& rangeAttribute) {
  filterData_ = keep;
  rangeAttribute_ = rangeAttribute;
  if (!keep || !set_) return;
  if (shownWithOrder_) {
    applyFilterData();
    return;
  }
  // The set shown cannot place per-point values: lay it out again, keeping its order.
  std::string fallback;  // the colouring in effect already had its fallback decided
  show(*shownColoring_, {.keepSourceOrder = true}, &fallback, shownOrigin_);
}

void ColoredCloud::hide() {
  if (set_) renderer_.removeSet(*set_);
  set_.reset();
}

}  // namespace pcv
