/// @brief Encodes LAS point records into LAZ chunks (host only): the inverse of ChunkDecoder for
/// the items pcv writes (POINT10, GPSTIME11, RGB12, BYTE v2 and WAVEPACKET13 v1 in pointwise
/// chunks; POINT14, RGB14, RGBNIR14, WAVEPACKET14 and BYTE14 v3 or v4 in layered ones). One
/// encoder per thread, reused chunk after chunk.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "laszip_vlr.hpp"

namespace pcv::laz {

class ChunkEncoder {
 public:
  /// Throws LazError for an item it cannot write (version 1 items other than WAVEPACKET13).
  explicit ChunkEncoder(const LaszipVlr& vlr);
  ~ChunkEncoder();
  ChunkEncoder(const ChunkEncoder&) = delete;
  ChunkEncoder& operator=(const ChunkEncoder&) = delete;

  /// Appends one chunk holding `count` (>= 1) records (count * recordLength bytes) to `out`.
  void encode(const uint8_t* records, uint64_t count, std::vector<uint8_t>& out);

 private:
  struct Codecs;
  void encodePointwise(const uint8_t* records, uint64_t count, std::vector<uint8_t>& out);
  void encodeLayered(const uint8_t* records, uint64_t count, std::vector<uint8_t>& out);

  LaszipVlr vlr_;
  uint32_t recordLength_;
  std::unique_ptr<Codecs> codecs_;
};

}  // namespace pcv::laz
