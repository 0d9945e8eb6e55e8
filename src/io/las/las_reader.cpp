// ASPRS LAS 1.0-1.4, point data record formats 0-10: the header and VLRs (las_header.hpp), then
// the point records decoded in parallel straight from the mapping. LAZ (LASzip-compressed LAS)
// goes to the LAZ reader.
#include "las_header.hpp"
#include "common/readers.hpp"
#include "common/record_decoder.hpp"

namespace pcv::io {
namespace {

/// The records must be in the file: checked by division so huge counts cannot overflow.
void requireRecordsInFile(const LasHeader& header, uint64_t fileSize, const ReadContext& context) {
  const uint64_t available = fileSize - header.pointsOffset;
  if (header.pointCount > available / header.recordLength) {
    context.failAt(header.pointsOffset, "header declares " + std::to_string(header.pointCount) +
                                            " points of " + std::to_string(header.recordLength) +
                                            " bytes, but only " + std::to_string(available) +
                                            " bytes follow (truncated?)");
  }
}

/// What the header declares: the count, its bounds, the fields.
ReadResult describeLas(std::span<const uint8_t> bytes, const LasHeader& header,
                       const ReadContext& context) {
  ReadResult result{.format = "LAS", .details = header.description()};
  result.crsRecords = crsRecordBytes(bytes, header);
  result.crsWkt = crsWkt(bytes, header);
  result.declared = declaredByHeader(header);
  result.cloud = RecordDecoder(lasRecordLayout(header), context).describeCloud();
  return result;
}

}  // namespace

ReadResult readLas(std::span<const uint8_t> bytes, const ReadContext& context) {
  const LasHeader header = parseLasHeader(bytes, context);
  // LASzip marks compressed files by setting bits 6 and 7 of the point format and by its VLR.
  if (header.compressed() || header.findVlr("laszip encoded", 22204)) {
    return readLaz(bytes, header, context);
  }
  if (context.headerOnly()) return describeLas(bytes, header, context);
  requireRecordsInFile(header, bytes.size(), context);
  context.reachedByte(header.pointsOffset);
  const RecordSource source{.data = bytes.data() + header.pointsOffset,
                            .count = header.pointCount,
                            .layout = lasRecordLayout(header)};
  ReadResult result{.format = "LAS", .details = header.description()};
  result.crsRecords = crsRecordBytes(bytes, header);
  result.crsWkt = crsWkt(bytes, header);
  result.cloud = decodeRecords(source, context, result.worldBounds);
  return result;
}

}  // namespace pcv::io
