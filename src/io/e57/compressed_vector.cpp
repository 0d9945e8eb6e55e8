#include "compressed_vector.hpp"

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

template <typename T>
T loadLittleEndian(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

std::string scanLabel(const ScanDescription& scan) {
  return "scan " + scan.elementPath;
}

/// Bytes a bytestream needs for `records` values of `bits` bits; the caller checked that
/// records * bits cannot overflow.
uint64_t bytesFor(uint64_t records, unsigned bits) {
  return (records * bits + 7) / 8;
}

}  // namespace

CompressedVectorLayout readCompressedVectorLayout(const PagedFile& file,
                                                  const ScanDescription& scan) {
  const std::string label = scanLabel(scan);
  const uint64_t fieldCount = scan.prototype.size();
  CompressedVectorLayout layout;
  layout.streams.resize(fieldCount);
  for (BytestreamSlices& stream : layout.streams) stream.starts.push_back(0);
  if (scan.recordCount == 0) return layout;

  const uint64_t physical = scan.sectionPhysicalOffset;
  if (physical >= file.pageCount() * PagedFile::kPageSize ||
      !PagedFile::isPayloadOffset(physical)) {
    file.fail(label + ": points fileOffset " + std::to_string(physical) +
              ", expected a page payload byte inside the " +
              std::to_string(file.pageCount() * PagedFile::kPageSize) + "-byte file");
  }
  const uint64_t sectionStart = PagedFile::logicalFromPhysical(physical);
  uint8_t header[kSectionHeaderSize];
  file.read(sectionStart, kSectionHeaderSize, header, label + ": compressed vector section header");
  const uint64_t sectionLength = loadLittleEndian<uint64_t>(header + 8);
  const uint64_t dataPhysical = loadLittleEndian<uint64_t>(header + 16);
  const std::string where =
      label + ": compressed vector section at byte " + std::to_string(physical);
  if (header[0] != kCompressedVectorSectionId) {
    file.fail(where + ": section id " + std::to_string(header[0]) +
              ", expected 1 (compressed vector)");
  }
  if (sectionLength < kSectionHeaderSize || sectionLength > file.logicalSize() - sectionStart) {
    file.fail(where + ": section length " + std::to_string(sectionLength) + ", expected 32 to " +
              std::to_string(file.logicalSize() - sectionStart) +
              " bytes (what the file holds after the section start)");
  }
  const uint64_t sectionEnd = sectionStart + sectionLength;
  layout.sectionBytes = sectionLength;
  const uint64_t dataStart = PagedFile::logicalFromPhysical(dataPhysical);
  if (!PagedFile::isPayloadOffset(dataPhysical) || dataStart < sectionStart + kSectionHeaderSize ||
      dataStart > sectionEnd) {
    file.fail(where + ": data offset " + std::to_string(dataPhysical) +
              ", expected a byte after the section header and inside the section");
  }

  // recordCount against what the section can hold, before anything is sized by it.
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
  std::vector<uint64_t> needed(fieldCount);
  for (uint64_t f = 0; f < fieldCount; ++f) {
    needed[f] = bytesFor(scan.recordCount, scan.prototype[f].bitWidth());
  }
  auto complete = [&] {
    for (uint64_t f = 0; f < fieldCount; ++f) {
      if (layout.streams[f].size() < needed[f]) return false;
    }
    return true;
  };

  std::vector<uint8_t> lengths(2 * fieldCount);
  uint64_t position = dataStart;
  uint64_t packetNumber = 0;
  while (!complete()) {
    const std::string packetWhere = label + ": packet " + std::to_string(packetNumber) +
                                    " at byte " +
                                    std::to_string(PagedFile::physicalFromLogical(position));
    if (sectionEnd - position < kPacketPrefixSize) {
      for (uint64_t f = 0; f < fieldCount; ++f) {
        if (layout.streams[f].size() >= needed[f]) continue;
        const unsigned bits = scan.prototype[f].bitWidth();
        file.fail(label + ": the section ends after " + std::to_string(layout.dataPackets) +
                  " data packets with bytestream '" + scan.prototype[f].name + "' holding " +
                  std::to_string(layout.streams[f].size() * 8 / bits) + " of its " +
                  std::to_string(scan.recordCount) +
                  " records (recordCount exceeds the data: truncated?)");
      }
    }
    uint8_t prefix[kPacketPrefixSize];
    file.read(position, kPacketPrefixSize, prefix, packetWhere);
    const uint64_t packetLength = uint64_t(loadLittleEndian<uint16_t>(prefix + 2)) + 1;
    if (packetLength > sectionEnd - position) {
      file.fail(packetWhere + ": length " + std::to_string(packetLength) +
                " runs past the end of the section at byte " +
                std::to_string(PagedFile::physicalFromLogical(sectionEnd)));
    }
    switch (prefix[0]) {
      case kIndexPacket:
      case kIgnoredPacket:
        break;
      case kDataPacket: {
        const uint64_t headerSize = kDataPacketHeaderSize + 2 * fieldCount;
        if (packetLength < headerSize) {
          file.fail(packetWhere + ": data packet of " + std::to_string(packetLength) +
                    " bytes, expected at least " + std::to_string(headerSize) +
                    " for its header and " + std::to_string(fieldCount) + " buffer lengths");
        }
        uint8_t countBytes[2];
        file.read(position + kPacketPrefixSize, 2, countBytes, packetWhere);
        const uint64_t streamCount = loadLittleEndian<uint16_t>(countBytes);
        if (streamCount != fieldCount) {
          file.fail(packetWhere + ": " + std::to_string(streamCount) +
                    " bytestreams, expected one per prototype field (" +
                    std::to_string(fieldCount) + ")");
        }
        file.read(position + kDataPacketHeaderSize, 2 * fieldCount, lengths.data(), packetWhere);
        uint64_t offset = position + headerSize;
        for (uint64_t f = 0; f < fieldCount; ++f) {
          const uint64_t length = loadLittleEndian<uint16_t>(lengths.data() + 2 * f);
          if (length > position + packetLength - offset) {
            file.fail(packetWhere + ": bytestream '" + scan.prototype[f].name + "' buffer of " +
                      std::to_string(length) + " bytes runs past the packet's " +
                      std::to_string(packetLength) + " bytes");
          }
          BytestreamSlices& stream = layout.streams[f];
          stream.logical.push_back(offset);
          stream.starts.push_back(stream.starts.back() + length);
          offset += length;
        }
        ++layout.dataPackets;
        break;
      }
      default:
        file.fail(packetWhere + ": packet type " + std::to_string(prefix[0]) +
                  ", expected 0 (index), 1 (data) or 2 (ignored)");
    }
    position += packetLength;
    ++packetNumber;
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
