/// @brief What an E57 file's XML section says about its 3D scans (data3D): each scan's record
/// prototype (the fields, their types and ranges), where its points' binary section lies, its
/// pose, bounds and limits. images2D and unknown extensions are counted or skipped, never read.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "pcv/core/bounds.hpp"

namespace pcv::io::e57 {

enum class FieldType : uint8_t {
  Integer,        ///< value = raw + minimum, in bitWidth() bits
  ScaledInteger,  ///< value = (raw + minimum) * scale + offset
  Single,         ///< IEEE 754 binary32 (Float precision="single")
  Double,         ///< IEEE 754 binary64 (Float precision="double", the default)
};

struct ValueRange {
  double minimum = 0.0;
  double maximum = 0.0;
};

/// One terminal element of a compressed vector's prototype; each has its own bytestream.
struct RecordField {
  std::string name;  ///< path inside the prototype: "cartesianX", "nor:normalX", "group/child"
  FieldType type = FieldType::Double;
  int64_t minimum = 0;  ///< Integer, ScaledInteger: the raw range the bit width comes from
  int64_t maximum = 0;
  double scale = 1.0;  ///< ScaledInteger
  double offset = 0.0;
  std::optional<double> floatMinimum;  ///< Float: the declared limits, when given
  std::optional<double> floatMaximum;

  /// Bits per value in the bytestream: 32 or 64 for floats; for integers the bits that hold
  /// maximum - minimum (ceil(log2(max - min + 1)), 0 when minimum == maximum, at most 64).
  unsigned bitWidth() const;
  /// The range of the decoded values the prototype declares, when it declares one.
  std::optional<ValueRange> declaredRange() const;
  /// "Integer 0..255", "ScaledInteger -8388608..8388607 * 1e-06", "Float single" ...
  std::string typeText() const;
};

/// A scan's rigid transform from its own coordinates to the file's: world = R(rotation) * p +
/// translation. Either part may be absent from the file (identity rotation, zero translation).
struct Pose {
  glm::dquat rotation{1.0, 0.0, 0.0, 0.0};  ///< unit quaternion (w, x, y, z), normalised on read
  glm::dvec3 translation{0.0};
  bool hasRotation = false;
  bool hasTranslation = false;
};

struct ScanDescription {
  std::string elementPath;  ///< "/data3D/0", for messages
  std::string name;         ///< empty when the file gives none
  std::string guid;
  uint64_t recordCount = 0;
  uint64_t sectionPhysicalOffset = 0;  ///< the points' CompressedVector binary section
  std::vector<RecordField> prototype;  ///< in bytestream order (depth-first)
  Pose pose;
  std::optional<Box3d> cartesianBounds;  ///< as the file states them (scan coordinates)
  std::optional<ValueRange> intensityLimits;
  std::array<std::optional<ValueRange>, 3> colorLimits;  ///< red, green, blue

  /// Index into prototype of the field with this name, or -1.
  int findField(std::string_view fieldName) const;
};

struct XmlSection {
  std::vector<ScanDescription> scans;  ///< data3D, in file order
  uint64_t imageCount = 0;             ///< images2D entries (pcv shows no images)
  std::string libraryVersion;          ///< e57LibraryVersion, when given
};

/// Parses the XML text. Throws InputError naming `fileName`, the element path and what was
/// expected when the XML does not parse, an element lacks what it needs, a type or number is
/// malformed, a range is inverted (minimum > maximum) or a codec other than bitPackCodec is
/// named.
XmlSection parseXmlSection(std::string_view xml, const std::string& fileName);

}  // namespace pcv::io::e57
