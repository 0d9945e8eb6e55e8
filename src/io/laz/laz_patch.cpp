// A LAZ or COPC file saved with changed records. The new file is laid out as the old one:
// header and VLRs, the chunk table's offset, the chunks in table order (changed ones
// re-encoded, the rest copied), the chunk table encoded anew, then everything that followed the
// old table (EVLRs: the COPC hierarchy) shifted by the difference. Offsets into the old file
// map to the new one piece by piece (mappedOffset), and every place that holds one is written
// over once the bytes are in place.
#include "laz_patch.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "chunk_decoder.hpp"
#include "chunk_encoder.hpp"
#include "chunk_table.hpp"
#include "common/byte_order.hpp"
#include "common/save_journal.hpp"
#include "laz_records.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/parallel.hpp"

namespace pcv::io {
namespace {

/// Changed chunks decoded and re-encoded together, per worker, before they are written in order.
constexpr size_t kChangedChunksPerWorker = 4;
/// Unchanged bytes copied between two progress reports.
constexpr uint64_t kCopyStep = uint64_t(256) << 20;
/// LAS 1.3+: start of the waveform data packet record; 1.4: start and count of the EVLRs.
constexpr uint64_t kWaveformStartAt = 227;
constexpr uint64_t kEvlrStartAt = 235;
constexpr uint64_t kEvlrCountAt = 243;
/// COPC info VLR: root hierarchy page offset and size; a hierarchy entry is 32 bytes: key
/// (4 x int32), offset (uint64), byte size (int32), point count (int32; -1: a page).
constexpr uint64_t kRootPageOffsetAt = 40;
constexpr uint64_t kRootPageBytesAt = 48;
constexpr uint64_t kEntryBytes = 32;

/// The output, written in order and patched in place at the end.
class OutputFile {
 public:
  explicit OutputFile(const std::filesystem::path& path) : path_(path) {
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_) fail("cannot open");
  }
  ~OutputFile() {
    if (file_) std::fclose(file_);
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  uint64_t size() const { return size_; }
  void append(const uint8_t* bytes, uint64_t count) {
    if (count > 0 && std::fwrite(bytes, 1, count, file_) != count) fail("cannot write");
    size_ += count;
  }
  template <typename T>
  void storeAt(uint64_t offset, T value) {
    uint8_t bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));  // little-endian hosts only, as the readers
    if (fseeko(file_, off_t(offset), SEEK_SET) != 0 ||
        std::fwrite(bytes, 1, sizeof(T), file_) != sizeof(T)) {
      fail("cannot write");
    }
  }
  void close() {
    const int failed = std::fclose(file_);
    file_ = nullptr;
    if (failed != 0) fail("cannot finish");
  }

 private:
  [[noreturn]] void fail(const char* what) {
    throw Error(std::string(what) + " " + path_.string() + ": " + std::strerror(errno));
  }
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  uint64_t size_ = 0;
};

/// Where the old file's pieces went.
struct Relocation {
  uint64_t chunksStart = 0;          ///< offsets below are unchanged (header, VLRs)
  std::vector<uint64_t> oldOffsets;  ///< of each chunk, ascending
  std::vector<uint64_t> oldBytes;
  std::vector<uint64_t> newOffsets;
  uint64_t oldTailStart = 0;  ///< what followed the old chunk table
  uint64_t newTailStart = 0;

  /// The new offset of old offset `old`, or false where it lies in no piece kept.
  bool map(uint64_t old, uint64_t& mapped) const {
    if (old < chunksStart) {
      mapped = old;
      return true;
    }
    if (old >= oldTailStart) {
      mapped = old - oldTailStart + newTailStart;
      return true;
    }
    const auto after = std::upper_bound(oldOffsets.begin(), oldOffsets.end(), old);
    if (after == oldOffsets.begin()) return false;
    const size_t c = size_t(after - oldOffsets.begin()) - 1;
    if (old - oldOffsets[c] >= oldBytes[c]) return false;
    mapped = newOffsets[c] + (old - oldOffsets[c]);
    return true;
  }
};

