// LAZ (LASzip-compressed LAS) and COPC: the LAS header and its field layout, then the chunks
// decoded on all cores, each into a per-thread buffer of raw LAS records that the record decoder
// turns into points exactly as it does a LAS file's. Layered chunks decode only the layers the
// layout reads.
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>

#include "common/color_values.hpp"
#include "copc/copc_reader.hpp"
#include "laz/chunk_batch_decoder.hpp"
#include "las/las_header.hpp"
#include "laz_field_choice.hpp"
#include "laz_records.hpp"
#include "pcv/core/parallel.hpp"
#include "common/readers.hpp"
#include "common/record_decoder.hpp"

namespace pcv::io {
namespace {

/// Records decoded per call: the per-thread buffer holds this many.
constexpr uint64_t kPiecePoints = 1 << 14;

/// The chunks decoded in consecutive slices (up to 16 when someone listens for prefixes), each
/// slice on all cores with chunks handed out one at a time.
class LazCloudDecoder {
 public:
  LazCloudDecoder(LazPointRecords& records, const FieldChoice& choice, const ReadContext& context)
      : records_(records),
        choice_(choice),
        context_(context),
        recordDecoder_(choice.layout, context) {}

  PointCloud decode(Box3d& worldBounds);

 private:
  /// What a thread keeps from chunk to chunk.
  struct Worker {
    std::unique_ptr<laz::ChunkDecoder> decoder;
    std::vector<uint8_t> buffer;
    RecordDecoder records;
    Box3d bounds;
    double maxChannel = 0.0;
    /// Points whose colours were kept as their 8-bit values (their piece's maximum was <= 255).
    std::vector<std::pair<uint64_t, uint64_t>> eightBitRanges;
  };

  void decodeSlice(size_t firstChunk, size_t endChunk);
  void decodeOnDevice(laz::ChunkBatchDecoder& device);
  void decodeBatch(laz::ChunkBatchDecoder& device, size_t firstChunk, size_t endChunk,
                   std::vector<uint8_t>& records);
  void decodePiece(Worker& worker, const uint8_t* records, uint64_t first, uint64_t count);
  void publish(uint64_t pointsReady);
  void finishColors();
  Worker& workerFor(size_t slot);

