#include "pcv/raster/raster_method.hpp"

#include "pcv/core/error.hpp"
#include "pcv/core/point.hpp"
#include "shared/compact_points.hpp"

namespace pcv {

const char* methodName(RasterMethod method) {
  switch (method) {
    case RasterMethod::Compact:
      return "compact";
    case RasterMethod::EarlyZ:
      return "earlyz";
    case RasterMethod::Packed:
      return "packed";
    case RasterMethod::Seed:
      return "seed";
  }
  return "?";
}

const std::vector<RasterMethod>& allMethods() {
  static const std::vector<RasterMethod> methods = {RasterMethod::Compact, RasterMethod::EarlyZ,
                                                    RasterMethod::Packed, RasterMethod::Seed};
  return methods;
}

std::vector<std::string> methodNames() {
  std::vector<std::string> names;
  for (RasterMethod method : allMethods()) names.emplace_back(methodName(method));
  return names;
}

RasterMethod parseMethod(std::string_view name) {
  std::string known;
  for (RasterMethod method : allMethods()) {
    if (name == methodName(method)) return method;
    known += (known.empty() ? "" : ", ") + std::string(methodName(method));
  }
  throw InputError("unknown method '" + std::string(name) + "'; known methods: " + known);
}

double bytesReadPerPoint(RasterMethod method) {
  switch (method) {
    case RasterMethod::Compact:
      return 4.0 + double(sizeof(Batch)) / kBatchSize;  // the word, and the batch's share
    case RasterMethod::EarlyZ:
    case RasterMethod::Packed:
      return double(sizeof(Point));
    case RasterMethod::Seed:
      return 2.0 * sizeof(Point);  // both passes read every point
  }
  return 0.0;
}

}  // namespace pcv
