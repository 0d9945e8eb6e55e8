/// @brief The POINT14 item of layered chunks (point formats 6-10). Each point first codes, in
/// the returns/XY layer, one symbol saying whether the scanner channel, point source, GPS time,
/// scan angle, number of returns and return number changed; every other field lives in a layer of
/// its own (z, classification, flags, intensity, scan angle, user data, point source, GPS time),
/// which a reader may skip. All predictions are per scanner channel (four contexts).
///
/// Version 3 and 4 differ only in how other items learn the channel: version 3 passes it on only
/// for points that switch channel (other items fall back to channel 0 otherwise), version 4 on
/// every point. Both are reproduced exactly.
///
/// The layers themselves are point14_returns_xy.hpp and point14_layers.hpp; this codec decodes
/// them layer after layer over a run of points (the GPU decoder does so over whole chunks) and
/// encodes them one after the other per point.
#pragma once

#include <cstdint>
#include <type_traits>

#include "arithmetic_decoder.hpp"
#include "arithmetic_encoder.hpp"
#include "point14_fields.hpp"
#include "point14_layers.hpp"
#include "point14_returns_xy.hpp"

namespace pcv::laz {

/// The classification, flags, intensity and user data layers whose field holds the first
/// record's value in every one of `count` records. An encoder activates a layer only when its
/// field differs from a channel's last point, which here it never does, so the layer is left out
/// of the chunk whatever was coded into it: not coding it writes the same chunk, faster (constant
/// user data, flags and classes are common, and every point codes one symbol for each).
inline uint32_t unchangingLayersOf(const uint8_t* records, uint64_t count, uint32_t recordLength) {
  // Bytes 12-13 intensity; 15: class flags (bits 0-3), channel (4-5, not a flag), scan
  // direction and edge (6, 7); 16 classification; 17 user data.
  constexpr uint8_t kFlagBits = 0xCF;
  bool intensity = true, flags = true, classification = true, userData = true;
  for (uint64_t i = 1; i < count; ++i) {
    const uint8_t* r = records + i * recordLength;
    intensity &= r[12] == records[12] && r[13] == records[13];
    flags &= ((r[15] ^ records[15]) & kFlagBits) == 0;
    classification &= r[16] == records[16];
    userData &= r[17] == records[17];
  }
  return (uint32_t(intensity) << kIntensityLayer) | (uint32_t(flags) << kFlagsLayer) |
         (uint32_t(classification) << kClassificationLayer) |
         (uint32_t(userData) << kUserDataLayer);
}

struct Point14Codec {
  uint32_t version;  ///< 3 or 4
  bool decoding;
  /// Layers a decoder reads (bit per Point14Layer); the returns/XY layer always.
  uint32_t layersWanted;
  /// Layers with data in this chunk that are wanted (decoding) or that changed (encoding).
  uint32_t layersActive;
  bool corrupt;  ///< the GPS layer switched sequences without end
  /// Encoding: layers whose field keeps the first record's value all through the chunk (see
  /// unchangingLayersOf), not coded.
  uint32_t layersUnchanging = 0;
  Point14ReturnsXY returnsXY;
  Point14FieldLayers fields[4];  ///< by scanner channel
  ArithmeticDecoder layers[kPoint14LayerCount];

  /// Starts a chunk at its first (raw) record; a decoder then starts its layers. Returns the
  /// channel other items start from.
  PCV_HOST_DEVICE uint32_t startChunk(const uint8_t* firstItem, bool forDecoding) {
    decoding = forDecoding;
    corrupt = false;
    // An encoder always writes the returns/XY and z layers, the others once a value changes.
    layersActive = decoding ? 0u : (1u << kReturnsXYLayer) | (1u << kZLayer);
    Point14Fields first;
    first.load(firstItem);
    returnsXY.version = version;
    returnsXY.startChunk(first, decoding);
    startFields(fields[first.scannerChannel], first);
    for (auto& cursor : cursors) cursor.start(first);
    return first.scannerChannel;
  }

  /// Points a decoder's layer at its bytes; empty or unwanted layers stay inactive, except the
  /// returns/XY layer, which every point after the first needs (an empty one is an overrun).
  PCV_HOST_DEVICE void startLayer(uint32_t layer, const uint8_t* bytes, uint32_t size) {
    const uint32_t bit = 1u << layer;
    if (layer == kReturnsXYLayer || ((layersWanted & bit) && size > 0)) {
      layersActive |= bit;
      layers[layer].start(bytes, size);
    } else {
      layersActive &= ~bit;
    }
  }