  LazPointRecords& records_;
  const FieldChoice& choice_;
  const ReadContext& context_;
  RecordDecoder recordDecoder_;
  int64_t redOffset_ = -1;
  PointCloud cloud_;
  std::vector<std::unique_ptr<Worker>> workers_;
};

LazCloudDecoder::Worker& LazCloudDecoder::workerFor(size_t slot) {
  if (!workers_[slot]) {
    workers_[slot] = std::make_unique<Worker>(
        Worker{.decoder = records_.makeDecoder(choice_.fields),
               .buffer = std::vector<uint8_t>(kPiecePoints * records_.recordLength()),
               .records = recordDecoder_});
  }
  return *workers_[slot];
}

void LazCloudDecoder::decodePiece(Worker& worker, const uint8_t* records, uint64_t first,
                                  uint64_t count) {
  // 16-bit colour channels are scaled by the file's maximum, which is only known at the end:
  // each piece is scaled by its own, and pieces kept as 8-bit are rescaled if the file's
  // maximum turns out larger (their 8-bit values are then exactly the file's values).
  if (redOffset_ >= 0) {
    uint32_t maximum = 0;
    const uint64_t length = records_.recordLength();
    for (uint64_t i = 0; i < count; ++i) {
      for (int c = 0; c < 3; ++c) {
        maximum = std::max<uint32_t>(maximum,
                                     loadLe<uint16_t>(records + i * length + redOffset_ + 2 * c));
      }
    }
    worker.maxChannel = std::max(worker.maxChannel, double(maximum));
    const double scale = colorScaleFor(ScalarType::UInt16, double(maximum));
    worker.records.setChannelScale(scale);
    if (scale == 1.0) worker.eightBitRanges.push_back({first, count});
  }
  worker.bounds.extend(worker.records.decode(records, 0, count, cloud_, first));
}

void LazCloudDecoder::decodeSlice(size_t firstChunk, size_t endChunk) {
  std::atomic<size_t> next{firstChunk};
  const size_t threads =
      records_.sequential() ? 1 : std::min<size_t>(workers_.size(), endChunk - firstChunk);
  // A broken file names its first broken chunk, whichever thread got there first: chunks are
  // handed out in order, so every chunk below a failed one was started and finishes or fails.
  std::mutex errorMutex;
  size_t failedChunk = SIZE_MAX;
  std::exception_ptr failure;
  parallelFor(
      threads,
      [&](uint64_t slot, uint64_t) {
        Worker& worker = workerFor(slot);
        for (size_t chunk; (chunk = next.fetch_add(1)) < endChunk;) {
          try {
            records_.decodeChunk(chunk, *worker.decoder, worker.buffer.data(), kPiecePoints,
                                 [&](const uint8_t* records, uint64_t first, uint64_t count) {
                                   decodePiece(worker, records, first, count);
                                 });
          } catch (...) {
            const std::lock_guard lock(errorMutex);
            if (chunk < failedChunk) {
              failedChunk = chunk;
              failure = std::current_exception();
            }
            next = endChunk;  // no new chunks
            return;
          }
          context_.advance(records_.layout().chunks[chunk].byteCount);
        }
      },
      1);
  if (failure) std::rethrow_exception(failure);
}

void LazCloudDecoder::publish(uint64_t pointsReady) {
  LoadProgress* progress = context_.progress;
  if (!progress) return;
  progress->pointsReady.store(pointsReady, std::memory_order_release);
  if (progress->onPrefix) {
    progress->onPrefix(PointPrefix{std::span<const Point>(cloud_.points.data(), pointsReady),
                                   cloud_.origin, cloud_.hasColor});
  }
}

void LazCloudDecoder::finishColors() {
  double maximum = 0.0;
  for (const auto& worker : workers_) {
    if (worker) maximum = std::max(maximum, worker->maxChannel);
  }
  const double scale = colorScaleFor(ScalarType::UInt16, maximum);
  if (redOffset_ < 0 || scale == 1.0) return;
  for (const auto& worker : workers_) {
    if (!worker) continue;
    for (const auto& [first, count] : worker->eightBitRanges) {
      for (uint64_t i = first; i < first + count; ++i) {
        uint32_t& rgba = cloud_.points[i].rgba;
        rgba = packRgba(channelByte(redOf(rgba), scale), channelByte(greenOf(rgba), scale),
                        channelByte(blueOf(rgba), scale));
      }
    }
  }
}

/// Chunks [firstChunk, endChunk) decoded by `device` into `records`, then turned into points on
/// all cores. The chunks it calls broken, and those of no points, are decoded on the CPU first and
/// in order: the first broken one fails with the CPU decoder's own error.
void LazCloudDecoder::decodeBatch(laz::ChunkBatchDecoder& device, size_t firstChunk,
                                  size_t endChunk, std::vector<uint8_t>& records) {
  const auto& chunks = records_.layout().chunks;
  const uint64_t length = records_.recordLength();
  const uint64_t base = chunks[firstChunk].offset;
  uint64_t limit = base;
  std::vector<laz::BatchChunk> batch;
  std::vector<uint64_t> recordStart;  // first record of each chunk in `records`
  uint64_t points = 0;
  for (size_t i = firstChunk; i < endChunk; ++i) {
    batch.push_back({chunks[i].offset - base, chunks[i].byteCount, chunks[i].pointCount});
    limit = std::max(limit, chunks[i].offset + chunks[i].byteCount);
    recordStart.push_back(points);
    points += chunks[i].pointCount;
  }
  records.resize(points * length);
  // The batch's compressed bytes: in place for a mapped file, fetched for a remote one.
  std::vector<uint8_t> storage;
  const std::span<const uint8_t> data = records_.source().read(base, limit - base, storage);
  std::vector<size_t> suspects;
  try {
    suspects = device.decode(records_.vlr(), choice_.fields, data, batch, records.data());
  } catch (const InputError&) {
    throw;
  } catch (const Error&) {
    // The device failed (out of memory, say): these chunks on the CPU, when that is allowed.
    if (!device.fallsBackToCpu()) throw;
    decodeSlice(firstChunk, endChunk);
    return;
  }
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch[i].pointCount == 0) suspects.push_back(i);
  }
  std::sort(suspects.begin(), suspects.end());
  suspects.erase(std::unique(suspects.begin(), suspects.end()), suspects.end());
  Worker& first = workerFor(0);
  for (const size_t i : suspects) {
    records_.decodeChunk(firstChunk + i, *first.decoder, first.buffer.data(), kPiecePoints,
                         [&](const uint8_t* piece, uint64_t firstPoint, uint64_t count) {
                           decodePiece(first, piece, firstPoint, count);
                         });
  }
  std::vector<bool> onCpu(batch.size(), false);
  for (const size_t i : suspects) onCpu[i] = true;
  // The same pieces as the CPU path, so that colour scaling sees the same point ranges.
  std::atomic<size_t> next{0};
  parallelFor(
      std::min<size_t>(workers_.size(), batch.size()),
      [&](uint64_t slot, uint64_t) {
        Worker& worker = workerFor(slot);
        for (size_t i; (i = next.fetch_add(1)) < batch.size();) {
          if (!onCpu[i]) {
            const laz::ChunkLocation& chunk = chunks[firstChunk + i];
            for (uint64_t done = 0; done < chunk.pointCount; done += kPiecePoints) {
              const uint64_t count = std::min(kPiecePoints, chunk.pointCount - done);
              decodePiece(worker, records.data() + (recordStart[i] + done) * length,
                          chunk.firstPoint + done, count);
            }
          }
          context_.advance(chunks[firstChunk + i].byteCount);
        }
      },
      1);
}

