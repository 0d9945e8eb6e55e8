// The records of a LAS file straight from the mapping, or of a LAZ file decoded a few chunks at
// a time on all cores, with the header fields and the VLRs a copy of the file should keep.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "las_header.hpp"
#include "laz/laz_records.hpp"
#include "common/mapped_file.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/copc_hierarchy.hpp"
#include "pcv/io/point_records.hpp"

namespace pcv {
namespace {

/// VLRs that describe the file's own compressed layout, not its points.
bool describesLayout(const io::LasVlr& vlr) {
  return (vlr.userId == laz::kLaszipUserId && vlr.recordId == laz::kLaszipRecordId) ||
         vlr.userId == "copc";
}

LasVariableRecord copyRecord(const io::LasVlr& vlr, std::span<const uint8_t> file) {
  // The description is the last 32 bytes of the record's header.
  const uint8_t* description = file.data() + vlr.payloadOffset - 32;
  std::string text(reinterpret_cast<const char*>(description), 32);
  text.resize(std::min(text.size(), text.find('\0')));
  const uint8_t* payload = file.data() + vlr.payloadOffset;
  return {.userId = vlr.userId,
          .recordId = vlr.recordId,
          .description = text,
          .payload = std::vector<uint8_t>(payload, payload + vlr.payloadBytes)};
}

LasWriteFormat formatOf(const io::LasHeader& header, std::span<const uint8_t> file) {
  const uint8_t* h = file.data();
  LasWriteFormat f{
      .pointFormat = header.pointFormat,
      .recordLength = uint16_t(header.recordLength),
      .versionMinor = std::max(header.versionMinor, minimumLasMinorVersion(header.pointFormat)),
      .scale = {header.scale[0], header.scale[1], header.scale[2]},
      .offset = {header.offset[0], header.offset[1], header.offset[2]},
      .fileSourceId = io::loadLe<uint16_t>(h + 4),
      .globalEncoding = io::loadLe<uint16_t>(h + 6)};
  f.systemIdentifier.assign(reinterpret_cast<const char*>(h + 26), 32);
  f.generatingSoftware.assign(reinterpret_cast<const char*>(h + 58), 32);
  for (std::string* text : {&f.systemIdentifier, &f.generatingSoftware}) {
    text->resize(std::min(text->size(), text->find('\0')));
  }
  f.creationDay = io::loadLe<uint16_t>(h + 90);
  f.creationYear = io::loadLe<uint16_t>(h + 92);
  for (const io::LasVlr& vlr : header.vlrs) {
    if (!describesLayout(vlr)) f.vlrs.push_back(copyRecord(vlr, file));
  }
  for (const io::LasVlr& evlr : header.evlrs) {
    if (!describesLayout(evlr)) f.evlrs.push_back(copyRecord(evlr, file));
  }
  // Only LAS 1.4 holds EVLRs.
  if (!f.evlrs.empty()) f.versionMinor = 4;
  return f;
}

/// Bytes of a file's mapping that readAt() gives back at a time.
constexpr uint64_t kDropBlockBytes = uint64_t(1) << 20;

class LasFileRecords : public PointRecordStream {
 public:
  LasFileRecords(const std::filesystem::path& path, const RegionTest& region)
      : file_(path), context_{.file = path.string()} {
    header_ = io::parseLasHeader(file_.bytes(), context_);
    format_ = formatOf(header_, file_.bytes());
    pointCount_ = header_.pointCount;
    for (int a = 0; a < 3; ++a) {
      bounds_.min[a] = header_.headerMin[a];
      bounds_.max[a] = header_.headerMax[a];
    }
    if (header_.compressed() || header_.findVlr(laz::kLaszipUserId, laz::kLaszipRecordId)) {
      laz_ = std::make_unique<io::LazPointRecords>(file_.bytes(), header_, context_);
      // A stream hands out the header's count: a file cut short is refused, as plain LAS is.
      if (laz_->missingPoints() > 0) {
        context_.failAt(file_.size(), "header declares " + std::to_string(header_.pointCount) +
                                          " points, but " + std::to_string(laz_->missingPoints()) +
                                          " of them lie past the end of the file (truncated)");
      }
      decoders_.resize(laz_->sequential() ? 1 : workerCount());
      for (size_t c = 0; c < laz_->chunkCount(); ++c) chunkOrder_.push_back(c);
    } else {
      const uint64_t available = file_.size() - header_.pointsOffset;
      if (header_.pointCount > available / header_.recordLength) {
        context_.failAt(header_.pointsOffset, "header declares " +
                                                  std::to_string(header_.pointCount) +
                                                  " points, more than the file holds (truncated?)");
      }
    }
    if (region) restrictTo(path, region);
  }

