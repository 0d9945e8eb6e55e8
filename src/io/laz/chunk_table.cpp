#include "chunk_table.hpp"

#include "arithmetic_decoder.hpp"
#include "arithmetic_encoder.hpp"
#include "integer_coder.hpp"

namespace pcv::laz {
namespace {

constexpr uint32_t kPointCountContext = 0;
constexpr uint32_t kByteCountContext = 1;

}  // namespace

std::optional<std::vector<ChunkTableEntry>> decodeChunkTableEntries(const uint8_t* bytes,
                                                                    uint64_t size, uint32_t count,
                                                                    bool variable) {
  std::vector<ChunkTableEntry> entries;
  if (count == 0) return entries;
  ArithmeticDecoder decoder;
  decoder.start(bytes, size);
  IntegerCoder<2> coder;
  coder.reset(32, true);
  entries.reserve(count);
  uint32_t lastPoints = 0, lastBytes = 0;
  for (uint32_t i = 0; i < count && !decoder.failed(); ++i) {
    ChunkTableEntry entry{0, 0};
    if (variable) {
      lastPoints = uint32_t(coder.decode(decoder, int32_t(lastPoints), kPointCountContext));
      entry.pointCount = lastPoints;
    }
    lastBytes = uint32_t(coder.decode(decoder, int32_t(lastBytes), kByteCountContext));
    entry.byteCount = lastBytes;
    entries.push_back(entry);
  }
  if (decoder.failed()) return std::nullopt;
  return entries;
}

std::vector<uint8_t> encodeChunkTable(const std::vector<ChunkTableEntry>& entries, bool variable) {
  std::vector<uint8_t> out(8, 0);
  const uint32_t count = uint32_t(entries.size());
  for (int i = 0; i < 4; ++i) out[4 + i] = uint8_t(count >> (8 * i));
  if (entries.empty()) return out;
  ArithmeticEncoder encoder;
  encoder.start();
  IntegerCoder<2> coder;
  coder.reset(32, false);
  uint32_t lastPoints = 0, lastBytes = 0;
  for (const ChunkTableEntry& entry : entries) {
    if (variable) {
      coder.encode(encoder, int32_t(lastPoints), int32_t(entry.pointCount), kPointCountContext);
      lastPoints = uint32_t(entry.pointCount);
    }
    coder.encode(encoder, int32_t(lastBytes), int32_t(entry.byteCount), kByteCountContext);
    lastBytes = uint32_t(entry.byteCount);
  }
  encoder.finish();
  out.insert(out.end(), encoder.bytes().begin(), encoder.bytes().end());
  return out;
}

}  // namespace pcv::laz
