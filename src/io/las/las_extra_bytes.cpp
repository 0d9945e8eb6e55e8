// Descriptor offsets from LAS 1.4 R15 table 24 ("Extra Bytes Struct"), 192 bytes each.
#include "las_extra_bytes.hpp"

#include <algorithm>
#include <cstring>

#include "common/byte_order.hpp"

namespace pcv::io {
namespace {

constexpr uint64_t kDataType = 2, kOptions = 3, kName = 4, kNoData = 40, kScale = 112,
                   kOffset = 136, kDescription = 160;
constexpr uint8_t kNoDataBit = 1, kScaleBit = 8, kOffsetBit = 16;

/// Types 1-10 in the VLR's numbering; 0 where the code is not one of them.
constexpr ScalarType kTypes[11] = {ScalarType::UInt8,   ScalarType::UInt8,  ScalarType::Int8,
                                   ScalarType::UInt16,  ScalarType::Int16,  ScalarType::UInt32,
                                   ScalarType::Int32,   ScalarType::UInt64, ScalarType::Int64,
                                   ScalarType::Float32, ScalarType::Float64};

/// The "anytype" no-data value: unsigned integers stored as uint64, signed as int64, floats as
/// double.
double anyValue(const uint8_t* p, ScalarType type) {
  if (isFloatType(type)) return loadLe<double>(p);
  switch (type) {
    case ScalarType::Int8:
    case ScalarType::Int16:
    case ScalarType::Int32:
    case ScalarType::Int64:
      return double(loadLe<int64_t>(p));
    default:
      return double(loadLe<uint64_t>(p));
  }
}

void storeAnyValue(uint8_t* p, ScalarType type, double value) {
  if (isFloatType(type)) {
    storeLe(p, value);
  } else if (type == ScalarType::Int8 || type == ScalarType::Int16 || type == ScalarType::Int32 ||
             type == ScalarType::Int64) {
    storeLe(p, int64_t(value));
  } else {
    storeLe(p, uint64_t(value));
  }
}

uint8_t codeOf(ScalarType type) {
  for (uint8_t code = 1; code <= 10; ++code) {
    if (kTypes[code] == type) return code;
  }
  return 10;
}

}  // namespace

std::vector<LasExtraBytes> parseLasExtraBytes(const uint8_t* payload, uint64_t bytes,
                                              uint64_t standardBytes, uint64_t recordLength) {
  std::vector<LasExtraBytes> extras;
  uint64_t at = standardBytes;
  for (uint64_t d = 0; d + kExtraBytesDescriptorSize <= bytes; d += kExtraBytesDescriptorSize) {
    const uint8_t* p = payload + d;
    const uint8_t code = p[kDataType];
    const uint8_t options = p[kOptions];
    uint64_t size = 0;
    if (code == 0) {
      size = options;  // undocumented bytes: the options byte is their count
    } else if (code <= 10) {
      size = scalarSize(kTypes[code]);
    } else if (code <= 30) {
      // Deprecated 2- and 3-element arrays of types 1-10.
      size = scalarSize(kTypes[code <= 20 ? code - 10 : code - 20]) * (code <= 20 ? 2 : 3);
    } else {
      break;  // not a type: nothing after it can be placed
    }
    if (at + size > recordLength) break;
    if (code >= 1 && code <= 10) {
      LasExtraBytes extra{.type = kTypes[code], .recordOffset = uint32_t(at)};
      const char* name = reinterpret_cast<const char*>(p + kName);
      extra.name.assign(name, strnlen(name, 32));
      extra.scaled = (options & (kScaleBit | kOffsetBit)) != 0;
      if (options & kScaleBit) extra.scale = loadLe<double>(p + kScale);
      if (options & kOffsetBit) extra.offset = loadLe<double>(p + kOffset);
      extra.hasNoData = (options & kNoDataBit) != 0;
      if (extra.hasNoData) extra.noData = anyValue(p + kNoData, extra.type);
      const bool named = !extra.name.empty();
      const bool unique = std::none_of(extras.begin(), extras.end(), [&](const LasExtraBytes& e) {
        return e.name == extra.name;
      });
      if (named && unique) extras.push_back(std::move(extra));
    }
    at += size;
  }
  return extras;
}

std::vector<uint8_t> lasExtraBytesPayload(const std::vector<LasExtraBytes>& extras) {
  std::vector<uint8_t> payload(extras.size() * kExtraBytesDescriptorSize, 0);
  for (size_t e = 0; e < extras.size(); ++e) {
    uint8_t* p = payload.data() + e * kExtraBytesDescriptorSize;
    const LasExtraBytes& extra = extras[e];
    p[kDataType] = codeOf(extra.type);
    p[kOptions] =
        uint8_t((extra.hasNoData ? kNoDataBit : 0) | (extra.scaled ? kScaleBit | kOffsetBit : 0));
    std::memcpy(p + kName, extra.name.data(), std::min<size_t>(extra.name.size(), 31));
    if (extra.hasNoData) storeAnyValue(p + kNoData, extra.type, extra.noData);
    if (extra.scaled) {
      storeLe(p + kScale, extra.scale);
      storeLe(p + kOffset, extra.offset);
    }
    static constexpr char kWhat[] = "written by pcv";
    std::memcpy(p + kDescription, kWhat, sizeof(kWhat) - 1);
  }
  return payload;
}

}  // namespace pcv::io
