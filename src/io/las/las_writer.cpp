// LAS 1.2-1.4 and LAZ files: header and VLRs first (the header rewritten at the end with the
// counts and bounds of what was written), then the records or the LAZ chunks, the chunk table,
// and the EVLRs. Header layout from the LAS 1.4 R15 specification, table 3.
#include "pcv/io/las_writer.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <future>
#include <limits>
#include <mutex>
#include <numeric>

#include "laz/chunk_encoder.hpp"
#include "laz/chunk_table.hpp"
#include "laz/laszip_vlr.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/core/stopwatch.hpp"
#include "common/byte_order.hpp"

namespace pcv {
namespace {

constexpr uint16_t kFormatBytes[11] = {20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67};
constexpr uint64_t kVlrHeaderBytes = 54, kEvlrHeaderBytes = 60;

uint16_t headerBytesFor(int minor) {
  return minor >= 4 ? 375 : (minor == 3 ? 235 : 227);
}

/// What the header reports about the records: computed as they are written.
struct RecordStats {
  uint64_t count = 0;
  int32_t min[3] = {INT32_MAX, INT32_MAX, INT32_MAX};
  int32_t max[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
  uint64_t byReturn[15] = {};

  void add(const uint8_t* records, uint64_t n, uint16_t length, bool extended) {
    for (uint64_t i = 0; i < n; ++i) {
      const uint8_t* r = records + i * length;
      for (int a = 0; a < 3; ++a) {
        const int32_t v = io::loadLe<int32_t>(r + 4 * a);
        min[a] = std::min(min[a], v);
        max[a] = std::max(max[a], v);
      }
      const uint32_t returnNumber = extended ? r[14] & 0x0Fu : r[14] & 0x07u;
      if (returnNumber >= 1 && returnNumber <= 15) ++byReturn[returnNumber - 1];
    }
    count += n;
  }
  void merge(const RecordStats& other) {
    for (int a = 0; a < 3; ++a) {
      min[a] = std::min(min[a], other.min[a]);
      max[a] = std::max(max[a], other.max[a]);
    }
    for (int r = 0; r < 15; ++r) byReturn[r] += other.byReturn[r];
    count += other.count;
  }
};

/// Appends little-endian values and fixed-width text to a byte buffer.
struct ByteWriter {
  std::vector<uint8_t> bytes;
  template <typename T>
  void put(T value) {
    uint8_t raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    bytes.insert(bytes.end(), raw, raw + sizeof(T));
  }
  void text(const std::string& s, size_t width) {
    for (size_t i = 0; i < width; ++i) bytes.push_back(i < s.size() ? uint8_t(s[i]) : 0);
  }
};

void checkFormat(const LasWriteFormat& f) {
  if (f.pointFormat < 0 || f.pointFormat > 10) {
    throw InputError("point format " + std::to_string(f.pointFormat) + " is not defined (0-10)");
  }
  if (f.recordLength < kFormatBytes[f.pointFormat]) {
    throw InputError("point records of " + std::to_string(f.recordLength) +
                     " bytes are shorter than point format " + std::to_string(f.pointFormat) +
                     "'s " + std::to_string(kFormatBytes[f.pointFormat]));
  }
  if (f.versionMinor < minimumLasMinorVersion(f.pointFormat) || f.versionMinor > 4) {
    throw InputError("LAS 1." + std::to_string(f.versionMinor) + " cannot hold point format " +
                     std::to_string(f.pointFormat));
  }
  for (int a = 0; a < 3; ++a) {
    if (!(f.scale[a] != 0.0) || !std::isfinite(f.scale[a]) || !std::isfinite(f.offset[a])) {
      throw InputError("LAS scale and offset must be finite and the scale non-zero");
    }
  }
  if (!f.evlrs.empty() && f.versionMinor < 4) {
    throw InputError("EVLRs need LAS 1.4, not 1." + std::to_string(f.versionMinor));
  }
}

}  // namespace

int minimumLasMinorVersion(int pointFormat) {
  return pointFormat >= 6 ? 4 : (pointFormat >= 4 ? 3 : 2);
}

uint16_t lasFormatRecordBytes(int pointFormat) {
  return kFormatBytes[pointFormat];
}

struct LasFileWriter::State {
  std::filesystem::path path;
  std::FILE* file = nullptr;
  LasWriteFormat format;
  bool compressed = false;
  bool variableChunks = false;  ///< chunks come from writeChunks, the table holds their counts
  uint32_t chunkPoints = 0;
  bool pointsFinished = false;  ///< the chunk table is written
  bool finished = false;
  uint64_t pointsOffset = 0;
  uint64_t evlrStart = 0;  ///< file offset of the first EVLR, once written
  RecordStats stats;
  // Records written at their place (placeRecords): how many the file holds, and the lock
  // under which each writer adds what it wrote to `stats`.
  bool placed = false;
  uint64_t placedCount = 0;
  mutable std::mutex statsLock;
  // LAZ: records waiting for a full batch of chunks, the encoders, and the chunks written.
  laz::LaszipVlr vlr;
  std::vector<uint8_t> pending;
  uint64_t pendingPoints = 0;
  uint64_t batchPoints = 0;
  std::vector<std::unique_ptr<laz::ChunkEncoder>> encoders;
  std::vector<laz::ChunkTableEntry> table;
  // Each round of chunks is written by a thread of its own while the next is encoded, into the
  // other of two sets of buffers (kept, so their pages are not faulted in again each round).
  std::vector<std::vector<uint8_t>> encoded[2];
  int nextEncoded = 0;
  std::future<double> writing;  ///< returns its wall seconds
  LasWriteTimes times;
  uint64_t chunksEnd = 0;  ///< file offset where the next chunk goes

