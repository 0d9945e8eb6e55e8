// ASPRS LAS 1.0-1.4, point data record formats 0-10: the header and VLRs (las_header.hpp), then
// the point records decoded in parallel straight from the mapping. LAZ (LASzip-compressed LAS)
// goes to the LAZ reader.
#include "las_crs.hpp"
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
ReadResult describeLas(const LasHeader& header, const ReadContext& context) {
  ReadResult result{.format = "LAS", .details = header.description()};
  result.declared = declaredByHeader(header);
  result.cloud = RecordDecoder(lasRecordLayout(header), context).describeCloud();
  result.cloud.lasPointFormat = header.pointFormat;
  return result;
}

}  // namespace

ReadResult readLas(std::span<const uint8_t> bytes, const ReadContext& context) {
  return readLas(SpanByteSource(bytes, context.file), context);
}

ReadResult readLas(const ByteSource& source, const ReadContext& context) {
  const LasHeader header = parseLasHeader(source, context);
  // LASzip marks compressed files by setting bits 6 and 7 of the point format and by its VLR.
  if (header.compressed() || header.findVlr("laszip encoded", 22204)) {
    ReadResult result = readLaz(source, header, context);
    result.crs = lasCoordinateSystem(header, source);
    return result;
  }
  if (context.headerOnly()) {
    ReadResult result = describeLas(header, context);
    result.crs = lasCoordinateSystem(header, source);
    return result;
  }
  const std::span<const uint8_t> bytes = source.whole();
  if (bytes.empty() && source.size() > 0) {
    context.fail("a LAS file's points are read from the whole file in memory");
  }
  requireRecordsInFile(header, bytes.size(), context);
  context.reachedByte(header.pointsOffset);
  const RecordSource records{.data = bytes.data() + header.pointsOffset,
                             .count = header.pointCount,
                             .layout = lasRecordLayout(header, context.options)};
  ReadResult result{.format = "LAS", .details = header.description()};
  result.cloud = decodeRecords(records, context, result.worldBounds);
  result.cloud.lasPointFormat = header.pointFormat;
  result.crs = lasCoordinateSystem(header, bytes);
  return result;
}

}  // namespace pcv::io
