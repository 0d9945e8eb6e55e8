#include "laszip_vlr.hpp"

#include <cstring>

#include "record_bytes.hpp"

namespace pcv::laz {
namespace {

// Payload layout: compressor u16, coder u16, version u8 u8 u16, options u32, chunk size u32,
// special EVLR count i64 and offset i64, item count u16, then per item type, size, version (u16).
constexpr uint32_t kFixedPayloadBytes = 34;
constexpr uint32_t kItemBytes = 6;
constexpr uint32_t kItemCountOffset = 32;

struct ItemRule {
  ItemType type;
  uint16_t size;  ///< 0: any size from 1 (extra bytes)
  uint16_t firstVersion, lastVersion;
  bool layered;  ///< belongs to compressor 3
};

// Version 2 of the layered items is an early name of version 3.
constexpr ItemRule kItemRules[] = {
    {ItemType::Byte, 0, 1, 2, false},          {ItemType::Point10, 20, 1, 2, false},
    {ItemType::GpsTime11, 8, 1, 2, false},     {ItemType::Rgb12, 6, 1, 2, false},
    {ItemType::WavePacket13, 29, 1, 1, false}, {ItemType::Point14, 30, 2, 4, true},
    {ItemType::Rgb14, 6, 2, 4, true},          {ItemType::RgbNir14, 8, 2, 4, true},
    {ItemType::WavePacket14, 29, 3, 4, true},  {ItemType::Byte14, 0, 2, 4, true},
};

const ItemRule* ruleFor(uint16_t type) {
  for (const ItemRule& rule : kItemRules) {
    if (uint16_t(rule.type) == type) return &rule;
  }
  return nullptr;
}

void putU16(std::vector<uint8_t>& out, uint16_t v) {
  out.push_back(uint8_t(v));
  out.push_back(uint8_t(v >> 8));
}
void putU32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
void putU64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

}  // namespace

uint32_t LaszipVlr::recordLength() const {
  uint32_t total = 0;
  for (const Item& item : items) total += item.size;
  return total;
}

LaszipVlr parseLaszipVlr(std::span<const uint8_t> payload, int pointFormat, uint32_t recordLength) {
  const uint8_t* p = payload.data();
  const size_t size = payload.size();
  if (size < kFixedPayloadBytes) {
    throw LazError(size, "LASzip VLR has " + std::to_string(size) + " bytes, expected at least " +
                             std::to_string(kFixedPayloadBytes));
  }
  LaszipVlr vlr;
  const uint16_t compressor = loadLe<uint16_t>(p);
  vlr.coder = loadLe<uint16_t>(p + 2);
  vlr.versionMajor = p[4];
  vlr.versionMinor = p[5];
  vlr.versionRevision = loadLe<uint16_t>(p + 6);
  vlr.options = loadLe<uint32_t>(p + 8);
  vlr.chunkSize = loadLe<uint32_t>(p + 12);
  vlr.specialEvlrCount = loadLe<int64_t>(p + 16);
  vlr.specialEvlrOffset = loadLe<int64_t>(p + 24);
  const uint32_t itemCount = loadLe<uint16_t>(p + kItemCountOffset);
  if (compressor < 1 || compressor > 3) {
    throw LazError(0, "LASzip compressor " + std::to_string(compressor) +
                          " is not defined (expected 1 pointwise, 2 pointwise chunked or 3 "
                          "layered chunked)");
  }
  vlr.compressor = Compressor(compressor);
  if (vlr.coder != 0) {
    throw LazError(2, "LASzip coder " + std::to_string(vlr.coder) +
                          " is not defined (expected 0, arithmetic)");
  }
  if (itemCount == 0) throw LazError(kItemCountOffset, "LASzip VLR lists no items");
  if (size != kFixedPayloadBytes + kItemBytes * size_t(itemCount)) {
    throw LazError(kItemCountOffset,
                   "LASzip VLR lists " + std::to_string(itemCount) + " items, which take " +
                       std::to_string(kFixedPayloadBytes + kItemBytes * itemCount) +
                       " bytes, but has " + std::to_string(size));
  }
  const bool layeredFormat = pointFormat >= 6;
  const bool layeredCompressor = vlr.compressor == Compressor::Layered;
  if (layeredFormat != layeredCompressor) {
    throw LazError(0, "LASzip compressor " + std::to_string(compressor) + " (" +
                          compressorName(vlr.compressor) + ") cannot hold point format " +
                          std::to_string(pointFormat) +
                          (layeredFormat ? " (formats 6-10 need 3, layered chunked)"
                                         : " (formats 0-5 need 1 or 2, pointwise)"));
  }
  // Chunk size 0 has always been read as "variable".
  if (vlr.chunked() && vlr.chunkSize == 0) vlr.chunkSize = kVariableChunkSize;
  bool seen[16] = {};
  for (uint32_t i = 0; i < itemCount; ++i) {
    const uint64_t at = kFixedPayloadBytes + kItemBytes * i;
    const uint16_t type = loadLe<uint16_t>(p + at);
    const uint16_t itemSize = loadLe<uint16_t>(p + at + 2);
    const uint16_t version = loadLe<uint16_t>(p + at + 4);
    const ItemRule* rule = ruleFor(type);
    const std::string which = "LASzip item " + std::to_string(i);
    if (!rule) {
      throw LazError(at, which + " has type " + std::to_string(type) +
                             ", which is not a LAZ item (0 and 6-14 are)");
    }
    const std::string name = itemName(rule->type);
    if (rule->layered != layeredCompressor) {
      throw LazError(at, which + " is " + name + ", which compressor " +
                             std::to_string(compressor) + " does not use");
    }
    if ((rule->size != 0 && itemSize != rule->size) || itemSize == 0) {
      throw LazError(at + 2, which + " (" + name + ") has " + std::to_string(itemSize) +
                                 " bytes, expected " +
                                 (rule->size ? std::to_string(rule->size) : "at least 1"));
    }
    if (version < rule->firstVersion || version > rule->lastVersion) {
      throw LazError(at + 4, which + " (" + name + ") has version " + std::to_string(version) +
                                 ", expected " + std::to_string(rule->firstVersion) +
                                 (rule->lastVersion != rule->firstVersion
                                      ? "-" + std::to_string(rule->lastVersion)
                                      : std::string()));
    }
    if (seen[type]) throw LazError(at, which + " repeats " + name);
    seen[type] = true;
    vlr.items.push_back({rule->type, itemSize, version});
  }
  if (layeredCompressor && vlr.items.front().type != ItemType::Point14) {
    throw LazError(kFixedPayloadBytes, "layered LASzip items must start with POINT14, not " +
                                           std::string(itemName(vlr.items.front().type)));
  }
  if (vlr.recordLength() != recordLength) {
    throw LazError(kItemCountOffset, "LASzip items (" + describeItems(vlr.items) + ") add up to " +
                                         std::to_string(vlr.recordLength()) +
                                         " bytes, but the header's point records have " +
                                         std::to_string(recordLength));
  }
  return vlr;
}

std::vector<uint8_t> packLaszipVlr(const LaszipVlr& vlr) {
  std::vector<uint8_t> out;
  putU16(out, uint16_t(vlr.compressor));
  putU16(out, vlr.coder);
  out.push_back(vlr.versionMajor);
  out.push_back(vlr.versionMinor);
  putU16(out, vlr.versionRevision);
  putU32(out, vlr.options);
  putU32(out, vlr.chunkSize);
  putU64(out, uint64_t(vlr.specialEvlrCount));
  putU64(out, uint64_t(vlr.specialEvlrOffset));
  putU16(out, uint16_t(vlr.items.size()));
  for (const Item& item : vlr.items) {
    putU16(out, uint16_t(item.type));
    putU16(out, item.size);
    putU16(out, item.version);
  }
  return out;
}

LaszipVlr laszipVlrFor(int pointFormat, uint32_t recordLength, uint32_t chunkSize) {
  // Bytes of each format's standard fields.
  constexpr uint16_t kFormatBytes[11] = {20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67};
  LaszipVlr vlr;
  // The LASzip release whose bitstream this matches (the versions a reader checks for support).
  vlr.versionMajor = 3;
  vlr.versionMinor = 4;
  vlr.versionRevision = 3;
  vlr.chunkSize = chunkSize;
  const bool hasGps = pointFormat == 1 || pointFormat >= 3;
  const bool hasRgb = pointFormat == 2 || pointFormat == 3 || pointFormat == 5 ||
                      pointFormat == 7 || pointFormat == 8 || pointFormat == 10;
  const bool hasNir = pointFormat == 8 || pointFormat == 10;
  const bool hasWave =
      pointFormat == 4 || pointFormat == 5 || pointFormat == 9 || pointFormat == 10;
  const uint32_t extra = recordLength - kFormatBytes[pointFormat];
  if (pointFormat >= 6) {
    vlr.compressor = Compressor::Layered;
    vlr.items.push_back({ItemType::Point14, 30, 3});
    if (hasRgb)
      vlr.items.push_back(
          {hasNir ? ItemType::RgbNir14 : ItemType::Rgb14, uint16_t(hasNir ? 8 : 6), 3});
    if (hasWave) vlr.items.push_back({ItemType::WavePacket14, 29, 3});
    if (extra) vlr.items.push_back({ItemType::Byte14, uint16_t(extra), 3});
  } else {
    vlr.compressor = Compressor::PointwiseChunked;
    vlr.items.push_back({ItemType::Point10, 20, 2});
    if (hasGps) vlr.items.push_back({ItemType::GpsTime11, 8, 2});
    if (hasRgb) vlr.items.push_back({ItemType::Rgb12, 6, 2});
    if (hasWave) vlr.items.push_back({ItemType::WavePacket13, 29, 1});
    if (extra) vlr.items.push_back({ItemType::Byte, uint16_t(extra), 2});
  }
  return vlr;
}

const char* itemName(ItemType type) {
  switch (type) {
    case ItemType::Byte:
      return "BYTE";
    case ItemType::Point10:
      return "POINT10";
    case ItemType::GpsTime11:
      return "GPSTIME11";
    case ItemType::Rgb12:
      return "RGB12";
    case ItemType::WavePacket13:
      return "WAVEPACKET13";
    case ItemType::Point14:
      return "POINT14";
    case ItemType::Rgb14:
      return "RGB14";
    case ItemType::RgbNir14:
      return "RGBNIR14";
    case ItemType::WavePacket14:
      return "WAVEPACKET14";
    case ItemType::Byte14:
      return "BYTE14";
  }
  return "unknown";
}

const char* compressorName(Compressor compressor) {
  switch (compressor) {
    case Compressor::None:
      return "none";
    case Compressor::Pointwise:
      return "pointwise";
    case Compressor::PointwiseChunked:
      return "pointwise chunked";
    case Compressor::Layered:
      return "layered chunked";
  }
  return "unknown";
}

std::string describeItems(const std::vector<Item>& items) {
  std::string text;
  for (const Item& item : items) {
    if (!text.empty()) text += ", ";
    text += itemName(item.type);
    if (item.type == ItemType::Byte || item.type == ItemType::Byte14) {
      text += "(" + std::to_string(item.size) + ")";
    }
    text += " v" + std::to_string(item.version);
  }
  return text;
}

}  // namespace pcv::laz