/// Writes the COPC hierarchy's offsets for the new layout: each node's chunk offset and size,
/// each page's offset, the root page's in the info VLR. The pages are read from the old file.
template <typename Output>
void relocateHierarchy(std::span<const uint8_t> file, const LasHeader& header,
                       const ReadContext& context, const Relocation& moved,
                       const std::vector<uint64_t>& newBytes, Output& out) {
  const LasVlr* info = header.findVlr("copc", 1);
  if (!info) return;
  if (info->payloadBytes < kRootPageBytesAt + 8) {
    context.failAt(info->payloadOffset, "the COPC info VLR is shorter than 160 bytes");
  }
  std::unordered_map<uint64_t, size_t> chunkAt;
  for (size_t c = 0; c < moved.oldOffsets.size(); ++c) chunkAt[moved.oldOffsets[c]] = c;
  auto mapped = [&](uint64_t old, uint64_t where) {
    uint64_t to = 0;
    if (!moved.map(old, to)) {
      context.failAt(where, "a COPC hierarchy offset (" + std::to_string(old) +
                                ") points into no chunk and past no chunk table");
    }
    return to;
  };
  const uint8_t* vlr = file.data() + info->payloadOffset;
  struct Page {
    uint64_t offset, bytes;
  };
  std::vector<Page> pages{
      {loadLe<uint64_t>(vlr + kRootPageOffsetAt), loadLe<uint64_t>(vlr + kRootPageBytesAt)}};
  out.template storeAt<uint64_t>(info->payloadOffset + kRootPageOffsetAt,
                                 mapped(pages[0].offset, info->payloadOffset + kRootPageOffsetAt));
  // Pages form a tree: more pages than the file has room for means a cycle.
  const uint64_t maxPages = file.size() / kEntryBytes + 1;
  for (uint64_t visited = 0; !pages.empty(); ++visited) {
    const Page page = pages.back();
    pages.pop_back();
    if (visited > maxPages || page.offset > file.size() || page.bytes > file.size() - page.offset ||
        page.bytes % kEntryBytes != 0) {
      context.failAt(page.offset, "a COPC hierarchy page of " + std::to_string(page.bytes) +
                                      " bytes does not fit the file (or pages form a cycle)");
    }
    for (uint64_t at = page.offset; at < page.offset + page.bytes; at += kEntryBytes) {
      const uint8_t* entry = file.data() + at;
      const uint64_t offset = loadLe<uint64_t>(entry + 16);
      const int32_t bytes = loadLe<int32_t>(entry + 24);
      const int32_t points = loadLe<int32_t>(entry + 28);
      const uint64_t newEntry = mapped(at, at);
      if (points == -1) {
        pages.push_back({offset, uint64_t(uint32_t(bytes))});
        out.template storeAt<uint64_t>(newEntry + 16, mapped(offset, at + 16));
      } else if (points > 0) {
        const auto chunk = chunkAt.find(offset);
        if (chunk == chunkAt.end()) {
          context.failAt(at + 16, "a COPC node's offset (" + std::to_string(offset) +
                                      ") is where no chunk of the chunk table starts");
        }
        out.template storeAt<uint64_t>(newEntry + 16, moved.newOffsets[chunk->second]);
        out.template storeAt<int32_t>(newEntry + 24, int32_t(newBytes[chunk->second]));
      }
    }
  }
}

/// The chunks that hold changes, and the changes of each (index ranges into `changes`).
struct ChangedChunks {
  std::vector<size_t> chunks;
  std::vector<std::span<const RecordChange>> changes;
};

ChangedChunks changedChunksOf(const std::vector<laz::ChunkLocation>& chunks,
                              std::span<const RecordChange> changes) {
  ChangedChunks changed;
  for (size_t c = 0; c < chunks.size(); ++c) {
    const auto first = std::lower_bound(
        changes.begin(), changes.end(), chunks[c].firstPoint,
        [](const RecordChange& change, uint64_t index) { return change.index < index; });
    const auto last = std::lower_bound(
        first, changes.end(), chunks[c].firstPoint + chunks[c].pointCount,
        [](const RecordChange& change, uint64_t index) { return change.index < index; });
    if (first == last) continue;
    changed.chunks.push_back(c);
    changed.changes.emplace_back(first, last);
  }
  return changed;
}