  void writeBytes(const void* data, size_t size) {
    if (size && std::fwrite(data, 1, size, file) != size) {
      throw Error(path.string() + ": writing failed (disk full?)");
    }
  }
  /// Waits for the round being written; rethrows its error.
  void waitForWriting() {
    if (!writing.valid()) return;
    const auto start = std::chrono::steady_clock::now();
    times.writingSeconds += writing.get();
    times.waitingSeconds += secondsSince(start);
  }
  uint64_t position() {
    waitForWriting();
    return uint64_t(std::ftell(file));
  }

  std::vector<uint8_t> headerAndVlrs() const;
  void encodeChunks(const uint8_t* records, uint64_t points);
  std::vector<LasChunkPlacement> encodeChunkList(std::span<const LasChunkRecords> chunks);
  uint64_t finishPoints();
  void writeEvlrs();
};

std::vector<uint8_t> LasFileWriter::State::headerAndVlrs() const {
  const LasWriteFormat& f = format;
  const bool extended = f.pointFormat >= 6;
  ByteWriter w;
  w.text("LASF", 4);
  w.put<uint16_t>(f.fileSourceId);
  w.put<uint16_t>(f.globalEncoding);
  w.text("", 16);  // project GUID
  w.put<uint8_t>(1);
  w.put<uint8_t>(uint8_t(f.versionMinor));
  w.text(f.systemIdentifier, 32);
  w.text(f.generatingSoftware, 32);
  w.put<uint16_t>(f.creationDay);
  w.put<uint16_t>(f.creationYear);
  w.put<uint16_t>(headerBytesFor(f.versionMinor));
  w.put<uint32_t>(uint32_t(pointsOffset));
  w.put<uint32_t>(uint32_t(f.vlrs.size() + (compressed ? 1 : 0)));
  w.put<uint8_t>(uint8_t(f.pointFormat | (compressed ? 0x80 : 0)));
  w.put<uint16_t>(f.recordLength);
  // Formats 6-10 leave the legacy counts 0; older formats fill them while they fit 32 bits.
  const bool legacyFits = !extended && stats.count <= std::numeric_limits<uint32_t>::max();
  w.put<uint32_t>(legacyFits ? uint32_t(stats.count) : 0);
  for (int r = 0; r < 5; ++r) {
    w.put<uint32_t>(legacyFits && stats.byReturn[r] <= UINT32_MAX ? uint32_t(stats.byReturn[r])
                                                                  : 0);
  }
  for (int a = 0; a < 3; ++a) w.put<double>(f.scale[a]);
  for (int a = 0; a < 3; ++a) w.put<double>(f.offset[a]);
  for (int a = 0; a < 3; ++a) {
    const bool any = stats.count > 0;
    w.put<double>(any ? stats.max[a] * f.scale[a] + f.offset[a] : 0.0);
    w.put<double>(any ? stats.min[a] * f.scale[a] + f.offset[a] : 0.0);
  }
  if (f.versionMinor >= 3) w.put<uint64_t>(0);  // start of waveform data: none inside
  if (f.versionMinor >= 4) {
    w.put<uint64_t>(evlrStart);
    w.put<uint32_t>(uint32_t(f.evlrs.size()));
    w.put<uint64_t>(stats.count);
    for (int r = 0; r < 15; ++r) w.put<uint64_t>(stats.byReturn[r]);
  }
  auto putVlr = [&](const LasVariableRecord& record) {
    w.put<uint16_t>(0);
    w.text(record.userId, 16);
    w.put<uint16_t>(record.recordId);
    w.put<uint16_t>(uint16_t(record.payload.size()));
    w.text(record.description, 32);
    w.bytes.insert(w.bytes.end(), record.payload.begin(), record.payload.end());
  };
  for (const LasVariableRecord& record : f.vlrs) putVlr(record);
  if (compressed) {
    putVlr({.userId = laz::kLaszipUserId,
            .recordId = laz::kLaszipRecordId,
            .description = "LAZ compression",
            .payload = laz::packLaszipVlr(vlr)});
  }
  return w.bytes;
}

void LasFileWriter::State::encodeChunks(const uint8_t* batch, uint64_t points) {
  std::vector<LasChunkRecords> chunks;
  for (uint64_t first = 0; first < points; first += chunkPoints) {
    chunks.push_back({.records = batch + first * format.recordLength,
                      .count = std::min<uint64_t>(chunkPoints, points - first)});
  }
  encodeChunkList(chunks);
}

std::vector<LasChunkPlacement> LasFileWriter::State::encodeChunkList(
    std::span<const LasChunkRecords> chunks) {
  std::vector<std::vector<uint8_t>>& out = encoded[nextEncoded];
  nextEncoded ^= 1;
  // Buffers kept from earlier rounds may add up to more than this round needs (chunk sizes vary
  // from round to round): above the round's record bytes, which its chunks rarely exceed, they
  // are let go, so the two sets stay within the rounds' share of the memory budget.
  uint64_t roundRecordBytes = 0;
  for (const LasChunkRecords& chunk : chunks) roundRecordBytes += chunk.count * format.recordLength;
  out.resize(chunks.size());
  uint64_t keptBytes = 0;
  for (const std::vector<uint8_t>& buffer : out) keptBytes += buffer.capacity();
  if (keptBytes > roundRecordBytes) {
    out.clear();
    out.resize(chunks.size());
  }
  for (size_t c = 0; c < chunks.size(); ++c) out[c].clear();
  std::vector<RecordStats> chunkStats(chunks.size());
  const auto encodingStart = std::chrono::steady_clock::now();
  // Largest chunks first: a round ends with its last chunk, and a large one taken last leaves
  // the other cores idle (COPC nodes range from a few points to a full leaf). Each chunk still
  // has its own buffer and place in the file.
  std::vector<size_t> largestFirst(chunks.size());
  std::iota(largestFirst.begin(), largestFirst.end(), size_t(0));
  std::stable_sort(largestFirst.begin(), largestFirst.end(),
                   [&](size_t a, size_t b) { return chunks[a].count > chunks[b].count; });
  std::atomic<size_t> next{0};
  const uint64_t threads = std::min<uint64_t>(encoders.size(), chunks.size());
  const bool extended = format.pointFormat >= 6;
  parallelFor(
      threads,
      [&](uint64_t slot, uint64_t) {
        if (!encoders[slot]) encoders[slot] = std::make_unique<laz::ChunkEncoder>(vlr);
        for (size_t taken; (taken = next.fetch_add(1)) < chunks.size();) {
          const size_t c = largestFirst[taken];
          encoders[slot]->encode(chunks[c].records, chunks[c].count, out[c]);
          chunkStats[c].add(chunks[c].records, chunks[c].count, format.recordLength, extended);
        }
      },
      1);
  times.encodingSeconds += secondsSince(encodingStart);
  std::vector<LasChunkPlacement> placements(chunks.size());
  for (size_t c = 0; c < chunks.size(); ++c) {
    placements[c] = {.offset = chunksEnd, .bytes = out[c].size()};
    chunksEnd += out[c].size();
    table.push_back({chunkStats[c].count, out[c].size()});
    stats.merge(chunkStats[c]);
  }
  waitForWriting();
  writing = std::async(std::launch::async, [this, &out, count = chunks.size()] {
    const auto start = std::chrono::steady_clock::now();
    for (size_t c = 0; c < count; ++c) writeBytes(out[c].data(), out[c].size());
    return secondsSince(start);
  });
  return placements;
}

uint64_t LasFileWriter::State::finishPoints() {
  if (pointsFinished) return position();
  pointsFinished = true;
  if (placed) {
    if (stats.count != placedCount) {
      throw Error(path.string() + ": " + std::to_string(stats.count) + " of the " +
                  std::to_string(placedCount) + " records placed were written");
    }
    // What follows the records (the EVLRs) goes after the last of them, wherever the file
    // position was left.
    std::fseek(file, long(pointsOffset + placedCount * format.recordLength), SEEK_SET);
  }
  if (compressed) {
    if (pendingPoints) encodeChunks(pending.data(), pendingPoints);
    pending.clear();
    pendingPoints = 0;
    const uint64_t tableOffset = position();
    const std::vector<uint8_t> encodedTable = laz::encodeChunkTable(table, variableChunks);
    writeBytes(encodedTable.data(), encodedTable.size());
    std::fseek(file, long(pointsOffset), SEEK_SET);
    writeBytes(&tableOffset, 8);
    std::fseek(file, 0, SEEK_END);
  }
  return position();
}

void LasFileWriter::State::writeEvlrs() {
  if (format.evlrs.empty()) return;
  const uint64_t start = position();
  for (const LasVariableRecord& record : format.evlrs) {
    ByteWriter w;
    w.put<uint16_t>(0);
    w.text(record.userId, 16);
    w.put<uint16_t>(record.recordId);
    w.put<uint64_t>(record.payload.size());
    w.text(record.description, 32);
    writeBytes(w.bytes.data(), w.bytes.size());
    writeBytes(record.payload.data(), record.payload.size());
  }
  evlrStart = start;
}

LasFileWriter::LasFileWriter(const std::filesystem::path& path, const LasWriteFormat& format,
                             LasCompression compression, uint32_t chunkPoints)
    : state_(std::make_unique<State>()) {
  checkFormat(format);
  State& s = *state_;
  s.path = path;
  s.format = format;
  s.compressed = compression == LasCompression::Laz;
  s.chunkPoints = std::max<uint32_t>(1, chunkPoints);
  s.variableChunks = s.compressed && chunkPoints == kLasVariableChunks;
  if (s.compressed) {
    s.vlr = laz::laszipVlrFor(format.pointFormat, format.recordLength,
                              s.variableChunks ? laz::kVariableChunkSize : s.chunkPoints);
    s.encoders.resize(workerCount());
    s.batchPoints = uint64_t(s.chunkPoints) * s.encoders.size();
  }
  s.file = std::fopen(path.string().c_str(), "wb");
  if (!s.file) throw Error(path.string() + ": cannot create the file");
  s.pointsOffset = s.headerAndVlrs().size();
  const std::vector<uint8_t> header = s.headerAndVlrs();
  s.writeBytes(header.data(), header.size());
  if (s.compressed) {
    const int64_t unknown = -1;  // the chunk table offset, patched in finish()
    s.writeBytes(&unknown, 8);
    s.chunksEnd = s.position();
  }
}

LasFileWriter::~LasFileWriter() {
  try {
    state_->waitForWriting();
  } catch (const std::exception&) {
    // The file is removed below either way.
  }
  // Not finished (an error on the way): a half-written file would only mislead.
  if (state_->file) {
    std::fclose(state_->file);
    std::error_code ignored;
    std::filesystem::remove(state_->path, ignored);
  }
}

uint64_t LasFileWriter::pointsWritten() const {
  const std::lock_guard<std::mutex> lock(state_->statsLock);
  return state_->stats.count + state_->pendingPoints;
}

LasWriteTimes LasFileWriter::times() const {
  return state_->times;
}

void LasFileWriter::write(const uint8_t* records, uint64_t count) {
  State& s = *state_;
  const uint64_t length = s.format.recordLength;
  if (s.variableChunks) {
    throw Error(s.path.string() + ": a LAZ file of variable chunks is written by writeChunks");
  }
  if (s.pointsFinished) throw Error(s.path.string() + ": points written after finishPoints");
  if (s.placed) throw Error(s.path.string() + ": placed records are written by writeAt");
  if (!s.compressed) {
    s.stats.add(records, count, uint16_t(length), s.format.pointFormat >= 6);
    s.writeBytes(records, count * length);
    return;
  }
  while (count > 0) {
    // Whole batches straight from the caller's records, up to four rounds of chunks per call
    // so that the workers' loads even out; the rest waits for more.
    if (s.pendingPoints == 0 && count >= s.batchPoints) {
      const uint64_t points = std::min(count / s.batchPoints, uint64_t(4)) * s.batchPoints;
      s.encodeChunks(records, points);
      records += points * length;
      count -= points;
      continue;
    }
    const uint64_t take = std::min(count, s.batchPoints - s.pendingPoints);
    s.pending.insert(s.pending.end(), records, records + take * length);
    s.pendingPoints += take;
    records += take * length;
    count -= take;
    if (s.pendingPoints == s.batchPoints) {
      s.encodeChunks(s.pending.data(), s.pendingPoints);
      s.pending.clear();
      s.pendingPoints = 0;
    }
  }
}

void LasFileWriter::placeRecords(uint64_t count) {
  State& s = *state_;
  if (s.compressed) throw Error(s.path.string() + ": LAZ records are written in order");
  if (s.placed || s.stats.count > 0 || s.pointsFinished) {
    throw Error(s.path.string() + ": records placed after others were written");
  }
  // The header and VLRs are in the stream's buffer: on disk before the records go beside them.
  if (std::fflush(s.file) != 0) throw Error(s.path.string() + ": writing failed (disk full?)");
  s.placed = true;
  s.placedCount = count;
}

void LasFileWriter::writeAt(uint64_t first, const uint8_t* records, uint64_t count) {
  State& s = *state_;
  if (!s.placed) throw Error(s.path.string() + ": writeAt needs placeRecords first");
  if (first > s.placedCount || count > s.placedCount - first) {
    throw Error(s.path.string() + ": records " + std::to_string(first) + "-" +
                std::to_string(first + count) + " lie past the " + std::to_string(s.placedCount) +
                " placed");
  }
  const uint64_t length = s.format.recordLength;
  RecordStats written;
  written.add(records, count, uint16_t(length), s.format.pointFormat >= 6);
  const uint8_t* bytes = records;
  uint64_t left = count * length;
  uint64_t at = s.pointsOffset + first * length;
  const int fd = ::fileno(s.file);
  while (left > 0) {
    const ssize_t done = ::pwrite(fd, bytes, left, off_t(at));
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) {
      throw Error(s.path.string() + ": writing failed (" +
                  (done < 0 ? std::string(std::strerror(errno)) : "nothing written") + ")");
    }
    bytes += done;
    left -= uint64_t(done);
    at += uint64_t(done);
  }
  const std::lock_guard<std::mutex> lock(s.statsLock);
  s.stats.merge(written);
}

std::vector<LasChunkPlacement> LasFileWriter::writeChunks(std::span<const LasChunkRecords> chunks) {
  State& s = *state_;
  if (!s.variableChunks) {
    throw Error(s.path.string() + ": writeChunks needs a LAZ writer of kLasVariableChunks");
  }
  if (s.pointsFinished) throw Error(s.path.string() + ": chunks written after finishPoints");
  for (const LasChunkRecords& chunk : chunks) {
    if (chunk.count == 0) throw Error(s.path.string() + ": a LAZ chunk needs at least one point");
  }
  return s.encodeChunkList(chunks);
}

void LasFileWriter::replaceVlrPayload(size_t index, std::vector<uint8_t> payload) {
  State& s = *state_;
  if (index >= s.format.vlrs.size() || payload.size() != s.format.vlrs[index].payload.size()) {
    throw Error(s.path.string() + ": VLR " + std::to_string(index) + " of " +
                std::to_string(s.format.vlrs.size()) + " cannot take a payload of " +
                std::to_string(payload.size()) + " bytes (its size is fixed once written)");
  }
  s.format.vlrs[index].payload = std::move(payload);
}

uint64_t LasFileWriter::finishPoints() {
  return state_->finishPoints();
}

void LasFileWriter::setEvlrs(std::vector<LasVariableRecord> evlrs) {
  State& s = *state_;
  if (!evlrs.empty() && s.format.versionMinor < 4) {
    throw InputError("EVLRs need LAS 1.4, not 1." + std::to_string(s.format.versionMinor));
  }
  s.format.evlrs = std::move(evlrs);
}

void LasFileWriter::finish() {
  State& s = *state_;
  if (s.finished) return;
  s.finished = true;
  s.finishPoints();
  s.writeEvlrs();
  // The header again, now with the counts, bounds and EVLR start.
  const std::vector<uint8_t> header = s.headerAndVlrs();
  std::fseek(s.file, 0, SEEK_SET);
  s.writeBytes(header.data(), header.size());
  if (std::fclose(s.file) != 0) {
    s.file = nullptr;
    throw Error(s.path.string() + ": closing failed (disk full?)");
  }
  s.file = nullptr;
}

}  // namespace pcv
