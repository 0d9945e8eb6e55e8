#include "pcv/session/declared_crs.hpp"

#include "pcv/core/error.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv {

CoordinateSystem declaredCoordinateSystem(const std::vector<std::string>& files) {
  try {
    const auto remote = [](const std::string& path) {
      return path.find("://") != std::string::npos;
    };
    if (files.empty() || remote(files.front())) return {};
    const std::vector<std::string> first = expandTilePaths({files.front()});
    if (first.empty() || remote(first.front())) return {};
    CoordinateSystem crs = describePointFile(first.front()).crs;
    completeFromDatabase(crs);
    return crs;
  } catch (const Error&) {
    return {};
  }
}

}  // namespace pcv
