// Saving changed records. A LAS file is copied whole (the kernel copies it, sharing blocks where
// the file system can) and only the changed records are written over in the copy, in runs of
// neighbours; LAZ and COPC files re-encode the chunks that hold them (laz/laz_patch.cpp). In
// place, the same runs and chunks are written over the file's own bytes under a journal
// (common/save_journal.hpp).
#include "pcv/io/record_patch.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "common/mapped_file.hpp"
#include "common/save_journal.hpp"
#include "las_header.hpp"
#include "las_point_fields.hpp"
#include "laz/laszip_vlr.hpp"
#include "laz/laz_patch.hpp"
#include "pcv/core/error.hpp"

namespace pcv {
namespace {

/// Withheld is bit 7 of byte 15 in formats 0-5 (beside synthetic and key-point), bit 2 of the
/// class flags in the low nibble of byte 15 in formats 6-10.
uint8_t withheldBit(bool extended) {
  return extended ? uint8_t(1u << 2) : uint8_t(1u << 7);
}

[[noreturn]] void failWrite(const std::filesystem::path& path, const char* what) {
  throw Error(std::string(what) + " " + path.string() + ": " + std::strerror(errno));
}

/// Calls f(first, end) for each run [first, end) of `changes` whose records neighbour each other.
template <typename F>
void forEachRun(std::span<const RecordChange> changes, F&& f) {
  for (size_t first = 0; first < changes.size();) {
    size_t end = first + 1;
    while (end < changes.size() && changes[end].index == changes[end - 1].index + 1) ++end;
    f(first, end);
    first = end;
  }
}

/// The records of the run [first, end) of `changes` as changed, into `run`; returns their offset.
uint64_t changedRun(std::span<const uint8_t> file, const io::LasHeader& header,
                    std::span<const RecordChange> changes, size_t first, size_t end,
                    std::vector<uint8_t>& run) {
  const uint64_t length = header.recordLength;
  const uint64_t at = header.pointsOffset + changes[first].index * length;
  run.assign(file.data() + at, file.data() + at + (end - first) * length);
  for (size_t c = first; c < end; ++c) {
    applyRecordChange(run.data() + (c - first) * length, header.pointFormat, changes[c]);
  }
  return at;
}

/// The records of `changes`, each run of neighbours written in one call over the copy at
/// `output` of the LAS file `file` (of a LAZ file too, where nothing changes).
RecordPatchSummary patchLasCopy(std::span<const uint8_t> file, const io::LasHeader& header,
                                const std::filesystem::path& input,
                                const std::filesystem::path& output,
                                std::span<const RecordChange> changes,
                                const PatchWritten& written) {
  std::error_code error;
  std::filesystem::copy_file(input, output, std::filesystem::copy_options::overwrite_existing,
                             error);
  if (error)
    throw Error("cannot copy " + input.string() + " to " + output.string() + ": " +
                error.message());
  if (written) written(file.size());
  const int fd = ::open(output.c_str(), O_WRONLY);
  if (fd < 0) failWrite(output, "cannot open");
  RecordPatchSummary summary;
  std::vector<uint8_t> run;
  forEachRun(changes, [&](size_t first, size_t end) {
    const uint64_t at = changedRun(file, header, changes, first, end, run);
    if (::pwrite(fd, run.data(), run.size(), off_t(at)) != ssize_t(run.size())) {
      ::close(fd);
      failWrite(output, "cannot write");
    }
    summary.recordsRewritten += end - first;
    summary.bytesWritten += run.size();
  });
  if (::close(fd) != 0) failWrite(output, "cannot finish");
  return summary;
}

/// The LAS file `file` at `path` with its changed records written over their old bytes, under a
/// journal; empty (nothing written) where those runs hold more than half the file.
std::optional<RecordPatchSummary> patchLasInPlace(std::span<const uint8_t> file,
                                                  const io::LasHeader& header,
                                                  const std::filesystem::path& path,
                                                  std::span<const RecordChange> changes,
                                                  const PatchWritten& written) {
  std::vector<io::ByteRange> ranges;
  uint64_t changedBytes = 0;
  forEachRun(changes, [&](size_t first, size_t end) {
    ranges.push_back({header.pointsOffset + changes[first].index * header.recordLength,
                      (end - first) * header.recordLength});
    changedBytes += ranges.back().bytes;
  });
  if (changedBytes > file.size() / 2) return std::nullopt;  // journal + write: more than a copy
  const std::unique_ptr<io::InPlaceSave> save = io::InPlaceSave::begin(path, file, ranges);
  if (!save) return std::nullopt;  // a reader has the file open
  RecordPatchSummary summary{.inPlace = true};
  std::vector<uint8_t> run;
  forEachRun(changes, [&](size_t first, size_t end) {
    const uint64_t at = changedRun(file, header, changes, first, end, run);
    save->write(at, run);
    summary.recordsRewritten += end - first;
    summary.bytesWritten += run.size();
    if (written) written(summary.bytesWritten);
  });
  save->commit();
  return summary;
}

}  // namespace

uint32_t maxClassOf(int pointFormat) {
  return pointFormat >= 6 ? 255 : 31;
}

bool applyRecordChange(uint8_t* record, int pointFormat, const RecordChange& change) {
  const bool extended = pointFormat >= 6;
  const uint8_t before[2] = {record[kRecordFlagsByte], record[kRecordFlagsByte + 1]};
  if (change.classification >= 0) {
    if (uint32_t(change.classification) > maxClassOf(pointFormat)) {
      throw InputError("class " + std::to_string(change.classification) +
                       " does not fit LAS point format " + std::to_string(pointFormat) +
                       ", which holds classes 0-" + std::to_string(maxClassOf(pointFormat)));
    }
    if (extended) {
      record[16] = uint8_t(change.classification);
    } else {
      record[15] = uint8_t((record[15] & 0xE0) | change.classification);
    }
  }
  if (change.withheld >= 0) {
    const uint8_t bit = withheldBit(extended);
    record[15] = change.withheld ? uint8_t(record[15] | bit) : uint8_t(record[15] & ~bit);
  }
  return before[0] != record[kRecordFlagsByte] || before[1] != record[kRecordFlagsByte + 1];
}

std::optional<RecordPatchSummary> patchRecordFileInPlace(const std::filesystem::path& path,
                                                         std::span<const RecordChange> changes,
                                                         const PatchWritten& written) {
  // Only the changed parts are read; no shared lock, the save takes the exclusive one.
  const io::MappedFile file(path, /*readAhead=*/false, io::FileSharing::NoLock);
  const io::ReadContext context{.file = path.string()};
  const io::LasHeader header = io::parseLasHeader(file.bytes(), context);
  if (!changes.empty() && changes.back().index >= header.pointCount) {
    context.fail("a change names point " + std::to_string(changes.back().index) +
                 ", past the file's " + std::to_string(header.pointCount) + " points");
  }
  if (changes.empty()) return RecordPatchSummary{.inPlace = true};
  if (header.compressed() || header.findVlr(laz::kLaszipUserId, laz::kLaszipRecordId)) {
    return io::patchLazFileInPlace(file.bytes(), header, context, path, changes, written);
  }
  if (header.pointCount > (file.size() - header.pointsOffset) / header.recordLength) {
    context.failAt(header.pointsOffset, "header declares " + std::to_string(header.pointCount) +
                                            " points, more than the file holds (truncated?)");
  }
  return patchLasInPlace(file.bytes(), header, path, changes, written);
}

RecordPatchSummary patchRecordFile(const std::filesystem::path& input,
                                   const std::filesystem::path& output,
                                   std::span<const RecordChange> changes,
                                   const PatchWritten& written) {
  const io::MappedFile file(input);
  const io::ReadContext context{.file = input.string()};
  const io::LasHeader header = io::parseLasHeader(file.bytes(), context);
  if (!changes.empty() && changes.back().index >= header.pointCount) {
    context.fail("a change names point " + std::to_string(changes.back().index) +
                 ", past the file's " + std::to_string(header.pointCount) + " points");
  }
  if (changes.empty()) {
    // Nothing to change: a copy, whatever the file's layout (a LAZ file that could not be saved
    // chunk by chunk copies as well).
    RecordPatchSummary summary = patchLasCopy(file.bytes(), header, input, output, {}, written);
    summary.bytesWritten = file.size();
    return summary;
  }
  if (header.compressed() || header.findVlr(laz::kLaszipUserId, laz::kLaszipRecordId)) {
    return io::patchLazFile(file.bytes(), header, context, output, changes, written);
  }
  if (header.pointCount > (file.size() - header.pointsOffset) / header.recordLength) {
    context.failAt(header.pointsOffset, "header declares " + std::to_string(header.pointCount) +
                                            " points, more than the file holds (truncated?)");
  }
  return patchLasCopy(file.bytes(), header, input, output, changes, written);
}

}  // namespace pcv
