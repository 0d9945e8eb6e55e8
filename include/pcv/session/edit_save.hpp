/// @brief Saving a file's edits in its own format without rewriting what did not change: into
/// the file itself, only the changed parts under a journal (patchRecordFileInPlace), or through
/// the partial-file guard (patchRecordFile): the new file is written under a temporary name
/// beside the target and renamed over it once complete. Either way an interrupted save leaves
/// the original as it was.
#pragma once

#include <atomic>
#include <filesystem>
#include <string>

#include "pcv/core/partial_file.hpp"
#include "pcv/io/record_patch.hpp"
#include "pcv/session/point_edits.hpp"
#include "pcv/session/record_sink.hpp"

namespace pcv {

/// The kind of file `input` is by its name (LAS, LAZ or COPC), and a check that `output` names
/// the same kind (an edit saves each file in its own format). Throws InputError naming both.
CloudFileKind checkEditOutput(const std::filesystem::path& input,
                              const std::filesystem::path& output);

/// How a file saved into itself is written.
enum class InPlaceWriting {
  /// Only the changed records or chunks, over their old bytes under a journal
  /// (patchRecordFileInPlace), where that can be done; else as WholeCopy.
  ChangedParts,
  /// A new file renamed over the old one: whoever has the old one open (a stream of it) goes on
  /// reading it as it was.
  WholeCopy,
};

/// Writes `input` with `changes` to `output` (the input itself to save in place: give `rules`
/// that replace it and list no input; `writing` says how). `cancel` (may be null) is polled as
/// the file is written: set, the save stops with ConversionCancelled and leaves nothing (an
/// in-place save puts the old bytes back). Throws InputError, OutputExistsError, Error.
RecordPatchSummary saveFileChanges(const std::filesystem::path& input,
                                   const std::filesystem::path& output, const FileChanges& changes,
                                   const OutputRules& rules,
                                   const std::atomic<bool>* cancel = nullptr,
                                   InPlaceWriting writing = InPlaceWriting::ChangedParts);

/// A file read by URL copied into a temporary file beside an output, for its edits to be saved
/// to that output (a URL is never saved in place): the copy is read as a local file, then
/// removed when this goes.
class DownloadedCopy {
 public:
  /// Fetches `location` whole (by range requests) into a temporary file beside `beside`, named
  /// with the extension of its kind (.las or .laz). Throws InputError (RemoteError for the
  /// URL), Error when the copy cannot be written.
  DownloadedCopy(const std::string& location, const std::filesystem::path& beside);
  ~DownloadedCopy();
  DownloadedCopy(const DownloadedCopy&) = delete;
  DownloadedCopy& operator=(const DownloadedCopy&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace pcv
