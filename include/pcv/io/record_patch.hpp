/// @brief Saving edited classes and withheld flags back into a LAS, LAZ or COPC file without
/// rewriting what did not change: LAS records patched in a copy, LAZ and COPC chunks
/// re-encoded only where a point changed, every other chunk copied byte for byte, the chunk
/// table and the COPC hierarchy's offsets updated.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>

namespace pcv {

/// New values of one record; the fields left at -1 keep the record's own.
struct RecordChange {
  uint64_t index = 0;           ///< the record's place in the file, counted from 0
  int16_t classification = -1;  ///< 0-255 (formats 0-5: 0-31), or -1
  int8_t withheld = -1;         ///< 1: set the LAS withheld flag, 0: clear it, -1: keep it

  bool operator==(const RecordChange&) const = default;
};

/// Byte of a record's class flags (withheld among them) in every point format.
inline constexpr size_t kRecordFlagsByte = 15;

/// Applies `change` to one record of `pointFormat` (0-10) in place: the class in byte 16
/// (formats 6-10) or the low 5 bits of byte 15 (0-5), the withheld flag in byte 15 (bit 2 in
/// formats 6-10, bit 7 in 0-5). Returns whether a bit changed. A class the format cannot hold
/// is an InputError naming the class and the format.
bool applyRecordChange(uint8_t* record, int pointFormat, const RecordChange& change);

/// The largest class `pointFormat` holds: 31 for formats 0-5, 255 for 6-10.
uint32_t maxClassOf(int pointFormat);

/// How a file was saved.
struct RecordPatchSummary {
  uint64_t recordsRewritten = 0;  ///< records whose bytes were written anew
  uint64_t chunksReencoded = 0;   ///< LAZ and COPC: chunks holding a changed record
  uint64_t chunksCopied = 0;      ///< LAZ and COPC: chunks copied byte for byte
  uint64_t bytesWritten = 0;      ///< bytes the save wrote (a LAS copy's are the patched spans)
  /// Saved into the file itself (patchRecordFileInPlace): the chunks or records changed were
  /// written over their old bytes, nothing else was written.
  bool inPlace = false;
  /// In place in a COPC file: chunks moved to the end (where a re-encoded chunk came out
  /// longer, it took their place).
  uint64_t chunksMoved = 0;
};

/// Called as the output grows, with the bytes written so far: progress, and the place where a
/// test interrupts a save.
using PatchWritten = std::function<void(uint64_t bytesWritten)>;

/// Writes `input` (LAS, LAZ or COPC) with `changes` applied to `output`, a new file (the
/// caller's temporary file: this writes it whole). `changes` are sorted by index, one per
/// record, each index below the file's point count. LAS: the file is copied and the changed
/// records written over their copies. LAZ and COPC: the chunks holding a changed record are
/// decoded, changed and re-encoded; the rest copied; the chunk table, the header's EVLR offset
/// and the COPC hierarchy (entries' offsets and sizes, page offsets) follow the new layout.
/// Without changes, any of them is copied whole.
/// Throws InputError for a file it cannot save this way (pointwise LAZ, a chunk table that
/// cannot be read, chunks that do not follow each other), naming the file; Error on a failed
/// write.
/// Saves `changes` into `path` itself, writing only what changed: a LAS file's changed records,
/// a LAZ or COPC file's changed chunks re-encoded to their old sizes (a layered chunk that comes
/// out smaller is padded inside a layer; the chunk table and COPC hierarchy stay as they are).
/// What is overwritten is journaled first ("<path>.pcv-journal", made durable), so a save cut
/// short is rolled back by the next open of the file; the journal goes when the save is durable.
/// Empty, with the file as it was, where this cannot be done or would write more than a copy: a
/// chunk that comes out larger, a pointwise chunk of another size, changes in more than half
/// the file's bytes, a LAZ file that cannot be saved by chunks; patchRecordFile then saves it.
/// Same requirements on `changes` as patchRecordFile. Throws InputError naming the file, Error
/// on a failed write (the file rolled back).
std::optional<RecordPatchSummary> patchRecordFileInPlace(const std::filesystem::path& path,
                                                         std::span<const RecordChange> changes,
                                                         const PatchWritten& written = {});

RecordPatchSummary patchRecordFile(const std::filesystem::path& input,
                                   const std::filesystem::path& output,
                                   std::span<const RecordChange> changes,
                                   const PatchWritten& written = {});

}  // namespace pcv