void LazCloudDecoder::decodeOnDevice(laz::ChunkBatchDecoder& device) {
  const auto& chunks = records_.layout().chunks;
  // Batches of whole chunks whose records take about this much host memory beside the cloud.
  constexpr uint64_t kBatchRecordBytes = uint64_t(1) << 30;
  const uint64_t length = records_.recordLength();
  std::vector<uint8_t> records;
  for (size_t begin = 0; begin < chunks.size();) {
    size_t end = begin;
    uint64_t points = 0;
    while (end < chunks.size() &&
           (end == begin || (points + chunks[end].pointCount) * length <= kBatchRecordBytes)) {
      points += chunks[end++].pointCount;
    }
    decodeBatch(device, begin, end, records);
    publish(chunks[end - 1].firstPoint + chunks[end - 1].pointCount);
    begin = end;
  }
}

PointCloud LazCloudDecoder::decode(Box3d& worldBounds) {
  const auto& chunks = records_.layout().chunks;
  if (chunks.empty()) return recordDecoder_.allocateCloud(0, glm::dvec3(0.0), context_);
  redOffset_ = recordDecoder_.needsChannelScale() ? redOffset(choice_.layout) : -1;
  // A chunk's first record is stored raw: the origin comes from it, as from a LAS file's first.
  std::vector<uint8_t> firstStorage;
  const uint8_t* firstRecord = records_.firstRecordOf(0, firstStorage);
  cloud_ = recordDecoder_.allocateCloud(chunks.back().firstPoint + chunks.back().pointCount,
                                        recordDecoder_.originOf(firstRecord, 1), context_);
  workers_.resize(records_.sequential() ? 1 : workerCount());
  // Slices of whole rounds of chunks (a multiple of the worker count, so no worker idles at a
  // slice's end while the others finish), each followed by its prefix.
  const uint64_t total = cloud_.size();
  constexpr uint64_t kMaxSlices = 16, kMinSlicePoints = 1 << 18;
  const bool publishes = context_.progress != nullptr && context_.progress->onPrefix;
  const uint64_t slices =
      publishes ? std::clamp<uint64_t>(total / kMinSlicePoints, 1, kMaxSlices) : 1;
  const size_t round = workers_.size();
  size_t perSlice = (chunks.size() + slices - 1) / slices;
  if (perSlice > round) perSlice = (perSlice + round - 1) / round * round;
  laz::ChunkBatchDecoder* device = context_.options ? context_.options->lazDecoder.get() : nullptr;
  if (device && !records_.sequential() && device->supports(records_.vlr())) {
    decodeOnDevice(*device);
  } else {
    for (size_t begin = 0; begin < chunks.size(); begin += perSlice) {
      const size_t end = std::min(chunks.size(), begin + perSlice);
      decodeSlice(begin, end);
      publish(chunks[end - 1].firstPoint + chunks[end - 1].pointCount);
    }
  }
  finishColors();
  for (const auto& worker : workers_) {
    if (worker) worldBounds.extend(worker->bounds);
  }
  return std::move(cloud_);
}

/// The octree summary; a broken hierarchy does not stop the points, which the chunk table finds.
void describeCopcInto(const ByteSource& bytes, const LasHeader& header,
                      const ReadContext& context, ReadResult& result) {
  try {
    for (std::string& line : describeCopc(parseCopcHierarchy(bytes, header, context))) {
      result.notes.push_back(std::move(line));
    }
  } catch (const InputError& error) {
    result.warnings.push_back(std::string(error.what()) +
                              " (the points were read through the LAZ chunk table)");
  }
}

}  // namespace

ReadResult readLaz(std::span<const uint8_t> bytes, const LasHeader& header,
                   const ReadContext& context) {
  return readLaz(SpanByteSource(bytes, context.file), header, context);
}

ReadResult readLaz(const ByteSource& bytes, const LasHeader& header, const ReadContext& context) {
  LazPointRecords records(bytes, header, context);
  context.reachedByte(header.pointsOffset);
  const FieldChoice choice = chooseFields(header, context.options);
  const bool copc = findCopcInfo(header) != nullptr;
  ReadResult result{.format = copc ? "COPC" : "LAZ", .details = header.description()};
  result.notes = records.describe();
  result.warnings = records.warnings();
  result.missingPoints = records.missingPoints();
  if (copc) describeCopcInto(bytes, header, context, result);
  if (context.headerOnly()) {
    result.declared = declaredByHeader(header);
    result.cloud = RecordDecoder(lasRecordLayout(header), context).describeCloud();
    result.cloud.lasPointFormat = header.pointFormat;
    return result;
  }
  LazCloudDecoder decoder(records, choice, context);
  result.cloud = decoder.decode(result.worldBounds);
  result.cloud.lasPointFormat = header.pointFormat;
  return result;
}

}  // namespace pcv::io