  /// Where the records this stream yields lie in the file.
  RecordRuns runs() const {
    RecordRuns runs{.filePoints = header_.pointCount};
    const auto add = [&](uint64_t first, uint64_t count) {
      if (count == 0) return;
      if (!runs.runs.empty() && runs.runs.back().first + runs.runs.back().second == first) {
        runs.runs.back().second += count;
      } else {
        runs.runs.emplace_back(first, count);
      }
    };
    if (!laz_) {
      add(0, pointCount_);
      return runs;
    }
    for (const size_t c : chunkOrder_) {
      add(laz_->layout().chunks[c].firstPoint, laz_->layout().chunks[c].pointCount);
    }
    return runs;
  }

  uint64_t next(uint64_t maxPoints, const uint8_t*& records) override {
    const uint64_t length = header_.recordLength;
    if (!laz_) {
      // The batch handed out before is no longer valid: its pages go, so that streaming a file
      // larger than memory keeps a batch resident, not the file.
      const uint64_t start = header_.pointsOffset + done_ * length;
      droppedTo_ = file_.dropPages(std::max(droppedTo_, header_.pointsOffset), start);
      const uint64_t count = std::min(maxPoints, pointCount_ - done_);
      records = file_.data() + start;
      done_ += count;
      return count;
    }
    return nextChunks(maxPoints, records);
  }

  /// Plain LAS records lie at known offsets; LAZ chunks decode only in order here.
  bool randomAccess() const override { return !laz_; }

  void readAt(uint64_t first, uint64_t count, uint8_t* into) const override {
    if (laz_) return PointRecordStream::readAt(first, count, into);  // throws: in order only
    if (first > pointCount_ || count > pointCount_ - first) {
      throw Error(context_.file + ": records " + std::to_string(first) + "-" +
                  std::to_string(first + count) + " asked of " + std::to_string(pointCount_));
    }
    const uint64_t start = header_.pointsOffset + first * header_.recordLength;
    const uint64_t bytes = count * header_.recordLength;
    std::memcpy(into, file_.data() + start, bytes);
    // Read once: this process's copies of the pages read go, as next() lets go of the batch
    // before, so a file larger than memory stays readable this way too. Whole blocks at a
    // time, each by the read of its last byte, so that small reads do not each cost a call (and
    // the other threads a TLB flush); a page dropped while a neighbouring range still reads it
    // is read again from the page cache.
    const uint64_t dropFrom = start / kDropBlockBytes * kDropBlockBytes;
    const uint64_t dropTo = (start + bytes) / kDropBlockBytes * kDropBlockBytes;
    if (dropTo > dropFrom) file_.dropPages(dropFrom, dropTo);
  }

 private:
  /// Reads only the chunks of COPC nodes that `region` may meet, or nothing when the header's
  /// bounds are out of its reach.
  void restrictTo(const std::filesystem::path& path, const RegionTest& region) {
    // A header's bounds skip the whole file, as tile indexes (PDAL, QGIS) use them; all zeros
    // is a writer that left them out, not a file of points at the origin.
    const bool stated = !bounds_.empty() && (bounds_.min != glm::dvec3(0.0) ||
                                             bounds_.max != glm::dvec3(0.0));
    if (stated && !region(bounds_)) {
      pointCount_ = 0;
      chunkOrder_.clear();
      return;
    }
    if (!laz_ || laz_->sequential() || !header_.findVlr("copc", 1)) return;
    const CopcHierarchy hierarchy = readCopcHierarchy(path);
    std::vector<uint64_t> offsets;
    for (const CopcNode& node : hierarchy.nodes) {
      if (node.pointCount > 0 && region(node.bounds)) offsets.push_back(node.chunkOffset);
    }
    std::sort(offsets.begin(), offsets.end());
    const auto& chunks = laz_->layout().chunks;
    chunkOrder_.clear();
    pointCount_ = 0;
    for (size_t c = 0; c < chunks.size(); ++c) {
      if (!std::binary_search(offsets.begin(), offsets.end(), chunks[c].offset)) continue;
      chunkOrder_.push_back(c);
      pointCount_ += chunks[c].pointCount;
    }
  }

