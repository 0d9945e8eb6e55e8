/// @brief Where a LAZ file's chunks lie and how many points each holds, from the chunk table
/// (checked against the header's point count and the file's size) or, when the table is
/// missing or unreadable, from the chunks themselves.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "laszip_vlr.hpp"
#include "pcv/io/byte_source.hpp"

namespace pcv::laz {

struct ChunkLocation {
  uint64_t offset;      ///< file offset of the chunk's first byte
  uint64_t byteCount;   ///< its size; for `sequential` layouts only the bytes it may use
  uint64_t pointCount;  ///< points in the chunk
  uint64_t firstPoint;  ///< index of its first point in the file
};

struct ChunkLayout {
  std::vector<ChunkLocation> chunks;
  /// Pointwise chunks without a usable table: only chunks[0].offset is known; each next chunk
  /// starts where decoding the previous one ended, and every chunk may read up to dataEnd.
  bool sequential = false;
  uint64_t dataEnd = 0;      ///< end of the chunk data (the chunk table, or the file's end)
  bool fromTable = false;    ///< read from the chunk table
  std::string tableProblem;  ///< why the table was not used, for `pcv info`; empty when it was
  /// What the file gets wrong that the layout reads around (a table that leaves points out),
  /// for the reader's warnings; the table's problem is not repeated here.
  std::vector<std::string> warnings;
  /// Points the header declares that lie past the end of a file cut short (its chunk table was
  /// at the end): the chunks stop at the last whole one. 0 for a whole file.
  uint64_t missingPoints = 0;
};

/// `file` is the whole file; points start at `pointsOffset`; `dataLimit` is where the point data
/// must end (the first EVLR, or the file size). Throws LazError (offsets are file offsets).
ChunkLayout locateChunks(const ByteSource& file, uint64_t pointsOffset, uint64_t pointCount,
                         const LaszipVlr& vlr, uint64_t dataLimit);

}  // namespace pcv::laz