  /// Decodes the next `count` records into `records` (`length` bytes apart, POINT14 first in
  /// each), layer after layer: the returns/XY layer writes every record's POINT14 bytes and
  /// each point's step into `steps` (`count` of them), then every active layer writes its own
  /// field through its cursor. Each layer's decoder is a local for its whole run, so its state
  /// stays in registers, and one layer's models at a time are in the cache. The items after
  /// POINT14 follow each step's othersChannel (see the file comment).
  void decode(uint64_t count, uint8_t* records, uint32_t length, uint32_t* steps) {
    ArithmeticDecoder xy = layers[kReturnsXYLayer];
    for (uint64_t i = 0; i < count; ++i) {
      const Point14Step s = returnsXY.decode(xy);
      returnsXY.contexts[s.channel].last.store(records + i * length);
      steps[i] = s.packed();
    }
    layers[kReturnsXYLayer] = xy;
    decodeLayer<&Point14FieldLayers::z>(kZLayer, count, records, length, steps);
    decodeLayer<&Point14FieldLayers::classification>(kClassificationLayer, count, records, length,
                                                     steps);
    decodeLayer<&Point14FieldLayers::flags>(kFlagsLayer, count, records, length, steps);
    decodeLayer<&Point14FieldLayers::intensity>(kIntensityLayer, count, records, length, steps);
    decodeLayer<&Point14FieldLayers::scanAngle>(kScanAngleLayer, count, records, length, steps);
    decodeLayer<&Point14FieldLayers::userData>(kUserDataLayer, count, records, length, steps);
    decodeLayer<&Point14FieldLayers::pointSource>(kPointSourceLayer, count, records, length,
                                                  steps);
    decodeLayer<&Point14FieldLayers::gpsTime>(kGpsTimeLayer, count, records, length, steps);
  }

  /// Encodes the next record into `out` (one encoder per layer); returns the channel other items
  /// use, by the same rule as decode().
  uint32_t encode(ArithmeticEncoder* out, const uint8_t* item) {
    Point14Fields point;
    point.load(item);
    const Point14Step s = returnsXY.encode(out[kReturnsXYLayer], point);
    Point14Fields& last = returnsXY.contexts[s.channel].last;
    Point14FieldLayers& f = fields[s.channel];
    if (s.startsChannel) startFields(f, last);
    encodeLayers(out, f, s, point, last);
    point.gpsTimeChanged = s.gpsChanged;
    point.scannerChannel = uint8_t(s.channel);
    last = point;
    return s.othersChannel;
  }

 private:
  Point14LayerCursor cursors[kPoint14LayerCount];  ///< decoding: each field layer's place

  /// One field layer's run over `count` points (decode), when it is active; its models are
  /// `fields[channel].*kModels`.
  template <auto kModels>
  void decodeLayer(uint32_t layer, uint64_t count, uint8_t* records, uint32_t length,
                   const uint32_t* steps) {
    if (!(layersActive & (1u << layer))) return;
    using Layer = std::remove_reference_t<decltype(fields[0].*kModels)>;
    ArithmeticDecoder d = layers[layer];  // a local: see the comment of decode()
    cursors[layer].decode<Layer>(
        d, steps, count, records, length,
        [&](uint32_t channel, bool) { return &(fields[channel].*kModels); }, corrupt);
    layers[layer] = d;
  }

  /// Starts a channel's layer models from `from` (the first record, or the last point of the
  /// channel it switched from); a decoder only the layers it reads.
  PCV_HOST_DEVICE void startFields(Point14FieldLayers& f, const Point14Fields& from) {
    const auto starts = [&](Point14Layer layer) {
      return !decoding || (layersWanted & (1u << layer)) != 0;
    };
    if (starts(kZLayer)) f.z.start(from, decoding);
    if (starts(kClassificationLayer)) f.classification.start(from, decoding);
    if (starts(kFlagsLayer)) f.flags.start(from, decoding);
    if (starts(kIntensityLayer)) f.intensity.start(from, decoding);
    if (starts(kScanAngleLayer)) f.scanAngle.start(from, decoding);
    if (starts(kUserDataLayer)) f.userData.start(from, decoding);
    if (starts(kPointSourceLayer)) f.pointSource.start(from, decoding);
    if (starts(kGpsTimeLayer)) f.gpsTime.start(from, decoding);
  }

  /// Every layer is coded but the unchanging ones; a layer whose values never changed in the
  /// chunk is left out of it.
  void encodeLayers(ArithmeticEncoder* out, Point14FieldLayers& f, const Point14Step& s,
                    const Point14Fields& point, const Point14Fields& last) {
    f.z.encode(out[kZLayer], s, point, last);
    const auto coded = [&](Point14Layer layer) { return !(layersUnchanging & (1u << layer)); };
    if (coded(kClassificationLayer)) {
      if (point.classification != last.classification) layersActive |= 1u << kClassificationLayer;
      f.classification.encode(out[kClassificationLayer], s, point, last);
    }
    if (coded(kFlagsLayer)) {
      if (point.flags() != last.flags()) layersActive |= 1u << kFlagsLayer;
      f.flags.encode(out[kFlagsLayer], s, point, last);
    }
    if (coded(kIntensityLayer)) {
      if (point.intensity != last.intensity) layersActive |= 1u << kIntensityLayer;
      f.intensity.encode(out[kIntensityLayer], s, point, last);
    }
    if (s.changed & kScanAngleChanged) layersActive |= 1u << kScanAngleLayer;
    f.scanAngle.encode(out[kScanAngleLayer], s, point, last);
    if (coded(kUserDataLayer)) {
      if (point.userData != last.userData) layersActive |= 1u << kUserDataLayer;
      f.userData.encode(out[kUserDataLayer], s, point, last);
    }
    if (s.changed & kPointSourceChanged) layersActive |= 1u << kPointSourceLayer;
    f.pointSource.encode(out[kPointSourceLayer], s, point, last);
    if (s.gpsChanged) layersActive |= 1u << kGpsTimeLayer;
    f.gpsTime.encode(out[kGpsTimeLayer], s, point, last);
  }
};

}  // namespace pcv::laz
