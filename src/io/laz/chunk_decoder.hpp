/// @brief Decodes LAZ chunks into LAS point records. One decoder per thread, reused chunk after
/// chunk: its model state is allocated once, and a chunk can be decoded in several calls, so a
/// caller's buffer bounds the memory whatever the chunk's size. Faults in the compressed data
/// never throw from the per-point loop; they are collected and reported after each call.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "laszip_vlr.hpp"

namespace pcv::laz {

/// Fields a layered (point format 6-10) decoder decodes besides x, y and the return numbers;
/// the others keep the chunk's first values. Pointwise chunks always decode everything.
struct FieldSelection {
  bool z = true;
  bool classification = true;
  bool flags = true;  ///< class flags, scan direction, edge of flight line
  bool intensity = true;
  bool scanAngle = true;
  bool userData = true;
  bool pointSource = true;
  bool gpsTime = true;
  bool rgb = true;
  bool nir = true;
  bool wavePacket = true;
  bool extraBytes = true;
};

/// Layers an item stores in a layered chunk (point14: its fixed set; RGBNIR14: two; BYTE14: one
/// per byte), one otherwise: where each item's layer sizes lie in the chunk's layer table.
uint32_t layerCount(const Item& item);

/// Where a chunk's compressed data went wrong.
struct ChunkFault {
  uint64_t byte;     ///< offset in the chunk
  std::string what;  ///< what was wrong, for the message
};

/// The pieces of a layered chunk: its first (raw) record, the point count it states, and its
/// layers, in item order.
struct LayeredChunkShape {
  uint32_t statedPointCount;
  std::vector<uint32_t> layerBytes;
  uint64_t layersStart;  ///< offset of the first layer's bytes
  uint64_t totalBytes;   ///< the whole chunk
};

/// Reads the layout of a layered chunk at `bytes` (at most `size` bytes); throws LazError when
/// it does not fit.
LayeredChunkShape readLayeredChunkShape(const LaszipVlr& vlr, const uint8_t* bytes, uint64_t size);

class ChunkDecoder {
 public:
  ChunkDecoder(const LaszipVlr& vlr, const FieldSelection& fields);
  ~ChunkDecoder();
  ChunkDecoder(const ChunkDecoder&) = delete;
  ChunkDecoder& operator=(const ChunkDecoder&) = delete;

  uint32_t recordLength() const { return recordLength_; }

  /// Starts a chunk of `pointCount` (>= 1) points whose bytes begin at `bytes`; `size` bytes are
  /// readable (a pointwise chunk whose end is unknown may be given everything up to the end of
  /// the point data). Throws LazError when the chunk's own layout does not fit.
  void start(const uint8_t* bytes, uint64_t size, uint64_t pointCount);

  /// Decodes the chunk's next `count` records into `records` (count * recordLength() bytes).
  void decode(uint64_t count, uint8_t* records);

  /// The first fault in the data decoded so far.
  std::optional<ChunkFault> fault() const;

  /// Layered chunks: the point count the chunk states (0 for pointwise chunks).
  uint32_t statedPointCount() const { return statedPointCount_; }

  /// Bytes of the chunk read so far; after the last point of a pointwise chunk this is where the
  /// chunk ends (encoders write exactly what the decoder reads).
  uint64_t bytesUsed() const;

 private:
  struct Codecs;
  void startPointwise(const uint8_t* bytes, uint64_t size);
  void startLayered(const uint8_t* bytes, uint64_t size, uint64_t pointCount);
  void decodePointwise(uint64_t count, uint8_t* records);
  void decodeLayered(uint64_t count, uint8_t* records);

  LaszipVlr vlr_;
  FieldSelection fields_;
  uint32_t recordLength_ = 0;
  bool layered_ = false;
  const uint8_t* chunk_ = nullptr;
  uint64_t chunkSize_ = 0;
  uint64_t remaining_ = 0;  ///< points of the chunk not yet decoded
  bool firstPending_ = false;
  uint64_t layeredBytes_ = 0;  ///< the whole layered chunk
  uint32_t statedPointCount_ = 0;
  std::unique_ptr<Codecs> codecs_;
};

}  // namespace pcv::laz
