/// @brief The Extra Bytes VLR (LAS 1.4 R15 section 2.5, record 4 of user "LASF_Spec"): names,
/// types, scales, offsets and no-data values of the bytes a point record carries beyond its
/// format's fields, so that they are read as named attributes and written back as they came.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/scalar_types.hpp"

namespace pcv::io {

/// One described value of the extra bytes.
struct LasExtraBytes {
  std::string name;
  ScalarType type = ScalarType::UInt8;
  uint32_t recordOffset = 0;  ///< bytes from the record's start
  bool scaled = false;        ///< value = raw * scale + offset (either given)
  double scale = 1.0, offset = 0.0;
  bool hasNoData = false;  ///< raw values equal to noData are "no value" (NaN)
  double noData = 0.0;
};

constexpr const char* kLasSpecUserId = "LASF_Spec";
constexpr uint16_t kExtraBytesRecordId = 4;
constexpr uint64_t kExtraBytesDescriptorSize = 192;

/// The values an Extra Bytes payload of `bytes` describes for records of `recordLength` bytes
/// whose standard fields take `standardBytes`. Undocumented bytes (type 0) and the deprecated
/// array types are skipped; descriptions that do not fit in the record end the list.
std::vector<LasExtraBytes> parseLasExtraBytes(const uint8_t* payload, uint64_t bytes,
                                              uint64_t standardBytes, uint64_t recordLength);

/// An Extra Bytes payload describing `extras` (names up to 31 characters), of types 1-10.
std::vector<uint8_t> lasExtraBytesPayload(const std::vector<LasExtraBytes>& extras);

}  // namespace pcv::io
