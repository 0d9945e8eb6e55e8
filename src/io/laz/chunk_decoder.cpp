#include "chunk_decoder.hpp"

#include <algorithm>
#include <cstring>

#include "arithmetic_decoder.hpp"
#include "byte_codec.hpp"
#include "gps_time_codec.hpp"
#include "layered_items.hpp"
#include "point10_codec.hpp"
#include "point14_codec.hpp"
#include "rgb_codec.hpp"
#include "wave_packet_codec.hpp"

namespace pcv::laz {
namespace {

/// Default-initialised: the model arrays are only touched as the chunks use them.
template <typename T>
std::unique_ptr<T> allocateState() {
  return std::unique_ptr<T>(new T);
}

const char* kPoint14LayerNames[kPoint14LayerCount] = {
    "returns/XY", "z",         "classification", "flags",   "intensity",
    "scan angle", "user data", "point source",   "GPS time"};

/// Items the per-point loop does not inline (rare versions, extra bytes, wave packets) decode
/// out of line on a copy of the stream, so that the loop's own copy stays in registers.
template <typename Codec>
__attribute__((noinline)) ArithmeticDecoder decodeApart(Codec& codec, ArithmeticDecoder stream,
                                                        uint8_t* item) {
  codec.decode(stream, item);
  return stream;
}

std::string describeFault(const ArithmeticDecoder& decoder, const std::string& stream) {
  if (decoder.fault == StreamFault::Overrun) {
    return "the " + stream +
           " data ends before the chunk's points are decoded (truncated, or more points declared "
           "than stored?)";
  }
  return "the " + stream + " data is corrupt (it decodes to a state no encoder writes)";
}

}  // namespace

uint32_t layerCount(const Item& item) {
  switch (item.type) {
    case ItemType::Point14:
      return kPoint14LayerCount;
    case ItemType::RgbNir14:
      return 2;
    case ItemType::Byte14:
      return item.size;
    default:
      return 1;
  }
}

LayeredChunkShape readLayeredChunkShape(const LaszipVlr& vlr, const uint8_t* bytes, uint64_t size) {
  const uint32_t recordLength = vlr.recordLength();
  LayeredChunkShape shape;
  uint32_t layers = 0;
  for (const Item& item : vlr.items) layers += layerCount(item);
  const uint64_t headerBytes = uint64_t(recordLength) + 4 + 4 * uint64_t(layers);
  if (size < headerBytes) {
    throw LazError(size, "layered chunk ends at its byte " + std::to_string(size) +
                             ", inside its first point and layer sizes (" +
                             std::to_string(headerBytes) + " bytes)");
  }
  shape.statedPointCount = loadLe<uint32_t>(bytes + recordLength);
  shape.layerBytes.resize(layers);
  uint64_t total = headerBytes;
  for (uint32_t i = 0; i < layers; ++i) {
    shape.layerBytes[i] = loadLe<uint32_t>(bytes + recordLength + 4 + 4 * i);
    total += shape.layerBytes[i];
  }
  if (total > size) {
    throw LazError(recordLength + 4, "layered chunk's layer sizes add up to " +
                                         std::to_string(total) + " bytes, but only " +
                                         std::to_string(size) + " are there (truncated?)");
  }
  shape.layersStart = headerBytes;
  shape.totalBytes = total;
  return shape;
}

struct ChunkDecoder::Codecs {
  enum class Kind : uint8_t {
    Point10V1,
    Point10V2,
    GpsTime11V1,
    GpsTime11V2,
    Rgb12V1,
    Rgb12V2,
    ByteV1,
    ByteV2,
    WavePacket13,
    Point14,
    Rgb14,
    WavePacket14,
    Byte14
  };
  struct Slot {
    Kind kind;
    uint32_t offset;  ///< in the record
  };
  std::vector<Slot> slots;
  ArithmeticDecoder stream;  ///< pointwise chunks: the one stream after the first point
  std::unique_ptr<Point10V1Codec> point10v1;
  std::unique_ptr<Point10V2Codec> point10v2;
  std::unique_ptr<GpsTime11V1Codec> gps11v1;
  std::unique_ptr<GpsTime11V2Codec> gps11v2;
  std::unique_ptr<Rgb12V1Codec> rgb12v1;
  std::unique_ptr<Rgb12V2Codec> rgb12v2;
  std::unique_ptr<ByteV1Codec> byteV1;
  std::unique_ptr<ByteV2Codec> byteV2;
  std::unique_ptr<WavePacket13Codec> wave13;
  std::unique_ptr<Point14Codec> point14;
  std::unique_ptr<Rgb14Codec> rgb14;
  std::unique_ptr<WavePacket14Codec> wave14;
  std::unique_ptr<Byte14Codec> byte14;
  /// Layered chunks: where each layer of the current chunk starts (for fault offsets).
  std::vector<uint64_t> layerStart;
  /// Layered chunks: the packed returns/XY step of each point of the run being decoded.
  std::vector<uint32_t> steps;
};

ChunkDecoder::ChunkDecoder(const LaszipVlr& vlr, const FieldSelection& fields)
    : vlr_(vlr),
      fields_(fields),
      recordLength_(vlr.recordLength()),
      layered_(vlr.compressor == Compressor::Layered),
      codecs_(std::make_unique<Codecs>()) {
  Codecs& c = *codecs_;
  uint32_t offset = 0;
  using Kind = Codecs::Kind;
  for (const Item& item : vlr.items) {
    Kind kind = Kind::Point10V2;
    switch (item.type) {
      case ItemType::Point10:
        if (item.version == 1) {
          kind = Kind::Point10V1;
          c.point10v1 = allocateState<Point10V1Codec>();
        } else {
          kind = Kind::Point10V2;
          c.point10v2 = allocateState<Point10V2Codec>();
        }
        break;
      case ItemType::GpsTime11:
        if (item.version == 1) {
          kind = Kind::GpsTime11V1;
          c.gps11v1 = allocateState<GpsTime11V1Codec>();
        } else {
          kind = Kind::GpsTime11V2;
          c.gps11v2 = allocateState<GpsTime11V2Codec>();
        }
        break;
      case ItemType::Rgb12:
        if (item.version == 1) {
          kind = Kind::Rgb12V1;
          c.rgb12v1 = allocateState<Rgb12V1Codec>();
        } else {
          kind = Kind::Rgb12V2;
          c.rgb12v2 = allocateState<Rgb12V2Codec>();
        }
        break;
      case ItemType::Byte:
        if (item.version == 1) {
          kind = Kind::ByteV1;
          c.byteV1 = std::make_unique<ByteV1Codec>(item.size);
        } else {
          kind = Kind::ByteV2;
          c.byteV2 = std::make_unique<ByteV2Codec>(item.size);
        }
        break;
      case ItemType::WavePacket13:
        kind = Kind::WavePacket13;
        c.wave13 = allocateState<WavePacket13Codec>();
        break;
      case ItemType::Point14:
        kind = Kind::Point14;
        c.point14 = allocateState<Point14Codec>();
        c.point14->version = item.version == 4 ? 4 : 3;
        c.point14->layersWanted = (1u << kReturnsXYLayer) | (uint32_t(fields.z) << kZLayer) |
                                  (uint32_t(fields.classification) << kClassificationLayer) |
                                  (uint32_t(fields.flags) << kFlagsLayer) |
                                  (uint32_t(fields.intensity) << kIntensityLayer) |
                                  (uint32_t(fields.scanAngle) << kScanAngleLayer) |
                                  (uint32_t(fields.userData) << kUserDataLayer) |
                                  (uint32_t(fields.pointSource) << kPointSourceLayer) |
                                  (uint32_t(fields.gpsTime) << kGpsTimeLayer);
        break;
      case ItemType::Rgb14:
      case ItemType::RgbNir14:
        kind = Kind::Rgb14;
        c.rgb14 = allocateState<Rgb14Codec>();
        c.rgb14->version = item.version == 4 ? 4 : 3;
        c.rgb14->hasNir = item.type == ItemType::RgbNir14;
        c.rgb14->wantRgb = fields.rgb;
        c.rgb14->wantNir = fields.nir;
        break;
      case ItemType::WavePacket14:
        kind = Kind::WavePacket14;
        c.wave14 = allocateState<WavePacket14Codec>();
        c.wave14->version = item.version == 4 ? 4 : 3;
        c.wave14->wanted = fields.wavePacket;
        break;
      case ItemType::Byte14:
        kind = Kind::Byte14;
        c.byte14 = std::make_unique<Byte14Codec>(item.size);
        c.byte14->version = item.version == 4 ? 4 : 3;
        c.byte14->wanted.assign(item.size, fields.extraBytes);
        break;
    }
    c.slots.push_back({kind, offset});
    offset += item.size;
  }
}

ChunkDecoder::~ChunkDecoder() = default;

void ChunkDecoder::start(const uint8_t* bytes, uint64_t size, uint64_t pointCount) {
  chunk_ = bytes;
  chunkSize_ = size;
  remaining_ = pointCount;
  firstPending_ = pointCount > 0;
  if (size < recordLength_) {
    throw LazError(size, "chunk ends at its byte " + std::to_string(size) +
                             ", inside its first point (" + std::to_string(recordLength_) +
                             " bytes)");
  }
  if (layered_) {
    startLayered(bytes, size, pointCount);
  } else {
    startPointwise(bytes, size);
  }
}

void ChunkDecoder::startPointwise(const uint8_t* bytes, uint64_t size) {
  Codecs& c = *codecs_;
  using Kind = Codecs::Kind;
  for (const Codecs::Slot& slot : c.slots) {
    const uint8_t* first = bytes + slot.offset;
    switch (slot.kind) {
      case Kind::Point10V1:
        c.point10v1->startChunk(first);
        break;
      case Kind::Point10V2:
        c.point10v2->startChunk(first, true);
        break;
      case Kind::GpsTime11V1:
        c.gps11v1->startChunk(first);
        break;
      case Kind::GpsTime11V2:
        c.gps11v2->startChunk(first, true);
        break;
      case Kind::Rgb12V1:
        c.rgb12v1->startChunk(first);
        break;
      case Kind::Rgb12V2:
        c.rgb12v2->startChunk(first, true);
        break;
      case Kind::ByteV1:
        c.byteV1->startChunk(first);
        break;
      case Kind::ByteV2:
        c.byteV2->startChunk(first, true);
        break;
      case Kind::WavePacket13:
        c.wave13->startChunk(first, true);
        break;
      default:
        break;
    }
  }
  c.stream.start(bytes + recordLength_, size - recordLength_);
}

void ChunkDecoder::startLayered(const uint8_t* bytes, uint64_t size, uint64_t pointCount) {
  Codecs& c = *codecs_;
  using Kind = Codecs::Kind;
  const LayeredChunkShape shape = readLayeredChunkShape(vlr_, bytes, size);
  layeredBytes_ = shape.totalBytes;
  statedPointCount_ = shape.statedPointCount;
  c.layerStart.resize(shape.layerBytes.size());
  uint64_t at = shape.layersStart;
  for (size_t i = 0; i < shape.layerBytes.size(); ++i) {
    c.layerStart[i] = at;
    at += shape.layerBytes[i];
  }
  uint32_t layer = 0;
  uint32_t channel = 0;
  const bool decodes = pointCount > 1;
  for (const Codecs::Slot& slot : c.slots) {
    const uint8_t* first = bytes + slot.offset;
    switch (slot.kind) {
      case Kind::Point14:
        channel = c.point14->startChunk(first, true);
        for (uint32_t l = 0; l < kPoint14LayerCount; ++l, ++layer) {
          if (decodes) {
            c.point14->startLayer(l, bytes + c.layerStart[layer], shape.layerBytes[layer]);
          } else {
            c.point14->layersActive = 0;
          }
        }
        break;
      case Kind::Rgb14: {
        c.rgb14->startChunk(first, channel, true);
        const uint32_t nirLayer = c.rgb14->hasNir ? layer + 1 : layer;
        if (decodes) {
          c.rgb14->startLayers(bytes + c.layerStart[layer], shape.layerBytes[layer],
                               bytes + c.layerStart[nirLayer],
                               c.rgb14->hasNir ? shape.layerBytes[nirLayer] : 0);
        }
        layer += c.rgb14->hasNir ? 2 : 1;
        break;
      }
      case Kind::WavePacket14:
        c.wave14->startChunk(first, channel, true);
        if (decodes) c.wave14->startLayer(bytes + c.layerStart[layer], shape.layerBytes[layer]);
        ++layer;
        break;
      case Kind::Byte14:
        c.byte14->startChunk(first, channel, true);
        for (uint32_t b = 0; b < c.byte14->byteCount(); ++b, ++layer) {
          if (decodes)
            c.byte14->startLayer(b, bytes + c.layerStart[layer], shape.layerBytes[layer]);
        }
        break;
      default:
        break;
    }
  }
}

void ChunkDecoder::decode(uint64_t count, uint8_t* records) {
  count = std::min(count, remaining_);
  remaining_ -= count;
  if (count == 0) return;
  if (firstPending_) {
    std::memcpy(records, chunk_, recordLength_);
    firstPending_ = false;
    records += recordLength_;
    --count;
  }
  if (layered_) {
    decodeLayered(count, records);
  } else {
    decodePointwise(count, records);
  }
}

void ChunkDecoder::decodePointwise(uint64_t count, uint8_t* records) {
  Codecs& c = *codecs_;
  // A local copy, whose address is never taken: the compiler keeps the decoder's state in
  // registers across the models' stores (see ArithmeticDecoder::renormalized).
  ArithmeticDecoder stream = c.stream;
  using Kind = Codecs::Kind;
  for (uint64_t i = 0; i < count; ++i, records += recordLength_) {
    for (const Codecs::Slot& slot : c.slots) {
      uint8_t* item = records + slot.offset;
      switch (slot.kind) {
        case Kind::Point10V2:
          c.point10v2->decode(stream, item);
          break;
        case Kind::GpsTime11V2:
          c.gps11v2->decode(stream, item);
          break;
        case Kind::Rgb12V2:
          c.rgb12v2->decode(stream, item);
          break;
        case Kind::ByteV2:
          stream = decodeApart(*c.byteV2, stream, item);
          break;
        case Kind::WavePacket13:
          stream = decodeApart(*c.wave13, stream, item);
          break;
        case Kind::Point10V1:
          stream = decodeApart(*c.point10v1, stream, item);
          break;
        case Kind::GpsTime11V1:
          stream = decodeApart(*c.gps11v1, stream, item);
          break;
        case Kind::Rgb12V1:
          stream = decodeApart(*c.rgb12v1, stream, item);
          break;
        default:
          break;
      }
    }
  }
  c.stream = stream;
}

void ChunkDecoder::decodeLayered(uint64_t count, uint8_t* records) {
  Codecs& c = *codecs_;
  // Layer after layer over the run (Point14Codec::decode), then the items after POINT14, each
  // over the run too, following the channel each point's step hands on.
  if (c.steps.size() < count) c.steps.resize(count);
  const uint32_t* steps = c.steps.data();
  c.point14->decode(count, records, recordLength_, c.steps.data());
  const auto channelOf = [steps](uint64_t i) {
    return Point14Step::unpack(steps[i]).othersChannel;
  };
  using Kind = Codecs::Kind;
  for (size_t s = 1; s < c.slots.size(); ++s) {
    uint8_t* items = records + c.slots[s].offset;
    switch (c.slots[s].kind) {
      case Kind::Rgb14:
        c.rgb14->decode(items, recordLength_, count, channelOf);
        break;
      case Kind::WavePacket14:
        for (uint64_t i = 0; i < count; ++i) c.wave14->decode(items + i * recordLength_, channelOf(i));
        break;
      case Kind::Byte14:
        for (uint64_t i = 0; i < count; ++i) c.byte14->decode(items + i * recordLength_, channelOf(i));
        break;
      default:
        break;
    }
  }
}

std::optional<ChunkFault> ChunkDecoder::fault() const {
  const Codecs& c = *codecs_;
  if (!layered_) {
    if (c.stream.failed()) {
      return ChunkFault{recordLength_ + c.stream.faultOffset,
                        describeFault(c.stream, "arithmetic-coded")};
    }
    if (c.gps11v2 && c.gps11v2->corrupt) {
      return ChunkFault{recordLength_ + c.stream.position,
                        "the GPS time data is corrupt (it switches time sequences without end)"};
    }
    return std::nullopt;
  }
  uint32_t layer = 0;
  for (const Codecs::Slot& slot : c.slots) {
    switch (slot.kind) {
      case Codecs::Kind::Point14:
        for (uint32_t l = 0; l < kPoint14LayerCount; ++l, ++layer) {
          const ArithmeticDecoder& d = c.point14->layers[l];
          if ((c.point14->layersActive & (1u << l)) && d.failed()) {
            return ChunkFault{c.layerStart[layer] + d.faultOffset,
                              describeFault(d, std::string(kPoint14LayerNames[l]) + " layer")};
          }
        }
        if (c.point14->corrupt) {
          return ChunkFault{
              c.layerStart[kGpsTimeLayer] + c.point14->layers[kGpsTimeLayer].position,
              "the GPS time layer is corrupt (it switches time sequences without end)"};
        }
        break;
      case Codecs::Kind::Rgb14:
        if (c.rgb14->rgbActive && c.rgb14->rgbLayer.failed()) {
          return ChunkFault{c.layerStart[layer] + c.rgb14->rgbLayer.faultOffset,
                            describeFault(c.rgb14->rgbLayer, "RGB layer")};
        }
        if (c.rgb14->nirActive && c.rgb14->nirLayer.failed()) {
          return ChunkFault{c.layerStart[layer + 1] + c.rgb14->nirLayer.faultOffset,
                            describeFault(c.rgb14->nirLayer, "NIR layer")};
        }
        layer += c.rgb14->hasNir ? 2 : 1;
        break;
      case Codecs::Kind::WavePacket14:
        if (c.wave14->active && c.wave14->layer.failed()) {
          return ChunkFault{c.layerStart[layer] + c.wave14->layer.faultOffset,
                            describeFault(c.wave14->layer, "wave packet layer")};
        }
        ++layer;
        break;
      case Codecs::Kind::Byte14:
        for (uint32_t b = 0; b < c.byte14->byteCount(); ++b, ++layer) {
          const ArithmeticDecoder& d = c.byte14->layers[b];
          if (c.byte14->active[b] && d.failed()) {
            return ChunkFault{c.layerStart[layer] + d.faultOffset,
                              describeFault(d, "extra byte " + std::to_string(b) + " layer")};
          }
        }
        break;
      default:
        break;
    }
  }
  return std::nullopt;
}

uint64_t ChunkDecoder::bytesUsed() const {
  if (layered_) return layeredBytes_;
  return recordLength_ + codecs_->stream.position;
}

}  // namespace pcv::laz
