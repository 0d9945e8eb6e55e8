#include "chunk_encoder.hpp"

#include <span>

#include "arithmetic_encoder.hpp"
#include "byte_codec.hpp"
#include "gps_time_codec.hpp"
#include "layered_items.hpp"
#include "point10_codec.hpp"
#include "point14_codec.hpp"
#include "rgb_codec.hpp"
#include "wave_packet_codec.hpp"

namespace pcv::laz {
namespace {

template <typename T>
std::unique_ptr<T> allocateState() {
  return std::unique_ptr<T>(new T);
}

void appendU32(std::vector<uint8_t>& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(uint8_t(value >> (8 * i)));
}

void append(std::vector<uint8_t>& out, std::span<const uint8_t> bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

}  // namespace

struct ChunkEncoder::Codecs {
  std::vector<uint32_t> offsets;  ///< of each item in the record
  ArithmeticEncoder stream;       ///< pointwise chunks
  std::unique_ptr<Point10V2Codec> point10;
  std::unique_ptr<GpsTime11V2Codec> gps11;
  std::unique_ptr<Rgb12V2Codec> rgb12;
  std::unique_ptr<ByteV2Codec> bytes;
  std::unique_ptr<WavePacket13Codec> wave13;
  std::unique_ptr<Point14Codec> point14;
  std::unique_ptr<Rgb14Codec> rgb14;
  std::unique_ptr<WavePacket14Codec> wave14;
  std::unique_ptr<Byte14Codec> byte14;
  /// Layered chunks: POINT14's layers, then RGB and NIR, the wave packets, the extra bytes.
  ArithmeticEncoder point14Layers[kPoint14LayerCount];
  ArithmeticEncoder rgbLayer, nirLayer, waveLayer;
  std::vector<ArithmeticEncoder> byteLayers;
};

ChunkEncoder::ChunkEncoder(const LaszipVlr& vlr)
    : vlr_(vlr), recordLength_(vlr.recordLength()), codecs_(std::make_unique<Codecs>()) {
  Codecs& c = *codecs_;
  uint32_t offset = 0;
  for (const Item& item : vlr.items) {
    const bool layeredVersion = item.version >= 3;
    if (!layeredVersion && item.version != 2 && item.type != ItemType::WavePacket13) {
      throw LazError(0, std::string("pcv writes ") + itemName(item.type) +
                            " only in version 2, not " + std::to_string(item.version));
    }
    const uint32_t version = item.version == 4 ? 4 : 3;
    switch (item.type) {
      case ItemType::Point10:
        c.point10 = allocateState<Point10V2Codec>();
        break;
      case ItemType::GpsTime11:
        c.gps11 = allocateState<GpsTime11V2Codec>();
        break;
      case ItemType::Rgb12:
        c.rgb12 = allocateState<Rgb12V2Codec>();
        break;
      case ItemType::Byte:
        c.bytes = std::make_unique<ByteV2Codec>(item.size);
        break;
      case ItemType::WavePacket13:
        c.wave13 = allocateState<WavePacket13Codec>();
        break;
      case ItemType::Point14:
        c.point14 = allocateState<Point14Codec>();
        c.point14->version = version;
        c.point14->layersWanted = ~0u;
        break;
      case ItemType::Rgb14:
      case ItemType::RgbNir14:
        c.rgb14 = allocateState<Rgb14Codec>();
        c.rgb14->version = version;
        c.rgb14->hasNir = item.type == ItemType::RgbNir14;
        c.rgb14->wantRgb = c.rgb14->wantNir = true;
        break;
      case ItemType::WavePacket14:
        c.wave14 = allocateState<WavePacket14Codec>();
        c.wave14->version = version;
        c.wave14->wanted = true;
        break;
      case ItemType::Byte14:
        c.byte14 = std::make_unique<Byte14Codec>(item.size);
        c.byte14->version = version;
        c.byteLayers.resize(item.size);
        break;
    }
    c.offsets.push_back(offset);
    offset += item.size;
  }
}

ChunkEncoder::~ChunkEncoder() = default;

void ChunkEncoder::encode(const uint8_t* records, uint64_t count, std::vector<uint8_t>& out) {
  if (count == 0) return;
  out.insert(out.end(), records, records + recordLength_);
  if (vlr_.compressor == Compressor::Layered) {
    encodeLayered(records, count, out);
  } else {
    encodePointwise(records, count, out);
  }
}

void ChunkEncoder::encodePointwise(const uint8_t* records, uint64_t count,
                                   std::vector<uint8_t>& out) {
  Codecs& c = *codecs_;
  for (size_t i = 0; i < vlr_.items.size(); ++i) {
    const uint8_t* first = records + c.offsets[i];
    switch (vlr_.items[i].type) {
      case ItemType::Point10:
        c.point10->startChunk(first, false);
        break;
      case ItemType::GpsTime11:
        c.gps11->startChunk(first, false);
        break;
      case ItemType::Rgb12:
        c.rgb12->startChunk(first, false);
        break;
      case ItemType::Byte:
        c.bytes->startChunk(first, false);
        break;
      case ItemType::WavePacket13:
        c.wave13->startChunk(first, false);
        break;
      default:
        break;
    }
  }
  c.stream.start();
  for (uint64_t p = 1; p < count; ++p) {
    const uint8_t* record = records + p * recordLength_;
    for (size_t i = 0; i < vlr_.items.size(); ++i) {
      const uint8_t* item = record + c.offsets[i];
      switch (vlr_.items[i].type) {
        case ItemType::Point10:
          c.point10->encode(c.stream, item);
          break;
        case ItemType::GpsTime11:
          c.gps11->encode(c.stream, item);
          break;
        case ItemType::Rgb12:
          c.rgb12->encode(c.stream, item);
          break;
        case ItemType::Byte:
          c.bytes->encode(c.stream, item);
          break;
        case ItemType::WavePacket13:
          c.wave13->encode(c.stream, item);
          break;
        default:
          break;
      }
    }
  }
  c.stream.finish();
  append(out, c.stream.bytes());
}

void ChunkEncoder::encodeLayered(const uint8_t* records, uint64_t count,
                                 std::vector<uint8_t>& out) {
  Codecs& c = *codecs_;
  // The first record is raw; the chunk states its point count before the layer sizes.
  appendU32(out, uint32_t(count));
  for (auto& layer : c.point14Layers) layer.start();
  c.rgbLayer.start();
  c.nirLayer.start();
  c.waveLayer.start();
  for (auto& layer : c.byteLayers) layer.start();
  c.point14->layersUnchanging = unchangingLayersOf(records, count, recordLength_);
  const uint32_t channel = c.point14->startChunk(records, false);
  for (size_t i = 1; i < vlr_.items.size(); ++i) {
    const uint8_t* first = records + c.offsets[i];
    switch (vlr_.items[i].type) {
      case ItemType::Rgb14:
      case ItemType::RgbNir14:
        c.rgb14->startChunk(first, channel, false);
        break;
      case ItemType::WavePacket14:
        c.wave14->startChunk(first, channel, false);
        break;
      case ItemType::Byte14:
        c.byte14->startChunk(first, channel, false);
        break;
      default:
        break;
    }
  }
  for (uint64_t p = 1; p < count; ++p) {
    const uint8_t* record = records + p * recordLength_;
    const uint32_t pointChannel = c.point14->encode(c.point14Layers, record);
    for (size_t i = 1; i < vlr_.items.size(); ++i) {
      const uint8_t* item = record + c.offsets[i];
      switch (vlr_.items[i].type) {
        case ItemType::Rgb14:
        case ItemType::RgbNir14:
          c.rgb14->encode(c.rgbLayer, c.nirLayer, item, pointChannel);
          break;
        case ItemType::WavePacket14:
          c.wave14->encode(c.waveLayer, item, pointChannel);
          break;
        case ItemType::Byte14:
          c.byte14->encode(c.byteLayers.data(), item, pointChannel);
          break;
        default:
          break;
      }
    }
  }
  // Layers nobody changed are left out (size 0); the returns/XY and z layers always go in.
  std::vector<std::span<const uint8_t>> layers;
  auto add = [&](ArithmeticEncoder& encoder, bool used) {
    encoder.finish();
    layers.push_back(used ? encoder.bytes() : std::span<const uint8_t>());
  };
  for (uint32_t l = 0; l < kPoint14LayerCount; ++l) {
    add(c.point14Layers[l], (c.point14->layersActive & (1u << l)) != 0);
  }
  for (size_t i = 1; i < vlr_.items.size(); ++i) {
    switch (vlr_.items[i].type) {
      case ItemType::Rgb14:
        add(c.rgbLayer, c.rgb14->rgbActive);
        break;
      case ItemType::RgbNir14:
        add(c.rgbLayer, c.rgb14->rgbActive);
        add(c.nirLayer, c.rgb14->nirActive);
        break;
      case ItemType::WavePacket14:
        add(c.waveLayer, c.wave14->active);
        break;
      case ItemType::Byte14:
        for (uint32_t b = 0; b < c.byte14->byteCount(); ++b) {
          add(c.byteLayers[b], c.byte14->active[b]);
        }
        break;
      default:
        break;
    }
  }
  for (const auto layer : layers) appendU32(out, uint32_t(layer.size()));
  for (const auto layer : layers) append(out, layer);
}

}  // namespace pcv::laz
