/// @brief The LASzip VLR (user id "laszip encoded", record 22204) that makes a LAS file a LAZ
/// file: compressor, chunk size and the items a point record is cut into. Parsed with every
/// field checked, so that the decoders only ever see a layout they support.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace pcv::laz {

/// A malformed LAZ structure; `byte` is the offset in whatever the parser was given (the reader
/// adds where that lies in the file).
class LazError : public std::runtime_error {
 public:
  LazError(uint64_t byte, const std::string& what) : std::runtime_error(what), byte(byte) {}
  uint64_t byte;
};

inline constexpr char kLaszipUserId[] = "laszip encoded";
inline constexpr uint16_t kLaszipRecordId = 22204;
/// chunkSize value of files whose chunks vary in size (the chunk table holds each count).
inline constexpr uint32_t kVariableChunkSize = 0xFFFFFFFFu;
inline constexpr uint32_t kDefaultChunkSize = 50000;

enum class Compressor : uint16_t {
  None = 0,
  Pointwise = 1,         ///< one arithmetic stream for the whole file
  PointwiseChunked = 2,  ///< independent chunks, point formats 0-5
  Layered = 3,           ///< independent chunks of separately coded layers, formats 6-10
};

enum class ItemType : uint16_t {
  Byte = 0,  ///< extra bytes (formats 0-5)
  Point10 = 6,
  GpsTime11 = 7,
  Rgb12 = 8,
  WavePacket13 = 9,
  Point14 = 10,
  Rgb14 = 11,
  RgbNir14 = 12,
  WavePacket14 = 13,
  Byte14 = 14,  ///< extra bytes (formats 6-10)
};

struct Item {
  ItemType type;
  uint16_t size;     ///< bytes of the record
  uint16_t version;  ///< coding version
};

struct LaszipVlr {
  Compressor compressor = Compressor::PointwiseChunked;
  uint16_t coder = 0;  ///< 0: arithmetic, the only one defined
  uint8_t versionMajor = 0, versionMinor = 0;
  uint16_t versionRevision = 0;
  uint32_t options = 0;
  uint32_t chunkSize = kDefaultChunkSize;  ///< points per chunk, or kVariableChunkSize
  int64_t specialEvlrCount = -1;           ///< reserved by LASzip, -1
  int64_t specialEvlrOffset = -1;          ///< reserved by LASzip, -1
  std::vector<Item> items;

  bool variableChunks() const { return chunkSize == kVariableChunkSize; }
  bool chunked() const { return compressor != Compressor::Pointwise; }
  uint32_t recordLength() const;
};

/// Parses and validates the VLR payload of a file with `pointFormat` (0-10) records of
/// `recordLength` bytes; throws LazError.
LaszipVlr parseLaszipVlr(std::span<const uint8_t> payload, int pointFormat, uint32_t recordLength);

/// The payload bytes of `vlr` (34 + 6 per item).
std::vector<uint8_t> packLaszipVlr(const LaszipVlr& vlr);

/// The VLR pcv writes for `pointFormat` records of `recordLength` bytes (extra bytes beyond the
/// format's fields become a BYTE / BYTE14 item): compressor 2 for formats 0-5, 3 for 6-10.
LaszipVlr laszipVlrFor(int pointFormat, uint32_t recordLength,
                       uint32_t chunkSize = kDefaultChunkSize);

/// "POINT10", "RGB14" ...
const char* itemName(ItemType type);
/// "pointwise", "pointwise chunked", "layered chunked".
const char* compressorName(Compressor compressor);
/// "POINT10 v2, GPSTIME11 v2, RGB12 v2".
std::string describeItems(const std::vector<Item>& items);

}  // namespace pcv::laz
