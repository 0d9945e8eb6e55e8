// ASPRS LAS 1.0-1.4, point data record formats 0-10: the header and VLRs (las_header.hpp), then
// the point records decoded in parallel straight from the mapping. LAZ (LASzip-compressed LAS)
// goes to the LAZ reader.
#include "las_crs.hpp"
#include "las_header.hpp"
#include "common/readers.hpp"
#include "common/record_decoder.hpp"

namespace pcv::io {
namespace {

/// The records to read: the header's count when the file holds them all. A file cut short (a
/// copy or download that stopped) keeps its whole records before the cut: they are read with a
/// warning in `result`, or the file is refused under ReadOptions::strict. Checked by division so
/// huge counts cannot overflow.
uint64_t recordsInFile(const LasHeader& header, uint64_t fileSize, const ReadContext& context,
                       ReadResult& result) {
  const uint64_t available = fileSize > header.pointsOffset ? fileSize - header.pointsOffset : 0;
  const uint64_t present = available / header.recordLength;
  if (header.pointCount <= present) return header.pointCount;
  const std::string shortfall =
      "header declares " + std::to_string(header.pointCount) + " points of " +
      std::to_string(header.recordLength) + " bytes, but only " + std::to_string(available) +
      " bytes follow (truncated: " + std::to_string(present) + " whole records)";
  if (context.strict()) context.failAt(header.pointsOffset, shortfall);
  result.missingPoints = header.pointCount - present;
  result.warnings.push_back(
      context.file + ": byte " + std::to_string(header.pointsOffset) + ": " + shortfall + "; " +
      (context.headerOnly() ? "reading the points reads those " : "read those ") +
      std::to_string(present));
  return present;
}

/// What the header declares: the count, its bounds, the fields.
ReadResult describeLas(const LasHeader& header, uint64_t fileSize, const ReadContext& context) {
  ReadResult result{.format = "LAS", .details = header.description()};
  recordsInFile(header, fileSize, context, result);
  result.declared = declaredByHeader(header);
  result.cloud = RecordDecoder(lasRecordLayout(header), context).describeCloud();
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
    ReadResult result = describeLas(header, source.size(), context);
    result.crs = lasCoordinateSystem(header, source);
    return result;
  }
  const std::span<const uint8_t> bytes = source.whole();
  if (bytes.empty() && source.size() > 0) {
    context.fail("a LAS file's points are read from the whole file in memory");
  }
  ReadResult result{.format = "LAS", .details = header.description()};
  const uint64_t count = recordsInFile(header, bytes.size(), context, result);
  context.reachedByte(header.pointsOffset);
  const RecordSource records{.data = bytes.data() + header.pointsOffset,
                             .count = count,
                             .layout = lasRecordLayout(header)};
  result.cloud = decodeRecords(records, context, result.worldBounds);
  result.crs = lasCoordinateSystem(header, bytes);
  return result;
}

}  // namespace pcv::io
