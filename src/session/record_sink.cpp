#include "pcv/session/record_sink.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/core/text_case.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_records.hpp"

namespace pcv {
namespace {

/// Bytes of records per range of a LAS file written on several threads (at least one record):
/// a few MiB, so that ranges overlap in reading, patching and writing, each thread's buffer
/// stays small whatever the record length, and the last range leaves the others little to wait.
constexpr uint64_t kPlacedRangeBytes = uint64_t(2) << 20;

/// LAS from a stream that makes any range of its records on its own: consecutive ranges taken
/// by the worker threads in turn, each read (and patched, re-encoded) into the thread's buffer
/// and written at its offset. The output is the file the batches in order would make.
void writePlacedRecords(const PointRecordStream& stream, LasFileWriter& writer,
                        const std::filesystem::path& output, CopcWriteProgress& progress) {
  const uint64_t total = stream.pointCount();
  const uint64_t rangePoints =
      std::max<uint64_t>(1, kPlacedRangeBytes / stream.format().recordLength);
  const uint64_t ranges = (total + rangePoints - 1) / rangePoints;
  writer.placeRecords(total);
  std::atomic<uint64_t> next{0};
  std::atomic<bool> stop{false};  // a thread failed or the write was cancelled
  const uint64_t threads = std::min<uint64_t>(workerCount(), ranges);
  parallelFor(
      threads,
      [&](uint64_t, uint64_t) {
        std::vector<uint8_t> buffer(rangePoints * stream.format().recordLength);
        try {
          for (uint64_t range; !stop && (range = next.fetch_add(1)) < ranges;) {
            if (progress.cancel) throw ConversionCancelled(output.string() + ": writing cancelled");
            const uint64_t first = range * rangePoints;
            const uint64_t count = std::min(rangePoints, total - first);
            stream.readAt(first, count, buffer.data());
            writer.writeAt(first, buffer.data(), count);
            progress.pointsWritten += count;
          }
        } catch (...) {
          stop = true;
          throw;
        }
      },
      1);
}

/// LAS or LAZ: the records copied batch by batch into the temporary file, or range by range on
/// all cores where the output is LAS and the stream allows it.
RecordSinkSummary writeLasOrLaz(const PointRecordSource& source,
                                const std::filesystem::path& output, CloudFileKind kind,
                                const RecordSinkOptions& options, CopcWriteProgress& progress) {
  PartialFile partial(output, options.output);
  std::unique_ptr<PointRecordStream> stream = source();
  progress.pointsTotal = stream->pointCount();
  const LasCompression compression =
      kind == CloudFileKind::Laz ? LasCompression::Laz : LasCompression::None;
  uint64_t written = 0;
  {
    LasFileWriter writer(partial.path(), stream->format(), compression, options.chunkPoints);
    if (compression == LasCompression::None && stream->randomAccess()) {
      writePlacedRecords(*stream, writer, output, progress);
      written = stream->pointCount();
    } else {
      constexpr uint64_t kBatchPoints = 1 << 20;
      const uint8_t* records = nullptr;
      while (const uint64_t count = stream->next(kBatchPoints, records)) {
        writer.write(records, count);
        written += count;
        progress.pointsWritten += count;
        if (progress.cancel) throw ConversionCancelled(output.string() + ": writing cancelled");
      }
    }
    writer.finish();
  }
  partial.commit();
  return {.kind = kind, .points = written, .pointFormat = stream->format().pointFormat};
}

}  // namespace

CloudFileKind cloudFileKindFor(const std::filesystem::path& path, bool copc) {
  const std::string name = path.filename().string();
  if (endsWithIgnoringCase(name, ".copc.laz")) return CloudFileKind::Copc;
  if (copc) {
    if (endsWithIgnoringCase(name, ".laz")) return CloudFileKind::Copc;
    throw InputError(path.string() + ": a COPC file is a LAZ file: its name must end in .laz");
  }
  if (endsWithIgnoringCase(name, ".laz")) return CloudFileKind::Laz;
  if (endsWithIgnoringCase(name, ".las")) return CloudFileKind::Las;
  throw InputError(path.string() +
                   ": cannot tell what to write: the output must end in .las, .laz or .copc.laz");
}

const char* cloudFileKindName(CloudFileKind kind) {
  switch (kind) {
    case CloudFileKind::Las:
      return "LAS";
    case CloudFileKind::Laz:
      return "LAZ";
    case CloudFileKind::Copc:
      return "COPC";
  }
  return "LAS";
}

CloudFileKind checkRecordOutput(const std::filesystem::path& output,
                                const RecordSinkOptions& options) {
  const CloudFileKind kind = cloudFileKindFor(output, options.copc);
  checkOutput(output, options.output);
  return kind;
}

RecordSinkSummary writePointRecords(const PointRecordSource& source,
                                    const std::filesystem::path& output,
                                    const RecordSinkOptions& options, CopcWriteProgress* progress) {
  CopcWriteProgress ownProgress;
  CopcWriteProgress& shown = progress ? *progress : ownProgress;
  const CloudFileKind kind = checkRecordOutput(output, options);
  if (kind != CloudFileKind::Copc) return writeLasOrLaz(source, output, kind, options, shown);
  CopcWriteOptions copcOptions = options.copcOptions;
  copcOptions.output = options.output;
  const CopcWriteSummary written = writeCopcFile(source, output, copcOptions, &shown);
  return {.kind = kind,
          .points = written.pointCount,
          .pointFormat = written.pointFormat,
          .copc = written};
}

}  // namespace pcv
