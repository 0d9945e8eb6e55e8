#include "compressed_vector.hpp"
#include "common/byte_order.hpp"

#include <algorithm>
#include <cstring>

namespace pcv::io::e57 {
namespace {

// Section and packet headers, ASTM E2807 tables 11-14.
constexpr uint8_t kCompressedVectorSectionId = 1;
constexpr uint64_t kSectionHeaderSize = 32;  // id, 7 reserved, length, data offset, index offset
constexpr uint8_t kIndexPacket = 0, kDataPacket = 1, kIgnoredPacket = 2;
constexpr uint64_t kPacketPrefixSize = 4;      // type, flags, logical length - 1 (uint16)
constexpr uint64_t kDataPacketHeaderSize = 6;  // the prefix, then the bytestream count (uint16)

/// Bytes a bytestream needs for `records` values of `bits` bits; the caller checked that
/// records * bits cannot overflow.
uint64_t bytesFor(uint64_t records, unsigned bits) {
  return (records * bits + 7) / 8;
}

/// Where a scan's section and its packets lie (logical offsets).
struct SectionExtent {
  uint64_t start = 0, end = 0, dataStart = 0;
};

SectionExtent readSectionHeader(const PagedFile& file, const ScanDescription& scan,
                                const std::string& label) {
  const uint64_t physical = scan.sectionPhysicalOffset;
  const uint64_t fileBytes = file.pageCount() * PagedFile::kPageSize;
  if (physical >= fileBytes || !PagedFile::isPayloadOffset(physical)) {
    file.failAt(physical, label + ": points fileOffset " + std::to_string(physical) +
                              ", expected a page payload byte inside the " +
                              std::to_string(fileBytes) + "-byte file");
  }
  SectionExtent extent{.start = PagedFile::logicalFromPhysical(physical)};
  uint8_t header[kSectionHeaderSize];
  file.read(extent.start, kSectionHeaderSize, header, label + ": compressed vector section header");
  const uint64_t length = loadLe<uint64_t>(header + 8);
  const uint64_t dataPhysical = loadLe<uint64_t>(header + 16);
  // Faults of the header name its byte: the section starts there.
  const std::string where = label + ": compressed vector section header";
  if (header[0] != kCompressedVectorSectionId) {
    file.failAt(physical, where + ": section id " + std::to_string(header[0]) +
                              ", expected 1 (compressed vector)");
  }
  const uint64_t room = file.logicalSize() - extent.start;
  if (length < kSectionHeaderSize || length > room) {
    file.failAt(physical, where + ": section length " + std::to_string(length) +
                              ", expected 32 to " + std::to_string(room) +
                              " bytes (what the file holds after the section start)");
  }
  extent.end = extent.start + length;
  extent.dataStart = PagedFile::logicalFromPhysical(dataPhysical);
  if (!PagedFile::isPayloadOffset(dataPhysical) ||
      extent.dataStart < extent.start + kSectionHeaderSize || extent.dataStart > extent.end) {
    file.failAt(physical, where + ": data offset " + std::to_string(dataPhysical) +
                              ", expected a byte after the section header and inside the section");
  }
  return extent;
}

/// Bytes each bytestream needs for the scan's records, once recordCount is known to fit in
/// the section (before anything is sized by it).
std::vector<uint64_t> neededBytes(const PagedFile& file, const ScanDescription& scan,
                                  uint64_t sectionLength, const std::string& label) {
  uint64_t bitsPerRecord = 0;
  for (const RecordField& field : scan.prototype) bitsPerRecord += field.bitWidth();
  const uint64_t sectionBits = sectionLength * 8;
  const uint64_t maxRecords = bitsPerRecord == 0 ? sectionBits : sectionBits / bitsPerRecord;
  if (scan.recordCount > maxRecords) {
    file.fail(label + ": recordCount " + std::to_string(scan.recordCount) + " of " +
              std::to_string(bitsPerRecord) + " bits each cannot fit in the " +
              std::to_string(sectionLength) + "-byte section (at most " +
              std::to_string(maxRecords) + " records)");
  }
  std::vector<uint64_t> needed;
  for (const RecordField& field : scan.prototype) {
    needed.push_back(bytesFor(scan.recordCount, field.bitWidth()));
  }
  return needed;
}

/// Appends a data packet's slices to the layout.
void readDataPacket(const PagedFile& file, const ScanDescription& scan, uint64_t position,
                    uint64_t packetLength, const std::string& where,
                    CompressedVectorLayout& layout) {
  const uint64_t fieldCount = scan.prototype.size();
  const uint64_t headerSize = kDataPacketHeaderSize + 2 * fieldCount;
  if (packetLength < headerSize) {
    file.fail(where + ": data packet of " + std::to_string(packetLength) +
              " bytes, expected at least " + std::to_string(headerSize) + " for its header and " +
              std::to_string(fieldCount) + " buffer lengths");
  }
  std::vector<uint8_t> header(headerSize);
  file.read(position, headerSize, header.data(), where);
  const uint64_t streamCount = loadLe<uint16_t>(header.data() + kPacketPrefixSize);
  if (streamCount != fieldCount) {
    file.fail(where + ": " + std::to_string(streamCount) +
              " bytestreams, expected one per prototype field (" + std::to_string(fieldCount) +
              ")");
  }
  uint64_t offset = position + headerSize;
  for (uint64_t f = 0; f < fieldCount; ++f) {
    const uint64_t length = loadLe<uint16_t>(header.data() + kDataPacketHeaderSize + 2 * f);
    if (length > position + packetLength - offset) {
      file.fail(where + ": bytestream '" + scan.prototype[f].name + "' buffer of " +
                std::to_string(length) + " bytes runs past the packet's " +
                std::to_string(packetLength) + " bytes");
    }
    BytestreamSlices& stream = layout.streams[f];
    stream.logical.push_back(offset);
    stream.starts.push_back(stream.starts.back() + length);
    offset += length;
  }
  ++layout.dataPackets;
}

[[noreturn]] void failShortBytestream(const PagedFile& file, const ScanDescription& scan,
                                      const CompressedVectorLayout& layout,
                                      const std::vector<uint64_t>& needed,
                                      const std::string& label) {
  uint64_t f = 0;
  while (layout.streams[f].size() >= needed[f]) ++f;  // the caller knows one falls short
  const unsigned bits = scan.prototype[f].bitWidth();
  file.fail(label + ": the section ends after " + std::to_string(layout.dataPackets) +
            " data packets with bytestream '" + scan.prototype[f].name + "' holding " +
            std::to_string(layout.streams[f].size() * 8 / bits) + " of its " +
            std::to_string(scan.recordCount) +
            " records (recordCount exceeds the data: truncated?)");
}

}  // namespace

CompressedVectorLayout readCompressedVectorLayout(const PagedFile& file,
                                                  const ScanDescription& scan) {
  const std::string label = "scan " + scan.elementPath;
  CompressedVectorLayout layout;
  layout.streams.resize(scan.prototype.size());
  for (BytestreamSlices& stream : layout.streams) stream.starts.push_back(0);
  // The section header is read even for no records: a scan whose section was never written
  // (a writer that stopped, or an empty scan with a zeroed header) is a broken file, as
  // libE57Format finds when it opens the section, not an empty scan.
  const SectionExtent section = readSectionHeader(file, scan, label);
  layout.sectionBytes = section.end - section.start;
  if (scan.recordCount == 0) return layout;
  const std::vector<uint64_t> needed = neededBytes(file, scan, layout.sectionBytes, label);
  auto complete = [&] {
    for (size_t f = 0; f < needed.size(); ++f) {
      if (layout.streams[f].size() < needed[f]) return false;
    }
    return true;
  };
  uint64_t position = section.dataStart;
  for (uint64_t packet = 0; !complete(); ++packet) {
    if (section.end - position < kPacketPrefixSize) {
      failShortBytestream(file, scan, layout, needed, label);
    }
    const std::string where = label + ": packet " + std::to_string(packet) + " at byte " +
                              std::to_string(PagedFile::physicalFromLogical(position));
    uint8_t prefix[kPacketPrefixSize];
    file.read(position, kPacketPrefixSize, prefix, where);
    const uint64_t packetLength = uint64_t(loadLe<uint16_t>(prefix + 2)) + 1;
    if (packetLength > section.end - position) {
      file.fail(where + ": length " + std::to_string(packetLength) +
                " runs past the end of the section at byte " +
                std::to_string(PagedFile::physicalFromLogical(section.end)));
    }
    if (prefix[0] == kDataPacket) {
      readDataPacket(file, scan, position, packetLength, where, layout);
    } else if (prefix[0] != kIndexPacket && prefix[0] != kIgnoredPacket) {
      file.fail(where + ": packet type " + std::to_string(prefix[0]) +
                ", expected 0 (index), 1 (data) or 2 (ignored)");
    }
    position += packetLength;
  }
  return layout;
}

void copyBytestream(const PagedFile& file, const BytestreamSlices& stream, uint64_t begin,
                    uint64_t size, uint8_t* out) {
  // The packet whose slice holds `begin`: the last start at or before it.
  uint64_t packet = uint64_t(std::upper_bound(stream.starts.begin(), stream.starts.end(), begin) -
                             stream.starts.begin()) -
                    1;
  while (size > 0) {
    const uint64_t within = begin - stream.starts[packet];
    const uint64_t available = stream.starts[packet + 1] - stream.starts[packet] - within;
    const uint64_t take = std::min(size, available);
    if (take > 0) {
      file.read(stream.logical[packet] + within, take, out, "bytestream slice");
      out += take;
      begin += take;
      size -= take;
    }
    ++packet;
  }
}

}  // namespace pcv::io::e57