/// Chunk `c` decoded, changed and encoded again.
std::vector<uint8_t> reencodeChunk(LazPointRecords& records, const LasHeader& header,
                                   const ReadContext& context, size_t c,
                                   std::span<const RecordChange> changes) {
  const laz::ChunkLocation& chunk = records.layout().chunks[c];
  const uint32_t length = uint32_t(header.recordLength);
  std::vector<uint8_t> buffer(chunk.pointCount * length);
  const std::unique_ptr<laz::ChunkDecoder> decoder = records.makeDecoder({});
  records.decodeChunk(c, *decoder, buffer.data(), chunk.pointCount,
                      [](const uint8_t*, uint64_t, uint64_t) {});
  for (const RecordChange& change : changes) {
    applyRecordChange(buffer.data() + (change.index - chunk.firstPoint) * length,
                      header.pointFormat, change);
  }
  std::vector<uint8_t> encoded;
  try {
    laz::ChunkEncoder encoder(records.vlr());
    encoder.encode(buffer.data(), chunk.pointCount, encoded);
  } catch (const laz::LazError& e) {
    context.fail(std::string("cannot re-encode the chunk of point ") +
                 std::to_string(chunk.firstPoint) + ": " + e.what());
  }
  return encoded;
}

/// Whether a file's chunks can be saved chunk by chunk (a readable table, every point there).
bool savedByChunks(const LazPointRecords& records) {
  const laz::ChunkLayout& layout = records.layout();
  return records.vlr().chunked() && !layout.sequential && layout.fromTable &&
         records.missingPoints() == 0;
}

/// Where a chunked LAZ file's parts lie: the chunks follow each other from the chunk table's
/// offset on, the table follows the last chunk, and what follows the table (the EVLRs where
/// LAS 1.4 has some, else nothing) starts at `start`.
struct FileTail {
  uint64_t tableOffset = 0;
  uint64_t start = 0;
};

FileTail fileTailOf(std::span<const uint8_t> file, const LasHeader& header,
                    const ReadContext& context, const std::vector<laz::ChunkLocation>& chunks) {
  FileTail tail;
  tail.tableOffset = loadLe<uint64_t>(file.data() + header.pointsOffset);
  uint64_t expected = header.pointsOffset + 8;
  for (const laz::ChunkLocation& chunk : chunks) {
    if (chunk.offset != expected) {
      context.failAt(chunk.offset,
                     "LAZ chunks that do not follow each other (a gap or an overlap "
                     "at the chunk of point " +
                         std::to_string(chunk.firstPoint) +
                         ") are not saved in place of their chunks");
    }
    expected += chunk.byteCount;
  }
  if (expected != tail.tableOffset) {
    context.failAt(header.pointsOffset, "the LAZ chunk table does not follow the last chunk");
  }
  tail.start = file.size();
  if (header.versionMinor >= 4 && loadLe<uint32_t>(file.data() + kEvlrCountAt) > 0) {
    const uint64_t evlrStart = loadLe<uint64_t>(file.data() + kEvlrStartAt);
    if (evlrStart < tail.tableOffset || evlrStart > file.size()) {
      context.failAt(kEvlrStartAt, "EVLRs that do not follow the LAZ chunk table are not moved");
    }
    tail.start = evlrStart;
  }
  return tail;
}

/// The header's offsets into the tail (the waveform data and the EVLRs), moved with it from
/// `oldStart` to `newStart`.
template <typename Output>
void moveTailOffsets(std::span<const uint8_t> file, const LasHeader& header, uint64_t oldStart,
                     uint64_t newStart, Output& out) {
  const auto shifted = [&](uint64_t at) {
    const uint64_t old = loadLe<uint64_t>(file.data() + at);
    if (old >= oldStart) out.template storeAt<uint64_t>(at, old - oldStart + newStart);
  };
  if (header.versionMinor >= 3 && header.headerSize >= kWaveformStartAt + 8) {
    shifted(kWaveformStartAt);
  }
  if (header.versionMinor >= 4 && header.headerSize >= kEvlrCountAt + 4 &&
      loadLe<uint32_t>(file.data() + kEvlrCountAt) > 0) {
    shifted(kEvlrStartAt);
  }
}

