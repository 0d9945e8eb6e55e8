/// @brief Writes LAS and LAZ files from LAS point records streamed in batches, so any number of
/// points fits in bounded memory. LAZ uses LASzip's compressor 2 for point formats 0-5 and 3
/// (layered) for 6-10, in chunks encoded on all cores; the counts, bounds and return counts of
/// the header are computed from the records written. LAS records can also be written at their
/// place in the file, from several threads at once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace pcv {

/// A variable-length record copied into a written file.
struct LasVariableRecord {
  std::string userId;  ///< up to 16 characters
  uint16_t recordId = 0;
  std::string description;  ///< up to 32 characters
  std::vector<uint8_t> payload;
};

/// What the records are and the header fields the writer does not compute.
struct LasWriteFormat {
  int pointFormat = 3;
  uint16_t recordLength = 34;  ///< at least the format's bytes; the rest are extra bytes
  int versionMinor = 2;        ///< LAS 1.x: at least 2 (formats 0-3), 3 (4-5), 4 (6-10)
  glm::dvec3 scale{0.001};
  glm::dvec3 offset{0.0};
  uint16_t fileSourceId = 0;
  uint16_t globalEncoding = 0;
  std::string systemIdentifier = "pcv";
  std::string generatingSoftware = "pcv convert";
  uint16_t creationDay = 0, creationYear = 0;
  std::vector<LasVariableRecord> vlrs;   ///< written before the points
  std::vector<LasVariableRecord> evlrs;  ///< LAS 1.4: written after the points
};

/// The LAS version a point format needs at least (2, 3 or 4).
int minimumLasMinorVersion(int pointFormat);
/// Bytes of a point format's standard fields.
uint16_t lasFormatRecordBytes(int pointFormat);

enum class LasCompression { None, Laz };

/// `chunkPoints` of a LAZ file whose chunks vary in size: each is written by writeChunks.
inline constexpr uint32_t kLasVariableChunks = 0xFFFFFFFFu;

/// One chunk's records for LasFileWriter::writeChunks.
struct LasChunkRecords {
  const uint8_t* records = nullptr;  ///< count * recordLength bytes
  uint64_t count = 0;                ///< points, at least 1
};

/// Wall seconds a LAZ writer has spent so far, for a conversion's phase breakdown.
struct LasWriteTimes {
  double encodingSeconds = 0.0;  ///< chunks encoded, on all cores, by the caller's call
  double writingSeconds = 0.0;   ///< on the writing thread, while the caller goes on
  double waitingSeconds = 0.0;   ///< the caller waited for the writing thread
};

/// Where a chunk was written.
struct LasChunkPlacement {
  uint64_t offset = 0;  ///< file offset of its first byte
  uint64_t bytes = 0;   ///< compressed size
};

class LasFileWriter {
 public:
  /// Creates `path`; throws Error when it cannot, InputError when `format` is inconsistent.
  /// LAZ chunks hold `chunkPoints` points (the last one fewer), or as many as each
  /// writeChunks entry with kLasVariableChunks.
  LasFileWriter(const std::filesystem::path& path, const LasWriteFormat& format,
                LasCompression compression, uint32_t chunkPoints = 50000);
  ~LasFileWriter();
  LasFileWriter(const LasFileWriter&) = delete;
  LasFileWriter& operator=(const LasFileWriter&) = delete;

  /// Appends `count` records (count * recordLength bytes). Not with kLasVariableChunks.
  void write(const uint8_t* records, uint64_t count);
  /// Uncompressed only, instead of write(): the file's records will be `count`, each written
  /// once by writeAt. Call before any record is written.
  void placeRecords(uint64_t count);
  /// After placeRecords: writes `count` records as records [first, first + count) of the file,
  /// at their offset, in any order and from several threads at once; the header's counts and
  /// bounds come out as write() in order would make them. finish() checks that as many records
  /// were written as placeRecords said. Throws Error on a failed write.
  void writeAt(uint64_t first, const uint8_t* records, uint64_t count);
  /// kLasVariableChunks only: encodes each of `chunks` as one LAZ chunk, on all cores, and
  /// appends them in order; returns where each went.
  std::vector<LasChunkPlacement> writeChunks(std::span<const LasChunkRecords> chunks);
  /// Replaces the payload of the format's VLR `index` with one of the same size: for VLRs that
  /// describe what is known only at the end (a table of contents).
  void replaceVlrPayload(size_t index, std::vector<uint8_t> payload);
  /// Writes what is buffered and the chunk table, and returns the file offset where the EVLRs
  /// will begin, for EVLRs that point into themselves. No points may follow.
  uint64_t finishPoints();
  /// Replaces the EVLRs that finish() writes (LAS 1.4).
  void setEvlrs(std::vector<LasVariableRecord> evlrs);
  /// Writes what is buffered, the chunk table and the EVLRs, then the header's counts and
  /// bounds. Without it the file is incomplete.
  void finish();

  uint64_t pointsWritten() const;
  /// So far; the writing thread's share counts once its round is waited for (finish waits).
  LasWriteTimes times() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pcv
