/// @brief Overwriting parts of a file in place without risking it: the bytes about to be
/// overwritten are first written to a journal beside the file ("<file>.pcv-journal"), made
/// durable, and only then overwritten; the journal goes when the new bytes are durable. A save
/// cut short (a crash, `kill -9`, power lost) leaves the journal, and the next open of the file
/// by pcv puts the old bytes back (MappedFile calls recoverInterruptedSave), as a database
/// rolls back an unfinished transaction. A save overwrites bytes and may append; a roll-back
/// puts the bytes back and cuts the file to its old size.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace pcv::io {

/// A range of a file's bytes.
struct ByteRange {
  uint64_t offset = 0, bytes = 0;
};

/// What a journal holds: the identity of the file it was written for and each range's bytes as
/// they were before the save (`bytes` points into the journal's bytes).
struct SaveJournalContents {
  uint64_t fileSize = 0;
  uint64_t fileIdentity = 0;  ///< the file's inode: a journal never rolls back another file
  struct Region {
    uint64_t offset = 0;
    std::span<const uint8_t> bytes;
  };
  std::vector<Region> regions;
};

/// The journal of `file`: "<file>.pcv-journal" beside it.
std::filesystem::path saveJournalPath(const std::filesystem::path& file);

/// Parses a journal. Empty where the bytes are not a whole journal (a wrong mark, a size that
/// does not add up, a region outside the file it names, a checksum that does not hold).
std::optional<SaveJournalContents> parseSaveJournal(std::span<const uint8_t> bytes);

/// Puts back the bytes of an interrupted in-place save of `file` from its journal and removes
/// the journal; nothing where there is none. Throws InputError, naming the file, where it
/// cannot: the save is still running in another process (its journal is locked), the journal
/// is damaged or was written for another file, or the file cannot be written.
void recoverInterruptedSave(const std::filesystem::path& file);

/// One in-place save: ranges journaled at construction, then written, then committed. Destroyed
/// without commit() (an exception, a save given up), it puts the old bytes back itself.
class InPlaceSave {
 public:
  /// Starts a save of `file` (`current`: its bytes, mapped with FileSharing::NoLock): takes an
  /// exclusive lock on it, journals what `ranges` hold now and makes the journal durable. Null,
  /// with nothing written, where a reader has the file mapped (its shared lock: a stream of it),
  /// which would read chunks moved under it: save through a copy then. Throws Error where the
  /// journal cannot be written or the file opened for writing; InputError where an earlier
  /// save's journal cannot be rolled back.
  static std::unique_ptr<InPlaceSave> begin(const std::filesystem::path& file,
                                            std::span<const uint8_t> current,
                                            std::span<const ByteRange> ranges);
  ~InPlaceSave();
  InPlaceSave(const InPlaceSave&) = delete;
  InPlaceSave& operator=(const InPlaceSave&) = delete;

  /// Writes `bytes` at `offset`: inside one journaled range, or past the file's old end (what
  /// lies past it may be written freely). Throws Error.
  void write(uint64_t offset, std::span<const uint8_t> bytes);
  /// Makes the new bytes durable, removes the journal and lets readers in. Throws Error (the
  /// destructor then rolls back).
  void commit();
  /// Puts the journaled bytes back, durable, and removes the journal. Throws Error (the
  /// journal then stays for the next open to recover).
  void rollBack();

 private:
  InPlaceSave(const std::filesystem::path& file, int fileFd, std::span<const uint8_t> current,
              std::span<const ByteRange> ranges);
  void release() noexcept;
  std::filesystem::path file_, journal_;
  std::vector<ByteRange> ranges_;  ///< sorted by offset
  uint64_t originalSize_ = 0;
  int fileFd_ = -1, journalFd_ = -1;
  bool done_ = false;
};

}  // namespace pcv::io
