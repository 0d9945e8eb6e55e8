#include "filter_frame.hpp"

#include <cmath>

#include "pcv/core/error.hpp"

namespace pcv {
namespace {

/// The least float >= value (or the largest <= value when `down`), infinities kept.
float floatInward(double value, bool up) {
  float f = float(value);
  if (std::isinf(value)) return f;
  if (up && double(f) < value) f = std::nextafter(f, INFINITY);
  if (!up && double(f) > value) f = std::nextafter(f, -INFINITY);
  return f;
}

}  // namespace

FilterFrame makeFilterFrame(const PointFilter& filter) {
  FilterFrame f{};
  if (!filter.active()) return f;
  if (filter.ranges.size() > 1) {
    throw InputError("the renderer filters by one attribute range at a time; " +
                     std::to_string(filter.ranges.size()) + " were given");
  }
  f.active = 1;
  f.testsClasses = filter.filtersClasses() ? 1u : 0u;
  for (uint32_t c = 0; c < 256; ++c) {
    if (filter.classes.contains(c)) f.classMask[c >> 5] |= 1u << (c & 31);
  }
  switch (filter.returns) {
    case ReturnChoice::Any: f.returns = kAnyReturn; break;
    case ReturnChoice::First: f.returns = kFirstReturn; break;
    case ReturnChoice::Last: f.returns = kLastReturn; break;
    case ReturnChoice::Only: f.returns = kOnlyReturn; break;
    case ReturnChoice::Number: f.returns = kNumberedReturn; break;
  }
  f.returnNumber = filter.returnNumber;
  for (uint32_t returns = 0; returns < 256; ++returns) {
    if (returnChoiceKeeps(f.returns, f.returnNumber, returns & 0xfu, returns >> 4))
      f.returnMask[returns >> 5] |= 1u << (returns & 31);
  }
  if (!filter.ranges.empty()) {
    f.hasRange = 1;
    f.rangeMin = floatInward(filter.ranges[0].min, true);
    f.rangeMax = floatInward(filter.ranges[0].max, false);
  }
  return f;
}

uint32_t filterFieldsRead(const PointFilter& filter) {
  uint32_t fields = filter.filtersClasses() ? 1u : 0u;
  if (filter.filtersReturns()) fields |= 2u;
  if (filter.returns == ReturnChoice::Last || filter.returns == ReturnChoice::Only) fields |= 4u;
  return fields;
}

}  // namespace pcv
