/// @brief A scan's CompressedVector binary section (ASTM E2807 section 9): a 32-byte section
/// header, then packets. Each data packet carries the next slice of every field's bytestream;
/// index and ignored packets are skipped. Walking the packet headers once tells where every
/// slice of every bytestream lies, so any run of records can then be decoded on its own thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paged_file.hpp"
#include "xml_section.hpp"

namespace pcv::io::e57 {

/// Where one field's bytestream lies: the concatenation of its slices in packet order.
struct BytestreamSlices {
  /// starts[k]: bytes of the stream in the data packets before packet k; one more entry than
  /// there are packets, the last being the stream's length.
  std::vector<uint64_t> starts;
  /// logical[k]: the logical offset of packet k's slice of the stream.
  std::vector<uint64_t> logical;

  uint64_t size() const { return starts.back(); }  ///< bytes
};

struct CompressedVectorLayout {
  std::vector<BytestreamSlices> streams;  ///< one per prototype field, in prototype order
  uint64_t dataPackets = 0;
  uint64_t sectionBytes = 0;  ///< logical length of the binary section
};

/// Reads the section header (also for a scan of no records) and walks the packets until every
/// bytestream holds the bits of the scan's recordCount records. Throws InputError naming the file,
/// the scan and the packet when the section lies outside the file, a header is malformed, a packet
/// runs past the section, its bytestream count differs from the prototype's field count, or the
/// section ends before a bytestream holds recordCount records.
CompressedVectorLayout readCompressedVectorLayout(const PagedFile& file,
                                                  const ScanDescription& scan);

/// Copies bytes [begin, begin + size) of a bytestream (across packets and pages) to `out`; the
/// range lies inside the stream (the caller checked it against the layout).
void copyBytestream(const PagedFile& file, const BytestreamSlices& stream, uint64_t begin,
                    uint64_t size, uint8_t* out);

}  // namespace pcv::io::e57
