/// @brief A LAZ file's point records, decoded chunk by chunk into a caller's buffer: the LASzip
/// VLR and the chunk layout of a LAS header, and the decoding of one chunk with every fault
/// reported as an InputError naming the file, the chunk and the byte. The LAZ reader decodes
/// chunks on all cores through this; `pcv convert` streams the raw records from it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "las/las_header.hpp"
#include "chunk_decoder.hpp"
#include "chunk_layout.hpp"
#include "laszip_vlr.hpp"
#include "common/read_context.hpp"
#include "pcv/io/byte_source.hpp"

namespace pcv::io {

class LazPointRecords {
 public:
  /// Parses the LASzip VLR of `header` and locates the chunks. Fails through `context`.
  LazPointRecords(std::span<const uint8_t> file, const LasHeader& header,
                  const ReadContext& context);
  /// The same from a source the caller keeps alive (a remote file: chunks fetched as decoded).
  LazPointRecords(const ByteSource& file, const LasHeader& header, const ReadContext& context);

  const laz::LaszipVlr& vlr() const { return vlr_; }
  const laz::ChunkLayout& layout() const { return layout_; }
  size_t chunkCount() const { return layout_.chunks.size(); }
  uint64_t recordLength() const { return vlr_.recordLength(); }
  /// Points the header declares past the end of a file cut short (only its whole chunks are
  /// read; ReadOptions::strict refuses such a file instead); 0 for a whole file.
  uint64_t missingPoints() const { return layout_.missingPoints; }
  /// Chunks must be decoded in order (pointwise chunks without a usable chunk table).
  bool sequential() const { return layout_.sequential; }

  /// The raw first record of chunk `index` (a chunk stores its first point uncompressed): in
  /// place for a mapped file, else read into `storage`.
  const uint8_t* firstRecordOf(size_t index, std::vector<uint8_t>& storage) const {
    return file_->read(layout_.chunks[index].offset, recordLength(), storage).data();
  }
  /// Where each chunk's first record lies, for a source to fetch them together.
  std::vector<ByteRange> firstRecordRanges() const;
  const ByteSource& source() const { return *file_; }

  /// Lines for `pcv info`: compressor, chunks, items (and why the chunk table was not used).
  std::vector<std::string> describe() const;
  /// What the user should know although the points are read: a chunk table that could not be
  /// used or that leaves points out. Each names the file.
  std::vector<std::string> warnings() const;

  /// A decoder for this file's chunks (one per thread).
  std::unique_ptr<laz::ChunkDecoder> makeDecoder(const laz::FieldSelection& fields) const;

  /// Called with consecutive records of a chunk: `records` holds `count` records, the first of
  /// them point `firstPoint` of the file.
  using RecordSink =
      std::function<void(const uint8_t* records, uint64_t firstPoint, uint64_t count)>;

  /// Decodes chunk `index` in pieces of at most `bufferPoints` records through `buffer`
  /// (bufferPoints * recordLength() bytes), handing each piece to `sink`. The records a sink
  /// sees are good: a fault fails through the context after the last good piece. Sequential
  /// layouts need the chunks in order (each one's end is where the next begins).
  void decodeChunk(size_t index, laz::ChunkDecoder& decoder, uint8_t* buffer, uint64_t bufferPoints,
                   const RecordSink& sink);

 private:
  /// What a file cut short lacks, for the warning or the refusal.
  std::string truncationText() const;

  [[noreturn]] void failInChunk(size_t index, uint64_t chunkByte, const std::string& what) const;

  void locate(const LasHeader& header, const ReadContext& context);

  std::unique_ptr<SpanByteSource> ownedSource_;  ///< for the span constructor
  const ByteSource* file_ = nullptr;
  ReadContext context_;
  uint64_t pointsOffset_ = 0;
  laz::LaszipVlr vlr_;
  laz::ChunkLayout layout_;
};

}  // namespace pcv::io
