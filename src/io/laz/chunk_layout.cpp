#include "chunk_layout.hpp"

#include <algorithm>

#include "chunk_decoder.hpp"
#include "chunk_table.hpp"
#include "record_bytes.hpp"

namespace pcv::laz {
namespace {

/// Points per byte no LAZ stream exceeds (identical points reach about 600).
constexpr uint64_t kMaxPointsPerByte = 2048;

/// A mapped file's bytes in place, or a remote file's fetched: [offset, end), of which a remote
/// read takes the first `window` bytes only (what the parser needs of a long stretch).
std::span<const uint8_t> bytesOf(const ByteSource& file, uint64_t offset, uint64_t end,
                                 uint64_t window, std::vector<uint8_t>& storage) {
  if (const auto whole = file.whole(); !whole.empty() || file.size() == 0) {
    return whole.subspan(offset, end - offset);
  }
  return file.read(offset, std::min(end - offset, window), storage);
}

/// Bytes a layered chunk's head takes at most beyond its raw first record: its point count and
/// one size per layer.
constexpr uint64_t kLayeredHeadBytes = 4096;

/// A table that cannot be used; the reader falls back to the chunks themselves.
struct UnusableTable {
  std::string why;
};

/// Layered chunks state their own sizes, so they can be found one after the other: appends
/// those from byte `offset` on, their points from `firstPoint` on, up to the header's count.
/// `cutShort`: the file ends early, so the walk stops, without an error, at the first chunk that
/// does not lie whole before `dataEnd`; returns the points found (up to `pointCount`).
uint64_t walkLayeredChunks(const ByteSource& file, uint64_t offset, uint64_t firstPoint,
                           uint64_t dataEnd, uint64_t pointCount, const LaszipVlr& vlr,
                           std::vector<ChunkLocation>& chunks, bool cutShort = false) {
  std::vector<uint8_t> storage;
  while (firstPoint < pointCount) {
    if (cutShort && offset >= dataEnd) break;
    LayeredChunkShape shape;
    try {
      const std::span<const uint8_t> head =
          bytesOf(file, offset, dataEnd, vlr.recordLength() + kLayeredHeadBytes, storage);
      shape = readLayeredChunkShape(vlr, head.data(), head.size());
    } catch (const LazError& e) {
      if (cutShort) break;
      throw LazError(offset + e.byte, "chunk " + std::to_string(chunks.size()) + " (at byte " +
                                          std::to_string(offset) + "): " + e.what());
    }
    if (cutShort && shape.totalBytes > dataEnd - offset) break;
    const uint64_t remaining = pointCount - firstPoint;
    uint64_t points = std::min<uint64_t>(vlr.chunkSize, remaining);
    if (vlr.variableChunks()) {
      points = shape.statedPointCount;
      if (points == 0 || points > remaining) {
        throw LazError(offset + vlr.recordLength(),
                       "point counts disagree: chunk " + std::to_string(chunks.size()) +
                           " states " + std::to_string(points) + " points, but only " +
                           std::to_string(remaining) + " of the header's " +
                           std::to_string(pointCount) + " are left");
      }
    }
    chunks.push_back({offset, shape.totalBytes, points, firstPoint});
    offset += shape.totalBytes;
    firstPoint += points;
  }
  return firstPoint;
}

/// A variable-size table that accounts for fewer points than the header declares (writers that
/// leave the last chunk out of it): LASzip reads on from where the tabled chunks end, so the
/// missing points are in the bytes between them and the table or, when there are none, in the
/// last tabled chunk, which runs on to the declared count. Layered chunks state their sizes, so
/// several untabled ones are found exactly; a pointwise one runs to the declared count.
void readUntabledPoints(const ByteSource& file, uint64_t untabledStart, uint64_t tableOffset,
                        uint64_t pointCount, const LaszipVlr& vlr,
                        std::vector<ChunkLocation>& chunks, std::vector<std::string>& warnings) {
  const uint64_t tabled = chunks.empty() ? 0 : chunks.back().firstPoint + chunks.back().pointCount;
  const uint64_t missing = pointCount - tabled;
  std::string how;
  if (untabledStart < tableOffset) {
    const size_t before = chunks.size();
    if (vlr.compressor == Compressor::Layered) {
      walkLayeredChunks(file, untabledStart, tabled, tableOffset, pointCount, vlr, chunks);
    } else {
      chunks.push_back({untabledStart, tableOffset - untabledStart, missing, tabled});
    }
    how = "read from the " + std::to_string(chunks.size() - before) +
          " untabled chunk(s) between byte " + std::to_string(untabledStart) + " and the table";
  } else if (!chunks.empty()) {
    chunks.back().pointCount += missing;
    how = "read by running the last chunk (from byte " + std::to_string(chunks.back().offset) +
          ") on to the declared count";
  } else {
    return;  // no chunk data at all: the caller refuses the counts
  }
  warnings.push_back("the LAZ chunk table at byte " + std::to_string(tableOffset) +
                     " accounts for " + std::to_string(tabled) + " of the header's " +
                     std::to_string(pointCount) + " points; the other " + std::to_string(missing) +
                     " were " + how + ", as LASzip reads them");
}

/// Chunks from the table at `tableOffset`; throws UnusableTable when it cannot be read, LazError
/// when it reads fine but disagrees with the header.
std::vector<ChunkLocation> chunksFromTable(const ByteSource& file, uint64_t tableOffset,
                                           uint64_t chunksStart, uint64_t pointCount,
                                           const LaszipVlr& vlr, uint64_t dataLimit,
                                           std::vector<std::string>& warnings) {
  const uint64_t size = file.size();
  // The table runs to the first EVLR (or the file's end); a remote file is read that far only.
  std::vector<uint8_t> storage;
  const uint64_t tableEnd = tableOffset + 8 < dataLimit ? dataLimit : size;
  const std::span<const uint8_t> table =
      bytesOf(file, tableOffset, file.whole().empty() ? tableEnd : size, UINT64_MAX, storage);
  const uint32_t version = loadLe<uint32_t>(table.data());
  if (version != 0) {
    throw UnusableTable{"the chunk table at byte " + std::to_string(tableOffset) + " has version " +
                        std::to_string(version) + ", expected 0"};
  }
  const uint32_t count = loadLe<uint32_t>(table.data() + 4);
  // Every chunk holds at least its first point raw, so the bytes before the table bound the
  // count before anything is allocated.
  const uint64_t available = tableOffset - chunksStart;
  if (uint64_t(count) * vlr.recordLength() > available && tableOffset > chunksStart) {
    throw UnusableTable{"the chunk table lists " + std::to_string(count) + " chunks, more than " +
                        std::to_string(available) + " bytes of chunks can hold"};
  }
  auto entries =
      decodeChunkTableEntries(table.data() + 8, table.size() - 8, count, vlr.variableChunks());
  if (!entries) {
    throw UnusableTable{"the chunk table at byte " + std::to_string(tableOffset) +
                        " is truncated or corrupt"};
  }
  std::vector<ChunkLocation> chunks;
  chunks.reserve(entries->size());
  uint64_t offset = chunksStart, firstPoint = 0;
  for (size_t i = 0; i < entries->size(); ++i) {
    const ChunkTableEntry& entry = (*entries)[i];
    const uint64_t remaining = pointCount - firstPoint;
    const uint64_t points =
        vlr.variableChunks() ? entry.pointCount : std::min<uint64_t>(vlr.chunkSize, remaining);
    if (entry.byteCount > size - offset) {
      throw UnusableTable{"the chunk table's chunk " + std::to_string(i) + " (" +
                          std::to_string(entry.byteCount) + " bytes at byte " +
                          std::to_string(offset) + ") runs past the end of the file"};
    }
    // Writers that close a chunk twice leave an empty one in variable tables; nothing to decode.
    if (points == 0 && vlr.variableChunks()) {
      offset += entry.byteCount;
      continue;
    }
    if (points > remaining || points == 0) {
      throw LazError(
          tableOffset + 4,
          "point counts disagree: the chunk table lists " + std::to_string(count) + " chunks" +
              (vlr.variableChunks() ? "" : " of " + std::to_string(vlr.chunkSize)) +
              " points, but the header declares " + std::to_string(pointCount) + " points (chunk " +
              std::to_string(i) + " would hold " + std::to_string(points) + " of the " +
              std::to_string(remaining) + " left)");
    }
    chunks.push_back({offset, entry.byteCount, points, firstPoint});
    offset += entry.byteCount;
    firstPoint += points;
  }
  if (firstPoint < pointCount && vlr.variableChunks() && offset <= tableOffset) {
    readUntabledPoints(file, offset, tableOffset, pointCount, vlr, chunks, warnings);
    firstPoint = chunks.empty() ? 0 : chunks.back().firstPoint + chunks.back().pointCount;
  }
  if (firstPoint != pointCount) {
    throw LazError(tableOffset + 4,
                   "point counts disagree: the chunk table's " + std::to_string(count) +
                       " chunks hold " + std::to_string(firstPoint) +
                       " points, but the header declares " + std::to_string(pointCount));
  }
  return chunks;
}

}  // namespace

ChunkLayout locateChunks(const ByteSource& file, uint64_t pointsOffset, uint64_t pointCount,
                         const LaszipVlr& vlr, uint64_t dataLimit) {
  const uint64_t size = file.size();
  dataLimit = std::min(dataLimit, size);
  // The adaptive models cost every point a few thousandths of a bit at least, so even identical
  // points take a byte per thousand or so: counts far beyond are refused before anything is
  // allocated for them.
  const uint64_t dataBytes = dataLimit > pointsOffset ? dataLimit - pointsOffset : 0;
  if (pointCount / kMaxPointsPerByte > dataBytes) {
    throw LazError(pointsOffset, "the header declares " + std::to_string(pointCount) +
                                     " points, but " + std::to_string(dataBytes) +
                                     " bytes of compressed points hold at most " +
                                     std::to_string(dataBytes * kMaxPointsPerByte));
  }
  ChunkLayout layout;
  layout.dataEnd = dataLimit;
  if (!vlr.chunked()) {
    if (pointCount > 0) {
      layout.chunks.push_back({pointsOffset, dataLimit - pointsOffset, pointCount, 0});
    }
    return layout;
  }
  if (pointCount == 0) return layout;
  if (dataLimit < pointsOffset + 8) {
    throw LazError(pointsOffset, "the point data ends before the 8-byte offset of the chunk table");
  }
  const uint64_t chunksStart = pointsOffset + 8;
  std::vector<uint8_t> storage;
  int64_t tableOffset = loadLe<int64_t>(file.read(pointsOffset, 8, storage).data());
  // Writers that cannot seek back put the offset in the file's last 8 bytes and write -1 here;
  // whatever else ends the file (EVLRs appended later, say) makes those bytes point anywhere.
  const bool offsetAtEnd = tableOffset == -1;
  try {
    if (offsetAtEnd && size >= chunksStart + 8) {
      tableOffset = loadLe<int64_t>(file.read(size - 8, 8, storage).data());
    }
    if (tableOffset == int64_t(pointsOffset)) {
      throw UnusableTable{"the chunk table is missing (its offset was never written)"};
    }
    if (tableOffset < int64_t(chunksStart) || uint64_t(tableOffset) > size - 8) {
      throw UnusableTable{"the chunk table offset " + std::to_string(tableOffset) +
                          (offsetAtEnd ? " (in the file's last 8 bytes, as streaming writers "
                                         "leave it)"
                                       : "") +
                          " lies outside the file's chunk data (bytes " +
                          std::to_string(chunksStart) + " to " + std::to_string(size) + ")"};
    }
    layout.chunks =
        chunksFromTable(file, uint64_t(tableOffset), chunksStart, pointCount, vlr, dataLimit,
                        layout.warnings);
    layout.dataEnd = uint64_t(tableOffset);
    layout.fromTable = true;
    return layout;
  } catch (const UnusableTable& problem) {
    layout.tableProblem = problem.why;
  } catch (const LazError& error) {
    // A table the header points at and that disagrees with it is the file's word; one found
    // through the file's last bytes may be any data that happens to parse.
    if (!offsetAtEnd) throw;
    layout.tableProblem =
        "the file's last 8 bytes (where streaming writers leave the chunk "
        "table offset) point at byte " +
        std::to_string(tableOffset) +
        ", which holds no chunk table for these "
        "points (" +
        error.what() + ")";
  }
  layout.chunks.clear();
  layout.warnings.clear();
  // A table offset past the end of the file (written where the table was, after the chunks): the
  // file was cut short, its last chunks and table lost.
  const bool cutShort = !offsetAtEnd && tableOffset > int64_t(size) - 8 && dataLimit == size;
  // Without a table: layered chunks state their sizes; pointwise ones end where decoding ends.
  if (vlr.compressor == Compressor::Layered) {
    const uint64_t found = walkLayeredChunks(file, chunksStart, 0, layout.dataEnd, pointCount, vlr,
                                             layout.chunks, cutShort);
    layout.missingPoints = pointCount - found;
    return layout;
  }
  if (cutShort) {
    throw LazError(pointsOffset,
                   "the file is cut short: its chunk table offset " + std::to_string(tableOffset) +
                       " lies past its end (" + std::to_string(size) +
                       " bytes), and its pointwise chunks cannot be found without the table");
  }
  if (vlr.variableChunks()) {
    throw LazError(pointsOffset,
                   "variable-size pointwise chunks cannot be found without the "
                   "chunk table, and " +
                       layout.tableProblem);
  }
  layout.sequential = true;
  // Each chunk starts with a raw point, which bounds the chunk count by the bytes there are.
  const uint64_t chunkCount = (pointCount - 1) / vlr.chunkSize + 1;
  if (chunkCount > (layout.dataEnd - chunksStart) / vlr.recordLength()) {
    throw LazError(pointsOffset, "the header declares " + std::to_string(pointCount) + " points, " +
                                     std::to_string(chunkCount) + " chunks, more than the " +
                                     std::to_string(layout.dataEnd - chunksStart) +
                                     " bytes of chunk data can hold");
  }
  for (uint64_t first = 0; first < pointCount; first += vlr.chunkSize) {
    const uint64_t points = std::min<uint64_t>(vlr.chunkSize, pointCount - first);
    layout.chunks.push_back({first == 0 ? chunksStart : 0, 0, points, first});
  }
  layout.chunks.front().byteCount = layout.dataEnd - chunksStart;
  return layout;
}

}  // namespace pcv::laz
