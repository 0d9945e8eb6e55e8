#include "color_values.hpp"

namespace pcv::io {

double colorScaleFor(ScalarType type, double maxValue) {
  if (type == ScalarType::UInt8 || type == ScalarType::Int8) return 1.0;
  if (isFloatType(type) && maxValue <= 1.0) return 255.0;
  if (maxValue <= 255.0) return 1.0;
  return 255.0 / 65535.0;
}

}  // namespace pcv::io
