// A LAZ or COPC file saved with changed records. The new file is laid out as the old one:
// header and VLRs, the chunk table's offset, the chunks in table order (changed ones
// re-encoded, the rest copied), the chunk table encoded anew, then everything that followed the
// old table (EVLRs: the COPC hierarchy) shifted by the difference. Offsets into the old file
// map to the new one piece by piece (mappedOffset), and every place that holds one is written
// over once the bytes are in place.
#include "laz_patch.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "chunk_encoder.hpp"
#include "chunk_table.hpp"
#include "common/byte_order.hpp"
#include "laz_records.hpp"
#include "pcv/core/error.hpp"
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
void relocateHierarchy(std::span<const uint8_t> file, const LasHeader& header,
                       const ReadContext& context, const Relocation& moved,
                       const std::vector<uint64_t>& newBytes, OutputFile& out) {
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
  out.storeAt<uint64_t>(info->payloadOffset + kRootPageOffsetAt,
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
        out.storeAt<uint64_t>(newEntry + 16, mapped(offset, at + 16));
      } else if (points > 0) {
        const auto chunk = chunkAt.find(offset);
        if (chunk == chunkAt.end()) {
          context.failAt(at + 16, "a COPC node's offset (" + std::to_string(offset) +
                                      ") is where no chunk of the chunk table starts");
        }
        out.storeAt<uint64_t>(newEntry + 16, moved.newOffsets[chunk->second]);
        out.storeAt<int32_t>(newEntry + 24, int32_t(newBytes[chunk->second]));
      }
    }
  }
}

}  // namespace

RecordPatchSummary patchLazFile(std::span<const uint8_t> file, const LasHeader& header,
                                const ReadContext& context, const std::filesystem::path& output,
                                std::span<const RecordChange> changes,
                                const PatchWritten& written) {
  LazPointRecords records(file, header, context);
  const laz::ChunkLayout& layout = records.layout();
  if (!records.vlr().chunked() || layout.sequential || !layout.fromTable ||
      records.missingPoints() > 0) {
    context.fail("only chunked LAZ with a readable chunk table is saved in place of its chunks" +
                 (layout.tableProblem.empty() ? std::string() : " (" + layout.tableProblem + ")") +
                 "; write a copy with pcv convert first");
  }
  const auto& chunks = layout.chunks;
  const uint64_t chunksStart = header.pointsOffset + 8;
  const uint64_t tableOffset = loadLe<uint64_t>(file.data() + header.pointsOffset);
  uint64_t expected = chunksStart;
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
  if (expected != tableOffset) {
    context.failAt(header.pointsOffset, "the LAZ chunk table does not follow the last chunk");
  }
  // What follows the old table: the EVLRs where LAS 1.4 has some, else nothing.
  uint64_t tailStart = file.size();
  if (header.versionMinor >= 4 && loadLe<uint32_t>(file.data() + kEvlrCountAt) > 0) {
    const uint64_t evlrStart = loadLe<uint64_t>(file.data() + kEvlrStartAt);
    if (evlrStart < tableOffset || evlrStart > file.size()) {
      context.failAt(kEvlrStartAt, "EVLRs that do not follow the LAZ chunk table are not moved");
    }
    tailStart = evlrStart;
  }

  RecordPatchSummary summary;
  OutputFile out(output);
  out.append(file.data(), chunksStart);
  Relocation moved{.chunksStart = chunksStart, .oldTailStart = tailStart};
  std::vector<uint64_t> newBytes(chunks.size());
  std::vector<laz::ChunkTableEntry> table(chunks.size());
  const uint32_t length = uint32_t(header.recordLength);
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
  // The chunks that hold changes, and the changes of each (index ranges into `changes`).
  std::vector<size_t> changed;
  std::vector<std::span<const RecordChange>> changesOf;
  for (size_t c = 0; c < chunks.size(); ++c) {
    const auto first = std::lower_bound(
        changes.begin(), changes.end(), chunks[c].firstPoint,
        [](const RecordChange& change, uint64_t index) { return change.index < index; });
    const auto last = std::lower_bound(
        first, changes.end(), chunks[c].firstPoint + chunks[c].pointCount,
        [](const RecordChange& change, uint64_t index) { return change.index < index; });
    if (first == last) continue;
    changed.push_back(c);
    changesOf.emplace_back(first, last);
  }
  // The changed chunks re-encoded a group at a time on all cores (however far apart they lie),
  // then written in order with the unchanged runs between them copied.
  const size_t group = std::max<size_t>(1, kChangedChunksPerWorker * workerCount());
  size_t writtenTo = 0;  // chunks [0, writtenTo) are in the output
  for (size_t groupStart = 0; groupStart < changed.size(); groupStart += group) {
    const size_t groupEnd = std::min(changed.size(), groupStart + group);
    std::vector<std::vector<uint8_t>> encoded(groupEnd - groupStart);
    parallelForEachDynamic(groupEnd - groupStart, [&](size_t g) {
      const size_t c = changed[groupStart + g];
      const laz::ChunkLocation& chunk = chunks[c];
      std::vector<uint8_t> buffer(chunk.pointCount * length);
      const std::unique_ptr<laz::ChunkDecoder> decoder = records.makeDecoder({});
      records.decodeChunk(c, *decoder, buffer.data(), chunk.pointCount,
                          [](const uint8_t*, uint64_t, uint64_t) {});
      for (const RecordChange& change : changesOf[groupStart + g]) {
        applyRecordChange(buffer.data() + (change.index - chunk.firstPoint) * length,
                          header.pointFormat, change);
      }
      try {
        laz::ChunkEncoder encoder(records.vlr());
        encoder.encode(buffer.data(), chunk.pointCount, encoded[g]);
      } catch (const laz::LazError& e) {
        context.fail(std::string("cannot re-encode the chunk of point ") +
                     std::to_string(chunk.firstPoint) + ": " + e.what());
      }
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
  const auto shifted = [&](uint64_t at) {
    const uint64_t old = loadLe<uint64_t>(file.data() + at);
    if (old >= tailStart) out.storeAt<uint64_t>(at, old - tailStart + moved.newTailStart);
  };
  if (header.versionMinor >= 3 && header.headerSize >= kWaveformStartAt + 8) {
    shifted(kWaveformStartAt);
  }
  if (header.versionMinor >= 4 && header.headerSize >= kEvlrCountAt + 4 &&
      loadLe<uint32_t>(file.data() + kEvlrCountAt) > 0) {
    shifted(kEvlrStartAt);
  }
  relocateHierarchy(file, header, context, moved, newBytes, out);
  summary.bytesWritten = moved.newTailStart + (file.size() - tailStart);
  out.close();
  return summary;
}

}  // namespace pcv::io
