// ASPRS LAS 1.0-1.4, point data record formats 0-10. The public header and the VLRs are checked
// against the file size before anything is allocated; the point records are decoded in parallel
// straight from the mapping. LAZ (LASzip-compressed LAS) is recognised and refused.
#include <cmath>

#include "reader_common.hpp"

namespace pcv::io {
namespace {

// Public header offsets (bytes), from the LAS 1.4 R15 specification, table 3.
constexpr uint64_t kVersionMajor = 24, kVersionMinor = 25, kHeaderSize = 94, kOffsetToPoints = 96,
                   kVlrCount = 100, kPointFormat = 104, kRecordLength = 105,
                   kLegacyPointCount = 107, kScale = 131, kOffset = 155, kPointCount14 = 247;
constexpr uint64_t kHeaderSize10 = 227;  // LAS 1.0-1.2 public header
constexpr uint64_t kHeaderSize14 = 375;  // LAS 1.4
constexpr uint64_t kVlrHeaderSize = 54;

/// Bytes of each point data record format's standard fields (table "Point Data Record Format").
constexpr uint16_t kFormatBytes[11] = {20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67};
/// Byte offset of Red in formats with RGB, 0 where there is none.
constexpr uint16_t kRgbOffset[11] = {0, 0, 20, 28, 0, 28, 0, 30, 30, 0, 30};

}  // namespace

ReadResult readLas(std::span<const uint8_t> bytes, const ReadContext& context) {
  const uint8_t* file = bytes.data();
  const uint64_t fileSize = bytes.size();
  if (fileSize < 4 || std::string_view(reinterpret_cast<const char*>(file), 4) != "LASF") {
    context.failAt(0, "expected the LAS signature 'LASF'");
  }
  if (fileSize < kHeaderSize10) {
    context.failAt(fileSize, "file ends inside the " + std::to_string(kHeaderSize10) +
                                 "-byte LAS public header");
  }
  const int major = file[kVersionMajor], minor = file[kVersionMinor];
  if (major != 1 || minor > 4) {
    context.failAt(kVersionMajor, "LAS version " + std::to_string(major) + "." +
                                      std::to_string(minor) + " is not supported (1.0-1.4)");
  }
  const uint16_t headerSize = loadUnaligned<uint16_t>(file + kHeaderSize);
  const uint64_t requiredHeader = minor >= 4 ? kHeaderSize14 : kHeaderSize10;
  if (headerSize < requiredHeader || headerSize > fileSize) {
    context.failAt(kHeaderSize, "header size " + std::to_string(headerSize) + " for LAS 1." +
                                    std::to_string(minor) + ": expected at least " +
                                    std::to_string(requiredHeader) + " and within the " +
                                    std::to_string(fileSize) + "-byte file");
  }
  const uint64_t pointsOffset = loadUnaligned<uint32_t>(file + kOffsetToPoints);
  const uint64_t vlrCount = loadUnaligned<uint32_t>(file + kVlrCount);
  const uint8_t formatByte = file[kPointFormat];
  const uint64_t recordLength = loadUnaligned<uint16_t>(file + kRecordLength);
  uint64_t pointCount = loadUnaligned<uint32_t>(file + kLegacyPointCount);

  // LASzip marks compressed files by setting bit 7 (and bit 6) of the point format.
  const std::string lazMessage =
      "is LAZ (LASzip-compressed LAS); LAZ is not supported yet, decompress it to LAS first "
      "(e.g. 'laszip -i file.laz -o file.las' or 'pdal translate file.laz file.las')";
  if (formatByte & 0xc0) context.fail(lazMessage);
  const int format = formatByte;
  if (format > 10) {
    context.failAt(kPointFormat,
                   "point data record format " + std::to_string(format) + " is not defined (0-10)");
  }
  if (recordLength < kFormatBytes[format]) {
    context.failAt(kRecordLength, "point record length " + std::to_string(recordLength) +
                                      " is shorter than point format " + std::to_string(format) +
                                      "'s " + std::to_string(kFormatBytes[format]) + " bytes");
  }
  if (minor >= 4) {
    const uint64_t count64 = loadUnaligned<uint64_t>(file + kPointCount14);
    // The 64-bit count rules in 1.4; the legacy count is 0 for formats 6-10 and may be stale.
    if (count64 != 0 || format >= 6) pointCount = count64;
  }
  if (pointsOffset < headerSize || pointsOffset > fileSize) {
    context.failAt(kOffsetToPoints, "offset to point data " + std::to_string(pointsOffset) +
                                        " is outside [header size " + std::to_string(headerSize) +
                                        ", file size " + std::to_string(fileSize) + "]");
  }

  // VLRs lie between the header and the points; each must fit there.
  uint64_t pos = headerSize;
  for (uint64_t v = 0; v < vlrCount; ++v) {
    if (pointsOffset - pos < kVlrHeaderSize) {
      context.failAt(pos, "VLR " + std::to_string(v) + " of " + std::to_string(vlrCount) +
                              " declared does not fit before the point data at byte " +
                              std::to_string(pointsOffset));
    }
    const std::string_view userId(reinterpret_cast<const char*>(file + pos + 2), 16);
    const uint16_t recordId = loadUnaligned<uint16_t>(file + pos + 18);
    const uint64_t length = loadUnaligned<uint16_t>(file + pos + 20);
    if (userId.substr(0, 14) == "laszip encoded" && recordId == 22204) context.fail(lazMessage);
    pos += kVlrHeaderSize;
    if (pointsOffset - pos < length) {
      context.failAt(pos, "VLR " + std::to_string(v) + " payload of " + std::to_string(length) +
                              " bytes runs past the point data at byte " +
                              std::to_string(pointsOffset));
    }
    pos += length;
  }

  // The records must be in the file: checked by division so huge counts cannot overflow.
  const uint64_t available = fileSize - pointsOffset;
  if (pointCount > available / recordLength) {
    context.failAt(pointsOffset, "header declares " + std::to_string(pointCount) + " points of " +
                                     std::to_string(recordLength) + " bytes, but only " +
                                     std::to_string(available) + " bytes follow (truncated?)");
  }
  // EVLRs (1.4) follow the points and are never read, so their table needs no checking.

  double scale[3], offset[3];
  for (int a = 0; a < 3; ++a) {
    scale[a] = loadUnaligned<double>(file + kScale + 8 * a);
    offset[a] = loadUnaligned<double>(file + kOffset + 8 * a);
    if (!std::isfinite(scale[a]) || scale[a] == 0.0 || !std::isfinite(offset[a])) {
      context.failAt(kScale + 8 * a, "scale factor " + std::to_string(scale[a]) + " / offset " +
                                         std::to_string(offset[a]) +
                                         ": expected a finite non-zero scale and finite offset");
    }
  }

  RecordSource source;
  source.data = file + pointsOffset;
  source.count = pointCount;
  source.bytesPerPoint = recordLength;
  auto add = [&](FieldLayout field) {
    field.stride = recordLength;
    source.fields.push_back(field);
  };
  for (int a = 0; a < 3; ++a) {
    add({ScalarType::Int32, FieldRole(int(FieldRole::X) + a), uint64_t(4 * a), 0, false, scale[a],
         offset[a]});
  }
  const bool extended = format >= 6;
  source.attributeNames = {"intensity", "classification", "return_number"};
  add({ScalarType::UInt16, FieldRole::Attribute, 12, 0, false, 1.0, 0.0, 0, 0, 0});
  // Formats 0-5 pack the class in the low 5 bits of byte 15; 6-10 give it byte 16.
  add(extended
          ? FieldLayout{ScalarType::UInt8, FieldRole::Attribute, 16, 0, false, 1.0, 0.0, 0, 0xff, 1}
          : FieldLayout{ScalarType::UInt8, FieldRole::Attribute, 15, 0, false, 1.0, 0.0, 0, 0x1f,
                        1});
  // Return number: bits 0-2 of byte 14 (formats 0-5), bits 0-3 (formats 6-10).
  add({ScalarType::UInt8, FieldRole::Attribute, 14, 0, false, 1.0, 0.0, 0, extended ? 0x0fu : 0x07u,
       2});
  if (const uint64_t rgb = kRgbOffset[format]) {
    add({ScalarType::UInt16, FieldRole::Red, rgb});
    add({ScalarType::UInt16, FieldRole::Green, rgb + 2});
    add({ScalarType::UInt16, FieldRole::Blue, rgb + 4});
  }
  if (context.progress) context.progress->bytesDone = pointsOffset;
  ReadResult result{decodeRecords(source, context), "LAS", ""};
  result.details = std::to_string(major) + "." + std::to_string(minor) + ", point format " +
                   std::to_string(format) + ", " + std::to_string(recordLength) +
                   " bytes per point";
  return result;
}

}  // namespace pcv::io
