/// @brief The LAS public header (1.0-1.4) and its variable-length records, checked against the
/// file size before anything else is read, and the field layout of the point records. Shared by
/// the LAS reader and readers of LAS-based formats (LAZ).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/read_context.hpp"
#include "las_extra_bytes.hpp"
#include "pcv/io/byte_source.hpp"
#include "common/record_layout.hpp"

namespace pcv::io {

/// A variable-length record (or extended one, after the points in 1.4): where its payload is.
struct LasVlr {
  std::string userId;  ///< up to 16 characters, trailing NULs removed
  uint16_t recordId = 0;
  uint64_t payloadOffset = 0;  ///< byte offset of the payload in the file
  uint64_t payloadBytes = 0;
};

struct LasHeader {
  int versionMajor = 1, versionMinor = 0;
  uint16_t headerSize = 0;
  uint64_t pointsOffset = 0;  ///< byte offset of the first point record
  uint8_t formatByte = 0;     ///< as stored: LASzip sets bits 6 and 7 in compressed files
  int pointFormat = 0;        ///< 0-10, compression bits removed
  uint64_t recordLength = 0;  ///< bytes per point record
  uint64_t pointCount = 0;    ///< the 64-bit count in 1.4 where set, else the legacy one
  double scale[3] = {1, 1, 1};
  double offset[3] = {0, 0, 0};
  double headerMin[3] = {0, 0, 0};  ///< as the header says; files exist where it is wrong
  double headerMax[3] = {0, 0, 0};
  std::vector<LasVlr> vlrs;   ///< between the header and the points
  std::vector<LasVlr> evlrs;  ///< after the points (1.4), when their table is readable
  std::vector<LasExtraBytes> extraBytes;  ///< what the Extra Bytes VLR describes

  bool compressed() const { return (formatByte & 0xc0) != 0; }
  const LasVlr* findVlr(std::string_view userId, uint16_t recordId) const;
  /// "1.4, point format 6, 30 bytes per point".
  std::string description() const;
};

/// Bytes of each point data record format's standard fields (LAS 1.4 R15, "Point Data Record
/// Format" tables).
constexpr uint16_t kLasFormatBytes[11] = {20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67};

/// Parses and checks the public header and the VLRs. Fails through `context` naming the byte.
/// Does not check that the point records fit: compressed files store fewer bytes.
LasHeader parseLasHeader(std::span<const uint8_t> bytes, const ReadContext& context);
/// The same from a source: the header and VLRs in one read, then each EVLR's header.
LasHeader parseLasHeader(const ByteSource& source, const ReadContext& context);


/// What the header declares: its point count, and its bounds where they make a box.
ReadResult::Declared declaredByHeader(const LasHeader& header);

/// Every field of a point record of `header`'s format (las_record_layout.cpp): x, y, z (scaled),
/// RGB where the format has it, and each other field as an attribute, extra bytes included.
RecordLayout lasRecordLayout(const LasHeader& header);
/// The fields `options` asks for (null: the default ones, ReadOptions::wantsAttribute); colours
/// unless options refuse them.
RecordLayout lasRecordLayout(const LasHeader& header, const ReadOptions* options);

}  // namespace pcv::io
