// LAS public header offsets from the LAS 1.4 R15 specification, table 3.
#include "las_header.hpp"

#include <algorithm>
#include <cmath>

namespace pcv::io {
namespace {

constexpr uint64_t kVersionMajor = 24, kVersionMinor = 25, kHeaderSizeField = 94,
                   kOffsetToPoints = 96, kVlrCount = 100, kPointFormat = 104, kRecordLength = 105,
                   kLegacyPointCount = 107, kScale = 131, kOffset = 155, kMaxX = 179,
                   kFirstEvlr = 235, kEvlrCount = 243, kPointCount14 = 247;
constexpr uint64_t kHeaderSize10 = 227;  // LAS 1.0-1.2 public header
constexpr uint64_t kHeaderSize14 = 375;  // LAS 1.4
constexpr uint64_t kVlrHeaderBytes = 54;
constexpr uint64_t kEvlrHeaderBytes = 60;

std::string userIdAt(const uint8_t* p) {
  std::string id(reinterpret_cast<const char*>(p), 16);
  id.resize(id.find_first_of('\0') == std::string::npos ? 16 : id.find_first_of('\0'));
  return id;
}

/// `head` is the file's first min(fileSize, 375) bytes.
void parseVersionAndSizes(std::span<const uint8_t> head, uint64_t fileSize,
                          const ReadContext& context, LasHeader& h) {
  const uint8_t* file = head.data();
  if (fileSize < 4 || std::string_view(reinterpret_cast<const char*>(file), 4) != "LASF") {
    context.failAt(0, "expected the LAS signature 'LASF'");
  }
  if (fileSize < kHeaderSize10) {
    context.failAt(fileSize, "file ends inside the " + std::to_string(kHeaderSize10) +
                                 "-byte LAS public header");
  }
  h.versionMajor = file[kVersionMajor];
  h.versionMinor = file[kVersionMinor];
  if (h.versionMajor != 1 || h.versionMinor > 4) {
    context.failAt(kVersionMajor, "LAS version " + std::to_string(h.versionMajor) + "." +
                                      std::to_string(h.versionMinor) +
                                      " is not supported (1.0-1.4)");
  }
  h.headerSize = loadLe<uint16_t>(file + kHeaderSizeField);
  const uint64_t required = h.versionMinor >= 4 ? kHeaderSize14 : kHeaderSize10;
  if (h.headerSize < required || h.headerSize > fileSize) {
    context.failAt(kHeaderSizeField, "header size " + std::to_string(h.headerSize) + " for LAS 1." +
                                         std::to_string(h.versionMinor) + ": expected at least " +
                                         std::to_string(required) + " and within the " +
                                         std::to_string(fileSize) + "-byte file");
  }
  h.pointsOffset = loadLe<uint32_t>(file + kOffsetToPoints);
  if (h.pointsOffset < h.headerSize || h.pointsOffset > fileSize) {
    context.failAt(kOffsetToPoints, "offset to point data " + std::to_string(h.pointsOffset) +
                                        " is outside [header size " + std::to_string(h.headerSize) +
                                        ", file size " + std::to_string(fileSize) + "]");
  }
}

void parsePointFormat(const uint8_t* file, const ReadContext& context, LasHeader& h) {
  h.formatByte = file[kPointFormat];
  h.pointFormat = h.formatByte & 0x3f;
  if (h.pointFormat > 10) {
    context.failAt(kPointFormat, "point data record format " + std::to_string(h.pointFormat) +
                                     " is not defined (0-10)");
  }
  h.recordLength = loadLe<uint16_t>(file + kRecordLength);
  if (h.recordLength < kLasFormatBytes[h.pointFormat]) {
    context.failAt(kRecordLength, "point record length " + std::to_string(h.recordLength) +
                                      " is shorter than point format " +
                                      std::to_string(h.pointFormat) + "'s " +
                                      std::to_string(kLasFormatBytes[h.pointFormat]) + " bytes");
  }
  h.pointCount = loadLe<uint32_t>(file + kLegacyPointCount);
  if (h.versionMinor >= 4) {
    const uint64_t count64 = loadLe<uint64_t>(file + kPointCount14);
    // The 64-bit count rules in 1.4; the legacy count is 0 for formats 6-10 and may be stale.
    if (count64 != 0 || h.pointFormat >= 6) h.pointCount = count64;
  }
}

void parseScaleAndBounds(const uint8_t* file, const ReadContext& context, LasHeader& h) {
  for (int a = 0; a < 3; ++a) {
    h.scale[a] = loadLe<double>(file + kScale + 8 * a);
    h.offset[a] = loadLe<double>(file + kOffset + 8 * a);
    if (!std::isfinite(h.scale[a]) || h.scale[a] == 0.0 || !std::isfinite(h.offset[a])) {
      context.failAt(kScale + 8 * a, "scale factor " + std::to_string(h.scale[a]) + " / offset " +
                                         std::to_string(h.offset[a]) +
                                         ": expected a finite non-zero scale and finite offset");
    }
    // Max X, min X, max Y, min Y, max Z, min Z.
    h.headerMax[a] = loadLe<double>(file + kMaxX + 16 * a);
    h.headerMin[a] = loadLe<double>(file + kMaxX + 16 * a + 8);
  }
}

/// VLRs lie between the header and the points; each must fit there.
void parseVlrs(const uint8_t* file, const ReadContext& context, LasHeader& h) {
  const uint64_t vlrCount = loadLe<uint32_t>(file + kVlrCount);
  uint64_t pos = h.headerSize;
  for (uint64_t v = 0; v < vlrCount; ++v) {
    if (h.pointsOffset - pos < kVlrHeaderBytes) {
      context.failAt(pos, "VLR " + std::to_string(v) + " of " + std::to_string(vlrCount) +
                              " declared does not fit before the point data at byte " +
                              std::to_string(h.pointsOffset));
    }
    LasVlr vlr{.userId = userIdAt(file + pos + 2),
               .recordId = loadLe<uint16_t>(file + pos + 18),
               .payloadOffset = pos + kVlrHeaderBytes,
               .payloadBytes = loadLe<uint16_t>(file + pos + 20)};
    pos += kVlrHeaderBytes;
    if (h.pointsOffset - pos < vlr.payloadBytes) {
      context.failAt(
          pos, "VLR " + std::to_string(v) + " payload of " + std::to_string(vlr.payloadBytes) +
                   " bytes runs past the point data at byte " + std::to_string(h.pointsOffset));
    }
    pos += vlr.payloadBytes;
    h.vlrs.push_back(std::move(vlr));
  }
}

/// EVLRs (1.4) follow the points. Their table is only listed where it is readable: pcv reads
/// none of them itself, so a broken table is no reason to refuse the points. `file` is the
/// header's bytes; each EVLR's own header is read from `source`.
void parseEvlrs(const uint8_t* file, const ByteSource& source, LasHeader& h) {
  if (h.versionMinor < 4) return;
  const uint64_t size = source.size();
  uint64_t pos = loadLe<uint64_t>(file + kFirstEvlr);
  const uint64_t count = loadLe<uint32_t>(file + kEvlrCount);
  std::vector<uint8_t> storage;
  for (uint64_t e = 0; e < count && pos >= h.pointsOffset; ++e) {
    if (size < kEvlrHeaderBytes || pos > size - kEvlrHeaderBytes) return;
    const uint8_t* at = source.read(pos, kEvlrHeaderBytes, storage).data();
    LasVlr evlr{.userId = userIdAt(at + 2),
                .recordId = loadLe<uint16_t>(at + 18),
                .payloadOffset = pos + kEvlrHeaderBytes,
                .payloadBytes = loadLe<uint64_t>(at + 20)};
    if (evlr.payloadBytes > size - evlr.payloadOffset) return;
    pos = evlr.payloadOffset + evlr.payloadBytes;
    h.evlrs.push_back(std::move(evlr));
  }
}

}  // namespace

const LasVlr* LasHeader::findVlr(std::string_view userId, uint16_t recordId) const {
  for (const auto* list : {&vlrs, &evlrs}) {
    for (const LasVlr& vlr : *list) {
      if (vlr.userId == userId && vlr.recordId == recordId) return &vlr;
    }
  }
  return nullptr;
}

std::string LasHeader::description() const {
  return std::to_string(versionMajor) + "." + std::to_string(versionMinor) + ", point format " +
         std::to_string(pointFormat) + ", " + std::to_string(recordLength) + " bytes per point";
}

LasHeader parseLasHeader(std::span<const uint8_t> bytes, const ReadContext& context) {
  return parseLasHeader(SpanByteSource(bytes, context.file), context);
}

LasHeader parseLasHeader(const ByteSource& source, const ReadContext& context) {
  LasHeader header;
  std::vector<uint8_t> headStorage, storage;
  const uint64_t size = source.size();
  const std::span<const uint8_t> head =
      source.read(0, std::min<uint64_t>(size, kHeaderSize14), headStorage);
  parseVersionAndSizes(head, size, context, header);
  // The header and the VLRs, up to the points: one read (one request for a remote file).
  const uint8_t* file = source.read(0, header.pointsOffset, storage).data();
  parsePointFormat(file, context, header);
  parseScaleAndBounds(file, context, header);
  parseVlrs(file, context, header);
  parseEvlrs(file, source, header);
  for (const LasVlr& vlr : header.vlrs) {  // in `file`, unlike EVLRs
    if (vlr.userId == kLasSpecUserId && vlr.recordId == kExtraBytesRecordId) {
      header.extraBytes =
          parseLasExtraBytes(file + vlr.payloadOffset, vlr.payloadBytes,
                             kLasFormatBytes[header.pointFormat], header.recordLength);
    }
  }
  return header;
}

ReadResult::Declared declaredByHeader(const LasHeader& h) {
  ReadResult::Declared declared{.points = h.pointCount};
  if (h.headerMax[0] >= h.headerMin[0] && h.headerMax[1] >= h.headerMin[1] &&
      h.headerMax[2] >= h.headerMin[2]) {
    declared.worldBounds.extend(glm::dvec3(h.headerMin[0], h.headerMin[1], h.headerMin[2]));
    declared.worldBounds.extend(glm::dvec3(h.headerMax[0], h.headerMax[1], h.headerMax[2]));
  }
  return declared;
}

}  // namespace pcv::io