  /// Whole chunks that fit in `maxPoints` (at least one), decoded in parallel.
  uint64_t nextChunks(uint64_t maxPoints, const uint8_t*& records) {
    const auto& chunks = laz_->layout().chunks;
    // The chunks decoded before are done with (where a table says where chunks start).
    if (!laz_->layout().sequential && chunkOrder_.size() == chunks.size()) {
      const uint64_t decodedEnd = nextChunk_ < chunks.size() ? chunks[chunkOrder_[nextChunk_]].offset
                                                             : laz_->layout().dataEnd;
      droppedTo_ = file_.dropPages(std::max(droppedTo_, header_.pointsOffset), decodedEnd);
    }
    if (nextChunk_ >= chunkOrder_.size()) return 0;
    size_t end = nextChunk_ + 1;
    uint64_t points = chunks[chunkOrder_[nextChunk_]].pointCount;
    while (end < chunkOrder_.size() && end - nextChunk_ < decoders_.size() &&
           points + chunks[chunkOrder_[end]].pointCount <= maxPoints) {
      points += chunks[chunkOrder_[end++]].pointCount;
    }
    const uint64_t length = laz_->recordLength();
    buffer_.resize(points * length);
    // Where each chunk's records go in the buffer: one after the other.
    std::vector<uint64_t> placed(end - nextChunk_ + 1, 0);
    for (size_t k = nextChunk_; k < end; ++k) {
      placed[k - nextChunk_ + 1] = placed[k - nextChunk_] + chunks[chunkOrder_[k]].pointCount;
    }
    std::atomic<size_t> next{nextChunk_};
    const size_t threads = std::min(decoders_.size(), end - nextChunk_);
    const size_t firstChunk = nextChunk_;
    parallelFor(
        threads,
        [&](uint64_t slot, uint64_t) {
          if (!decoders_[slot]) decoders_[slot] = laz_->makeDecoder({});
          for (size_t k; (k = next.fetch_add(1)) < end;) {
            const size_t c = chunkOrder_[k];
            const uint64_t count = chunks[c].pointCount;
            uint8_t* out = buffer_.data() + placed[k - firstChunk] * length;
            laz_->decodeChunk(c, *decoders_[slot], out, count,
                              [](const uint8_t*, uint64_t, uint64_t) {});
          }
        },
        1);
    nextChunk_ = end;
    records = buffer_.data();
    return points;
  }

  io::MappedFile file_;
  io::ReadContext context_;
  io::LasHeader header_;
  std::unique_ptr<io::LazPointRecords> laz_;
  std::vector<std::unique_ptr<laz::ChunkDecoder>> decoders_;
  std::vector<uint8_t> buffer_;
  std::vector<size_t> chunkOrder_;  ///< the chunks read, in file order
  size_t nextChunk_ = 0;            ///< the next entry of chunkOrder_
  uint64_t done_ = 0;
  uint64_t droppedTo_ = 0;  ///< file offset below which the mapping's pages were dropped
};

}  // namespace

std::unique_ptr<PointRecordStream> openLasRecords(const std::filesystem::path& path) {
  return std::make_unique<LasFileRecords>(path, RegionTest());
}

std::unique_ptr<PointRecordStream> openLasRecords(const std::filesystem::path& path,
                                                  const Box3d& region) {
  return openLasRecords(path,
                        RegionTest([region](const Box3d& box) { return box.overlaps(region); }));
}

std::unique_ptr<PointRecordStream> openLasRecords(const std::filesystem::path& path,
                                                  const RegionTest& region) {
  return std::make_unique<LasFileRecords>(path, region);
}

std::unique_ptr<PointRecordStream> openLasRecords(const std::filesystem::path& path,
                                                  const RegionTest& region, RecordRuns& runs) {
  auto stream = std::make_unique<LasFileRecords>(path, region);
  runs = stream->runs();
  return stream;
}

}  // namespace pcv
