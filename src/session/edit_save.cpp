#include "pcv/session/edit_save.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "pcv/core/error.hpp"
#include "pcv/io/byte_source.hpp"
#include "pcv/io/copc_writer.hpp"

namespace pcv {
namespace {

/// A test's way to kill a save midway: with PCV_TEST_KILL_SAVE_AT_BYTES=N in the environment
/// the process kills itself (SIGKILL: no handler, no clean-up) once N bytes of the temporary
/// file are written, as a crash or `kill -9` would.
/// Bytes fetched per request when a remote file is copied.
constexpr uint64_t kDownloadPiece = 16ull << 20;

uint64_t killSaveAtBytes() {
  const char* text = std::getenv("PCV_TEST_KILL_SAVE_AT_BYTES");
  return text ? std::strtoull(text, nullptr, 10) : 0;
}

}  // namespace

CloudFileKind checkEditOutput(const std::filesystem::path& input,
                              const std::filesystem::path& output) {
  const CloudFileKind in = cloudFileKindFor(input);
  const CloudFileKind out = cloudFileKindFor(output);
  // A COPC file may be saved under a plain .laz name: its bytes are LAZ either way.
  const bool sameBytes = (in == CloudFileKind::Las) == (out == CloudFileKind::Las);
  if (!sameBytes) {
    throw InputError("cannot save the edits of " + input.string() + " (" + cloudFileKindName(in) +
                     ") as " + output.string() + " (" + cloudFileKindName(out) +
                     "): an edit keeps each file's format; use pcv convert to change it");
  }
  return in;
}

RecordPatchSummary saveFileChanges(const std::filesystem::path& input,
                                   const std::filesystem::path& output, const FileChanges& changes,
                                   const OutputRules& rules, const std::atomic<bool>* cancel,
                                   InPlaceWriting writing) {
  checkEditOutput(input, output);
  const uint64_t killAt = killSaveAtBytes();
  const PatchWritten written = [&](uint64_t bytes) {
    if (killAt > 0 && bytes >= killAt) std::raise(SIGKILL);
    if (cancel && cancel->load()) {
      throw ConversionCancelled("the save of " + output.string() + " was interrupted");
    }
  };
  std::error_code ignored;
  if (writing == InPlaceWriting::ChangedParts &&
      std::filesystem::equivalent(input, output, ignored)) {
    checkOutput(output, rules);  // replacing allowed; the folder takes the journal
    if (std::optional<RecordPatchSummary> saved =
            patchRecordFileInPlace(input, changes.all(), written)) {
      return *saved;
    }
  }
  PartialFile partial(output, rules);
  const RecordPatchSummary summary = patchRecordFile(input, partial.path(), changes.all(), written);
  partial.commit();
  return summary;
}

DownloadedCopy::DownloadedCopy(const std::string& location, const std::filesystem::path& beside) {
  const std::shared_ptr<const ByteSource> source = openByteSource(location);
  const char* extension = cloudFileKindFor(location) == CloudFileKind::Las ? ".las" : ".laz";
  path_ = beside;
  path_ += ".download-" + std::to_string(::getpid()) + extension;
  // The constructor may fail halfway: what was written then goes (no destructor runs).
  try {
    std::ofstream out(path_, std::ios::binary);
    std::vector<uint8_t> storage;
    for (uint64_t at = 0; at < source->size() && out; at += kDownloadPiece) {
      const std::span<const uint8_t> piece =
          source->read(at, std::min(kDownloadPiece, source->size() - at), storage);
      out.write(reinterpret_cast<const char*>(piece.data()), std::streamsize(piece.size()));
    }
    out.close();
    if (!out) throw Error("cannot write a copy of " + location + " at " + path_.string());
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
    throw;
  }
}

DownloadedCopy::~DownloadedCopy() {
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
}

}  // namespace pcv
