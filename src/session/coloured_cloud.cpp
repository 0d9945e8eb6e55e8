#include "pcv/session/coloured_cloud.hpp"

#include "pcv/core/error.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv {

void ColouredCloud::merge(PointCloud&& cloud, bool replace) {
  if (replace) {
    cloud_ = std::move(cloud);
  } else {
    appendPointCloud(cloud_, cloud);
  }
}

void ColouredCloud::clear() {
  hide();
  cloud_ = {};
}

Coloring ColouredCloud::show(const ColoringOptions& coloring, const PointSetOptions& options,
                             std::string* fallbackError) {
  UninitializedVector<Point> coloured;
  Coloring used;
  try {
    used = coloredPoints(cloud_, coloring, coloured);
  } catch (const InputError& error) {
    if (!fallbackError) throw;
    *fallbackError = error.what();
    used = coloredPoints(cloud_, ColoringOptions{}, coloured);
  }
  hide();
  PointSetOptions setOptions = options;
  setOptions.hasColor = cloud_.hasColor;
  set_ = renderer_.addSet(coloured, setOptions);
  return used;
}

void ColouredCloud::hide() {
  if (set_) renderer_.removeSet(*set_);
  set_.reset();
}

}  // namespace pcv
