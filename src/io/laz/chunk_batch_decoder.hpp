/// @brief Decodes many LAZ chunks in one call somewhere other than the CPU's cores (the GPU
/// decoder of pcv_io_cuda implements it). The LAZ reader hands it a file's chunks and keeps to
/// itself what a batch decoder need not know: the record decoding into points, and the wording
/// of faults, which it gets by decoding a chunk the batch decoder calls broken on the CPU.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "chunk_decoder.hpp"
#include "laszip_vlr.hpp"

namespace pcv::laz {

/// One chunk of a batch: where its bytes lie in the batch's data, and its points.
struct BatchChunk {
  uint64_t offset;     ///< in the data handed to decode()
  uint64_t byteCount;  ///< the chunk's size (from the chunk table)
  uint64_t pointCount;
};

class ChunkBatchDecoder {
 public:
  virtual ~ChunkBatchDecoder() = default;

  /// "cuda", for reports.
  virtual const char* name() const = 0;

  /// Whether it decodes chunks of this compressor, item types and versions (others stay on the
  /// CPU).
  virtual bool supports(const LaszipVlr& vlr) const = 0;

  /// Whether the reader decodes on the CPU instead when decode() throws (`--decode auto`).
  virtual bool fallsBackToCpu() const { return false; }

  /// Decodes `chunks` (their bytes in `data`) into `records`: each chunk's records follow the
  /// previous chunk's, recordLength() bytes each. Returns the indices into `chunks`, ascending,
  /// of the chunks whose data is broken (their records are unspecified), the same chunks the CPU
  /// decoder fails on; chunks of no points are left to the caller. Throws pcv::Error when the
  /// device fails.
  virtual std::vector<size_t> decode(const LaszipVlr& vlr, const FieldSelection& fields,
                                     std::span<const uint8_t> data,
                                     std::span<const BatchChunk> chunks, uint8_t* records) = 0;
};

}  // namespace pcv::laz
