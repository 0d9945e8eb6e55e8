#include "pcv/raster/raster_method.hpp"

#include "pcv/core/point.hpp"
#include "shared/compact_points.hpp"

namespace pcv {
namespace {

constexpr NamedValue<RasterMethod> kMethodRows[] = {{"compact", RasterMethod::Compact},
                                                    {"earlyz", RasterMethod::EarlyZ},
                                                    {"packed", RasterMethod::Packed},
                                                    {"seed", RasterMethod::Seed}};

}  // namespace

const NameTable<RasterMethod>& methodTable() {
  static const NameTable<RasterMethod> table{"method", kMethodRows};
  return table;
}

const char* methodName(RasterMethod method) {
  return methodTable().name(method);
}

const std::vector<RasterMethod>& allMethods() {
  static const std::vector<RasterMethod> methods = [] {
    std::vector<RasterMethod> all;
    for (const NamedValue<RasterMethod>& row : kMethodRows) all.push_back(row.value);
    return all;
  }();
  return methods;
}

std::vector<std::string> methodNames() {
  return methodTable().names();
}

RasterMethod parseMethod(std::string_view name) {
  return methodTable().parse(name);
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
