/// @brief What the format readers share: scalar types and endian-aware loads, error messages
/// with file and byte offset, the origin rule, and the two point assemblers every format feeds:
/// one for fixed-size binary records (decoded in parallel straight from the mapping) and one for
/// rows of text values.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/point_cloud.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv::io {

/// A reader's result: the cloud and how to describe the file.
struct ReadResult {
  ReadResult() = default;
  ReadResult(PointCloud decoded, std::string formatName, std::string formatDetails)
      : cloud(std::move(decoded)),
        format(std::move(formatName)),
        details(std::move(formatDetails)) {}

  PointCloud cloud;
  std::string format;   ///< "PLY", "LAS" ...
  std::string details;  ///< version, encoding, point format
  std::vector<std::string> notes;     ///< FileSummary::notes
  std::vector<std::string> warnings;  ///< FileSummary::warnings
};

/// Where a reader reports progress and errors.
struct ReadContext {
  std::string file;                  ///< path, for messages
  LoadProgress* progress = nullptr;  ///< may be null
  const ReadOptions* options = nullptr;  ///< what to read; null reads everything

  [[noreturn]] void failAt(uint64_t byteOffset, const std::string& what) const;
  [[noreturn]] void failAtLine(uint64_t line, const std::string& what) const;
  [[noreturn]] void fail(const std::string& what) const;
  /// Adds parsed bytes to the progress and throws LoadCancelled when the UI asked to stop.
  void advance(uint64_t bytes) const;
};

enum class ScalarType : uint8_t {
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  Float32,
  Float64
};
size_t scalarSize(ScalarType type);
bool isFloatType(ScalarType type);
const char* scalarTypeName(ScalarType type);

template <typename T>
inline T loadUnaligned(const uint8_t* p, bool bigEndian = false) {
  T value;
  if (!bigEndian) {
    std::memcpy(&value, p, sizeof(T));
  } else {
    uint8_t swapped[sizeof(T)];
    for (size_t i = 0; i < sizeof(T); ++i) swapped[i] = p[sizeof(T) - 1 - i];
    std::memcpy(&value, swapped, sizeof(T));
  }
  return value;
}

/// The scalar at `p` (no alignment needed) converted to double.
double loadScalar(const uint8_t* p, ScalarType type, bool bigEndian);

/// Rounds a world position to whole units: the origin of a cloud whose points lie near it, so
/// UTM coordinates (500000, 5000000) become small float offsets that keep their centimetres.
glm::dvec3 originNear(const glm::dvec3& world);

enum class FieldRole : uint8_t {
  X,
  Y,
  Z,  ///< coordinates
  Red,
  Green,
  Blue,
  Alpha,
  PackedRgb,  ///< 0x??RRGGBB in a U4 or in the bits of an F4 (PCD)
  Attribute,  ///< kept as PointCloud::attributes[attribute]
  Ignore,
};

/// One value of point i lives at base + i * stride (bytes from the start of the data block).
/// Record-major data (PLY, LAS, PCD binary) has stride = record size; column-major data (PCD
/// binary_compressed) has stride = field size.
struct FieldLayout {
  ScalarType type = ScalarType::Float32;
  FieldRole role = FieldRole::Ignore;
  uint64_t base = 0;    ///< bytes
  uint64_t stride = 0;  ///< bytes
  bool bigEndian = false;
  double scale = 1.0;  ///< world = raw * scale + offset (LAS); 1 and 0 elsewhere
  double offset = 0.0;
  uint32_t bitShift = 0;  ///< integer fields: (raw >> bitShift) & bitMask when bitMask != 0
  uint32_t bitMask = 0;
  int attribute = -1;  ///< index into RecordSource::attributeNames for Attribute fields
};

/// `count` points whose fields lie in [data, data + the caller-checked size).
struct RecordSource {
  const uint8_t* data = nullptr;
  uint64_t count = 0;          ///< points, not bytes
  uint64_t bytesPerPoint = 0;  ///< for progress only
  std::vector<FieldLayout> fields;
  std::vector<std::string> attributeNames;
};

/// Decodes all points in parallel chunks. The caller has checked that every field of every point
/// lies inside the data. Needs X and Y fields (Z defaults to 0).
PointCloud decodeRecords(const RecordSource& source, const ReadContext& context);

/// Collects rows of numbers parsed from text (PLY ascii, PCD ascii, XYZ): one role and type per
/// column. Colours are scaled once all rows are known (8-bit, 16-bit or 0..1 by the maximum).
class TextRowAssembler {
 public:
  /// `types` says how colour columns are scaled and how packed colours are read.
  TextRowAssembler(std::vector<FieldRole> roles, std::vector<ScalarType> types,
                   std::vector<int> attributeOfColumn, std::vector<std::string> attributeNames);
  void reserve(uint64_t points);
  /// One value per column.
  void addRow(const double* values);
  uint64_t rows() const { return cloud_.points.size(); }
  PointCloud finish();

 private:
  std::vector<FieldRole> roles_;
  std::vector<ScalarType> types_;
  std::vector<int> attributeOfColumn_;
  PointCloud cloud_;
  bool haveOrigin_ = false;
  bool hasChannels_ = false;
  bool hasPacked_ = false;
  std::vector<float> channels_;   ///< raw r, g, b, a per point until finish()
  std::vector<uint32_t> packed_;  ///< packed colours per point
  double channelMax_ = 0.0;
  ScalarType channelType_ = ScalarType::UInt8;
};

/// The multiplier that brings colour values with this maximum to 0..255: 8-bit types and maxima
/// up to 255 as they are, floats up to 1 times 255, anything larger as 16-bit.
double colourScaleFor(ScalarType type, double maxValue);

/// Removes points with a NaN or infinite coordinate (and their attribute values); returns how
/// many were removed.
uint64_t dropNonFinitePoints(PointCloud& cloud);

/// Lower-case copy, for case-insensitive names (PCD writes X Y Z, text headers "Intensity").
std::string lowerCase(std::string_view text);

/// Parses a whole token as a number (decimal, exponent, inf, nan); false when it is not one.
bool parseNumber(std::string_view token, double& value);

// Readers, one per format file.
ReadResult readPly(std::span<const uint8_t> bytes, const ReadContext& context);
ReadResult readLas(std::span<const uint8_t> bytes, const ReadContext& context);
ReadResult readPcd(std::span<const uint8_t> bytes, const ReadContext& context);
/// `extension` lower case with dot (".pts" has a count line).
ReadResult readText(std::span<const uint8_t> bytes, const ReadContext& context,
                    const std::string& extension);

}  // namespace pcv::io
