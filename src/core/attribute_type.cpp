#include "pcv/core/attribute_type.hpp"

namespace pcv {

const char* attributeTypeName(AttributeType type) {
  switch (type) {
    case AttributeType::Float32:
      return "float32";
    case AttributeType::Float64:
      return "float64";
    case AttributeType::Int8:
      return "int8";
    case AttributeType::UInt8:
      return "uint8";
    case AttributeType::Int16:
      return "int16";
    case AttributeType::UInt16:
      return "uint16";
    case AttributeType::Int32:
      return "int32";
    case AttributeType::UInt32:
      return "uint32";
    case AttributeType::Int64:
      return "int64";
    case AttributeType::UInt64:
      return "uint64";
  }
  return "float32";
}

}  // namespace pcv
