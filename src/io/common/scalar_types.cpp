#include "scalar_types.hpp"

namespace pcv::io {

size_t scalarSize(ScalarType type) {
  switch (type) {
    case ScalarType::Int8:
    case ScalarType::UInt8:
      return 1;
    case ScalarType::Int16:
    case ScalarType::UInt16:
      return 2;
    case ScalarType::Int32:
    case ScalarType::UInt32:
    case ScalarType::Float32:
      return 4;
    case ScalarType::Int64:
    case ScalarType::UInt64:
    case ScalarType::Float64:
      return 8;
  }
  return 0;
}

bool isFloatType(ScalarType type) {
  return type == ScalarType::Float32 || type == ScalarType::Float64;
}

const char* scalarTypeName(ScalarType type) {
  return attributeTypeName(type);
}

double loadScalar(const uint8_t* p, ScalarType type, bool bigEndian) {
  switch (type) {
    case ScalarType::Int8:
      return double(int8_t(*p));
    case ScalarType::UInt8:
      return double(*p);
    case ScalarType::Int16:
      return loadInOrder<int16_t>(p, bigEndian);
    case ScalarType::UInt16:
      return loadInOrder<uint16_t>(p, bigEndian);
    case ScalarType::Int32:
      return loadInOrder<int32_t>(p, bigEndian);
    case ScalarType::UInt32:
      return loadInOrder<uint32_t>(p, bigEndian);
    case ScalarType::Int64:
      return double(loadInOrder<int64_t>(p, bigEndian));
    case ScalarType::UInt64:
      return double(loadInOrder<uint64_t>(p, bigEndian));
    case ScalarType::Float32:
      return loadInOrder<float>(p, bigEndian);
    case ScalarType::Float64:
      return loadInOrder<double>(p, bigEndian);
  }
  return 0.0;
}

}  // namespace pcv::io