/// An in-place save's new bytes of the file's head ([0, head.size())) and of what it writes
/// from `movedStart` on, where offsets moved by the save are stored.
struct BufferedOutput {
  std::vector<uint8_t>& head;
  std::vector<uint8_t>& moved;
  uint64_t movedStart = 0;

  template <typename T>
  void storeAt(uint64_t offset, T value) {
    uint8_t* to = nullptr;
    if (offset + sizeof(T) <= head.size()) {
      to = head.data() + offset;
    } else if (offset >= movedStart && offset - movedStart + sizeof(T) <= moved.size()) {
      to = moved.data() + (offset - movedStart);
    } else {
      throw Error("an in-place save stores an offset at " + std::to_string(offset) +
                  ", in no part it rewrites");
    }
    std::memcpy(to, &value, sizeof(T));  // little-endian hosts only, as the readers
  }
};

/// Where an in-place save puts each chunk.
struct InPlaceLayout {
  std::vector<uint64_t> offsets, bytes;  ///< per chunk: where it lies and how long it is
  std::vector<uint8_t> movedAt;          ///< per chunk: 1 where it moves to the end
  std::vector<size_t> fileOrder;         ///< the chunks in the order they lie in the file
  uint64_t movedStart = 0;  ///< where the moved chunks, the new chunk table and the EVLRs go
  bool relocates = false;  ///< a chunk grew: chunks moved, the table and EVLRs rewritten
};

/// Plans an in-place save of the re-encoded chunks (`encoded[c]` empty: chunk c unchanged) and
/// pads them to their places. A chunk no longer than before is padded to its old size. A longer
/// one (COPC files only: there the order of nodes in the file means nothing, where a LAZ file's
/// point order is its own) grows over the chunks after it, as many as it needs, and those move
/// to the end, after the last chunk (or the grown chunk where it reaches past the old chunk
/// table); its rest is padding. Empty where a chunk cannot be padded (pointwise chunks of
/// another size) or a LAZ file's chunk grew.
std::optional<InPlaceLayout> planInPlace(const std::vector<laz::ChunkLocation>& chunks,
                                         std::vector<std::vector<uint8_t>>& encoded,
                                         const FileTail& tail, const laz::LaszipVlr& vlr,
                                         bool copc) {
  const size_t n = chunks.size();
  InPlaceLayout layout;
  layout.movedAt.assign(n, 0);
  for (const laz::ChunkLocation& chunk : chunks) {
    layout.offsets.push_back(chunk.offset);
    layout.bytes.push_back(chunk.byteCount);
  }
  std::vector<size_t> moved;
  uint64_t end = tail.tableOffset;  // of the chunks left in place
  for (size_t c = 0; c < n;) {
    layout.fileOrder.push_back(c);
    if (encoded[c].empty()) {
      ++c;
      continue;
    }
    if (encoded[c].size() <= chunks[c].byteCount) {
      if (!fitChunkInto(encoded[c], chunks[c].byteCount, vlr)) return std::nullopt;
      ++c;
      continue;
    }
    if (!copc) return std::nullopt;
    uint64_t span = chunks[c].byteCount;
    size_t next = c + 1;
    for (; span < encoded[c].size() && next < n; ++next) {
      layout.movedAt[next] = 1;
      moved.push_back(next);
      span += chunks[next].byteCount;
    }
    span = std::max<uint64_t>(span, encoded[c].size());  // the last chunk: over the old table
    if (!fitChunkInto(encoded[c], span, vlr)) return std::nullopt;
    layout.bytes[c] = span;
    layout.relocates = true;
    end = std::max(end, chunks[c].offset + span);
    c = next;
  }
  layout.movedStart = end;
  uint64_t at = end;
  for (const size_t c : moved) {
    layout.offsets[c] = at;
    layout.bytes[c] = encoded[c].empty() ? chunks[c].byteCount : encoded[c].size();
    at += layout.bytes[c];
    layout.fileOrder.push_back(c);
  }
  return layout;
}

