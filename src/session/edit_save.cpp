#include "pcv/session/edit_save.hpp"

#include <csignal>
#include <cstdlib>
#include <string>

#include "pcv/core/error.hpp"
#include "pcv/io/copc_writer.hpp"

namespace pcv {
namespace {

/// A test's way to kill a save midway: with PCV_TEST_KILL_SAVE_AT_BYTES=N in the environment
/// the process kills itself (SIGKILL: no handler, no clean-up) once N bytes of the temporary
/// file are written, as a crash or `kill -9` would.
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
                                   const OutputRules& rules, const std::atomic<bool>* cancel) {
  checkEditOutput(input, output);
  PartialFile partial(output, rules);
  const uint64_t killAt = killSaveAtBytes();
  const PatchWritten written = [&](uint64_t bytes) {
    if (killAt > 0 && bytes >= killAt) std::raise(SIGKILL);
    if (cancel && cancel->load()) {
      throw ConversionCancelled("the save of " + output.string() + " was interrupted");
    }
  };
  const RecordPatchSummary summary = patchRecordFile(input, partial.path(), changes.all(), written);
  partial.commit();
  return summary;
}

}  // namespace pcv
