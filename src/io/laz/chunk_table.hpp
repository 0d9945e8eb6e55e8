/// @brief The LAZ chunk table: after the chunks, a version (0), a chunk count, then per chunk its
/// point count (variable-size chunks only) and byte count, each arithmetic-coded as the
/// difference to the previous chunk's.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace pcv::laz {

struct ChunkTableEntry {
  uint64_t pointCount;  ///< 0 in tables of fixed-size chunks (the VLR's chunk size applies)
  uint64_t byteCount;
};

/// Decodes `count` entries from the coded bytes after the version and count; nullopt when the
/// data runs out or is corrupt.
std::optional<std::vector<ChunkTableEntry>> decodeChunkTableEntries(const uint8_t* bytes,
                                                                    uint64_t size, uint32_t count,
                                                                    bool variable);

/// The whole table: version, count and the coded entries.
std::vector<uint8_t> encodeChunkTable(const std::vector<ChunkTableEntry>& entries, bool variable);

}  // namespace pcv::laz