/// Ranges sorted by offset with those that overlap or touch joined.
std::vector<ByteRange> mergedRanges(std::vector<ByteRange> ranges) {
  std::sort(ranges.begin(), ranges.end(),
            [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> merged;
  for (const ByteRange& range : ranges) {
    if (range.bytes == 0) continue;
    if (!merged.empty() && range.offset <= merged.back().offset + merged.back().bytes) {
      merged.back().bytes =
          std::max(merged.back().bytes, range.offset + range.bytes - merged.back().offset);
    } else {
      merged.push_back(range);
    }
  }
  return merged;
}

}  // namespace

bool fitChunkInto(std::vector<uint8_t>& chunk, uint64_t bytes, const laz::LaszipVlr& vlr) {
  if (chunk.size() == bytes) return true;
  if (chunk.size() > bytes || vlr.compressor != laz::Compressor::Layered) return false;
  const laz::LayeredChunkShape shape = laz::readLayeredChunkShape(vlr, chunk.data(), chunk.size());
  // The padding goes inside a layer that has bytes: its decoder stops where its data ends, and
  // a layer of no bytes would read as "unchanged from the first point" no more.
  uint64_t at = shape.layersStart;
  for (size_t l = 0; l < shape.layerBytes.size(); ++l) {
    at += shape.layerBytes[l];
    if (shape.layerBytes[l] == 0) continue;
    const uint64_t padding = bytes - chunk.size();
    if (uint64_t(shape.layerBytes[l]) + padding > UINT32_MAX) return false;
    chunk.insert(chunk.begin() + ptrdiff_t(at), size_t(padding), uint8_t(0));
    storeLe<uint32_t>(chunk.data() + vlr.recordLength() + 4 + 4 * l,
                      uint32_t(shape.layerBytes[l] + padding));
    return true;
  }
  return false;
}

RecordPatchSummary patchLazFile(std::span<const uint8_t> file, const LasHeader& header,
                                const ReadContext& context, const std::filesystem::path& output,
                                std::span<const RecordChange> changes,
                                const PatchWritten& written) {
  LazPointRecords records(file, header, context);
  const laz::ChunkLayout& layout = records.layout();
  if (!savedByChunks(records)) {
    context.fail("only chunked LAZ with a readable chunk table is saved in place of its chunks" +
                 (layout.tableProblem.empty() ? std::string() : " (" + layout.tableProblem + ")") +
                 "; write a copy with pcv convert first");
  }
  const auto& chunks = layout.chunks;
  const uint64_t chunksStart = header.pointsOffset + 8;
  const FileTail fileTail = fileTailOf(file, header, context, chunks);
  const uint64_t tailStart = fileTail.start;

  RecordPatchSummary summary;
  OutputFile out(output);
  out.append(file.data(), chunksStart);
  Relocation moved{.chunksStart = chunksStart, .oldTailStart = tailStart};
  std::vector<uint64_t> newBytes(chunks.size());
  std::vector<laz::ChunkTableEntry> table(chunks.size());
  // Chunk c goes to `newOffset` of the output, `bytes` long.
  const auto place = [&](size_t c, uint64_t newOffset, uint64_t bytes) {
    moved.oldOffsets.push_back(chunks[c].offset);
    moved.oldBytes.push_back(chunks[c].byteCount);
    moved.newOffsets.push_back(newOffset);
    newBytes[c] = bytes;
    table[c] = {.pointCount = chunks[c].pointCount, .byteCount = bytes};
  };
  // Chunks [from, to) unchanged: one run of bytes (they follow each other), copied as it is.
  const auto copyChunks = [&](size_t from, size_t to) {
    if (from >= to) return;
    uint64_t at = chunks[from].offset;
    const uint64_t end = chunks[to - 1].offset + chunks[to - 1].byteCount;
    for (size_t c = from; c < to; ++c) {
      place(c, out.size() + (chunks[c].offset - at), chunks[c].byteCount);
    }
    summary.chunksCopied += to - from;
    for (; at < end; at += std::min(kCopyStep, end - at)) {
      out.append(file.data() + at, std::min(kCopyStep, end - at));
      if (written) written(out.size());
    }
  };
  const ChangedChunks changedChunks = changedChunksOf(chunks, changes);
  const std::vector<size_t>& changed = changedChunks.chunks;
  // The changed chunks re-encoded a group at a time on all cores (however far apart they lie),
  // then written in order with the unchanged runs between them copied.
  const size_t group = std::max<size_t>(1, kChangedChunksPerWorker * workerCount());
  size_t writtenTo = 0;  // chunks [0, writtenTo) are in the output
  for (size_t groupStart = 0; groupStart < changed.size(); groupStart += group) {
    const size_t groupEnd = std::min(changed.size(), groupStart + group);
    std::vector<std::vector<uint8_t>> encoded(groupEnd - groupStart);
    parallelForEachDynamic(groupEnd - groupStart, [&](size_t g) {
      encoded[g] = reencodeChunk(records, header, context, changed[groupStart + g],
                                 changedChunks.changes[groupStart + g]);
    });
    for (size_t g = groupStart; g < groupEnd; ++g) {
      const size_t c = changed[g];
      copyChunks(writtenTo, c);
      const std::vector<uint8_t>& mine = encoded[g - groupStart];
      place(c, out.size(), mine.size());
      out.append(mine.data(), mine.size());
      ++summary.chunksReencoded;
      summary.recordsRewritten += chunks[c].pointCount;
      writtenTo = c + 1;
    }
    if (written) written(out.size());
  }
  copyChunks(writtenTo, chunks.size());
  const uint64_t newTableOffset = out.size();
  const std::vector<uint8_t> encodedTable =
      laz::encodeChunkTable(table, records.vlr().variableChunks());
  out.append(encodedTable.data(), encodedTable.size());
  moved.newTailStart = out.size();
  out.append(file.data() + tailStart, file.size() - tailStart);

  // Everything that points into the file, moved with what it points at.
  out.storeAt<int64_t>(header.pointsOffset, int64_t(newTableOffset));
  moveTailOffsets(file, header, tailStart, moved.newTailStart, out);
  relocateHierarchy(file, header, context, moved, newBytes, out);
  summary.bytesWritten = moved.newTailStart + (file.size() - tailStart);
  out.close();
  return summary;
}

std::optional<RecordPatchSummary> patchLazFileInPlace(std::span<const uint8_t> file,
                                                      const LasHeader& header,
                                                      const ReadContext& context,
                                                      const std::filesystem::path& path,
                                                      std::span<const RecordChange> changes,
                                                      const PatchWritten& written) {
  LazPointRecords records(file, header, context);
  if (!savedByChunks(records)) return std::nullopt;
  const auto& chunks = records.layout().chunks;
  const FileTail tail = fileTailOf(file, header, context, chunks);
  const ChangedChunks changedChunks = changedChunksOf(chunks, changes);
  if (changedChunks.chunks.empty()) return RecordPatchSummary{.inPlace = true};
  uint64_t changedBytes = 0;
  for (const size_t c : changedChunks.chunks) changedBytes += chunks[c].byteCount;
  // Journaled and then written, the changed chunks' bytes go to the disk twice: beyond half the
  // file a copy writes less. They are held in memory from encoding to writing.
  if (changedBytes > file.size() / 2 || 2 * changedBytes > availableHostMemoryBytes() / 2) {
    return std::nullopt;
  }
  std::vector<std::vector<uint8_t>> encoded(chunks.size());
  parallelForEachDynamic(changedChunks.chunks.size(), [&](size_t g) {
    const size_t c = changedChunks.chunks[g];
    encoded[c] = reencodeChunk(records, header, context, c, changedChunks.changes[g]);
  });
  const std::optional<InPlaceLayout> layout =
      planInPlace(chunks, encoded, tail, records.vlr(), header.findVlr("copc", 1) != nullptr);
  if (!layout) return std::nullopt;

  RecordPatchSummary summary{.inPlace = true};
  // What is written, by offset: chunks where they were (padded to their old sizes, or grown
  // over the chunks after them, which move to the end), then where chunks moved: the moved
  // chunks, a new chunk table and the EVLRs with the COPC hierarchy's offsets moved with them.
  std::vector<std::pair<uint64_t, std::span<const uint8_t>>> writes;
  std::vector<ByteRange> ranges;
  for (size_t c = 0; c < chunks.size(); ++c) {
    if (encoded[c].empty() || layout->movedAt[c]) continue;
    writes.push_back({chunks[c].offset, encoded[c]});
    ranges.push_back(
        {chunks[c].offset, std::min<uint64_t>(layout->bytes[c], file.size() - chunks[c].offset)});
  }
  std::vector<uint8_t> moved;  // [layout->movedStart, ...): moved chunks, table, EVLRs
  std::vector<uint8_t> head;   // [0, chunksStart): header and VLRs with offsets moved
  if (layout->relocates) {
    const uint64_t chunksStart = header.pointsOffset + 8;
    Relocation relocation{.chunksStart = chunksStart, .oldTailStart = tail.start};
    std::vector<laz::ChunkTableEntry> table;
    for (size_t c = 0; c < chunks.size(); ++c) {
      relocation.oldOffsets.push_back(chunks[c].offset);
      relocation.oldBytes.push_back(chunks[c].byteCount);
      relocation.newOffsets.push_back(layout->offsets[c]);
    }
    for (const size_t c : layout->fileOrder) {
      table.push_back({.pointCount = chunks[c].pointCount, .byteCount = layout->bytes[c]});
    }
    for (const size_t c : layout->fileOrder) {
      if (!layout->movedAt[c]) continue;
      const std::span<const uint8_t> bytes =
          encoded[c].empty() ? file.subspan(chunks[c].offset, chunks[c].byteCount)
                             : std::span<const uint8_t>(encoded[c]);
      moved.insert(moved.end(), bytes.begin(), bytes.end());
    }
    const uint64_t newTableOffset = layout->movedStart + moved.size();
    const std::vector<uint8_t> encodedTable =
        laz::encodeChunkTable(table, records.vlr().variableChunks());
    moved.insert(moved.end(), encodedTable.begin(), encodedTable.end());
    relocation.newTailStart = layout->movedStart + moved.size();
    moved.insert(moved.end(), file.begin() + ptrdiff_t(tail.start), file.end());
    head.assign(file.begin(), file.begin() + ptrdiff_t(chunksStart));
    BufferedOutput out{head, moved, layout->movedStart};
    out.storeAt<int64_t>(header.pointsOffset, int64_t(newTableOffset));
    moveTailOffsets(file, header, tail.start, relocation.newTailStart, out);
    relocateHierarchy(file, header, context, relocation, layout->bytes, out);
    writes.push_back({0, head});
    ranges.push_back({0, chunksStart});
    writes.push_back({layout->movedStart, moved});
    if (layout->movedStart < file.size()) {
      ranges.push_back({layout->movedStart, file.size() - layout->movedStart});
    }
  }
  const std::unique_ptr<InPlaceSave> save =
      InPlaceSave::begin(path, file, mergedRanges(std::move(ranges)));
  if (!save) return std::nullopt;  // a reader has the file open
  for (const auto& [offset, bytes] : writes) {
    save->write(offset, bytes);
    summary.bytesWritten += bytes.size();
    if (written) written(summary.bytesWritten);
  }
  save->commit();
  summary.chunksReencoded = changedChunks.chunks.size();
  for (const size_t c : changedChunks.chunks) summary.recordsRewritten += chunks[c].pointCount;
  summary.chunksCopied = chunks.size() - changedChunks.chunks.size();
  summary.chunksMoved = uint64_t(std::count(layout->movedAt.begin(), layout->movedAt.end(), 1));
  return summary;
}

}  // namespace pcv::io
