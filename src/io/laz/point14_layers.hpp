/// @brief The eight layers of a POINT14 item after returns/XY (z, classification, flags,
/// intensity, scan angle, user data, point source, GPS time), one struct each: its models for one
/// scanner channel, how a channel's models start, and how the layer decodes and encodes a point
/// from the returns/XY step and its own fields of the channel's last point. A layer reads no
/// other layer's fields, so a decoder runs each apart from the others (Point14LayerCursor): the
/// CPU decoder layer after layer over each run of points, the GPU decoder each as a thread of its
/// own over a whole chunk; the encoder codes them one after the other per point.
#pragma once

#include <cstdint>

#include "arithmetic_decoder.hpp"
#include "arithmetic_encoder.hpp"
#include "entropy_models.hpp"
#include "gps_time_codec.hpp"
#include "integer_coder.hpp"
#include "point14_fields.hpp"

namespace pcv::laz {

// Each layer: start(from, decoding) starts a channel's models from the point it starts from;
// decode(decoder, step, last, corrupt) updates the layer's fields of `last`; store(last, step,
// item) writes them into a record (and only them); encode(encoder, step, point, last) codes
// `point` after `last`.

struct Point14ZLayer {
  IntegerCoder<20> coder;
  int32_t lastByLevel[8];  ///< by return level

  PCV_HOST_DEVICE void start(const Point14Fields& from, bool decoding) {
    coder.reset(32, decoding);
    for (auto& z : lastByLevel) z = from.z;
  }
  PCV_HOST_DEVICE void decode(ArithmeticDecoder& d, const Point14Step& s, Point14Fields& last,
                              bool&) {
    last.z = coder.decode(d, lastByLevel[s.level], s.zContext);
    lastByLevel[s.level] = last.z;
  }
  PCV_HOST_DEVICE static void store(const Point14Fields& last, const Point14Step&, uint8_t* item) {
    storeLe(item + 8, last.z);
  }
  void encode(ArithmeticEncoder& e, const Point14Step& s, const Point14Fields& point,
              const Point14Fields&) {
    coder.encode(e, lastByLevel[s.level], point.z, s.zContext);
    lastByLevel[s.level] = point.z;
  }
};

struct Point14ClassificationLayer {
  KeyedSymbolModels<64, 256> byLast;  ///< by the last class (5 bits) and single return

  PCV_HOST_DEVICE void start(const Point14Fields&, bool) { byLast.startChunk(); }
  PCV_HOST_DEVICE static uint32_t keyOf(const Point14Fields& last, const Point14Step& s) {
    return ((last.classification & 0x1Fu) << 1) + (s.kind == 3 ? 1u : 0u);
  }
  PCV_HOST_DEVICE void decode(ArithmeticDecoder& d, const Point14Step& s, Point14Fields& last,
                              bool&) {
    last.classification = uint8_t(d.decodeSymbol(byLast.at(keyOf(last, s), true)));
  }
  PCV_HOST_DEVICE static void store(const Point14Fields& last, const Point14Step&, uint8_t* item) {
    item[16] = last.classification;
  }
  void encode(ArithmeticEncoder& e, const Point14Step& s, const Point14Fields& point,
              const Point14Fields& last) {
    e.encodeSymbol(byLast.at(keyOf(last, s), false), point.classification);
  }
};

struct Point14FlagsLayer {
  KeyedSymbolModels<64, 64> byLast;  ///< by the last flags

  PCV_HOST_DEVICE void start(const Point14Fields&, bool) { byLast.startChunk(); }
  PCV_HOST_DEVICE void decode(ArithmeticDecoder& d, const Point14Step&, Point14Fields& last,
                              bool&) {
    last.setFlags(d.decodeSymbol(byLast.at(last.flags(), true)));
  }
  /// Byte 15 holds the channel too: the step's (a point's channel is the one coding it).
  PCV_HOST_DEVICE static void store(const Point14Fields& last, const Point14Step& s,
                                    uint8_t* item) {
    item[15] = last.flagsByte(s.channel);
  }
  void encode(ArithmeticEncoder& e, const Point14Step&, const Point14Fields& point,
              const Point14Fields& last) {
    e.encodeSymbol(byLast.at(last.flags(), false), point.flags());
  }
};

struct Point14IntensityLayer {
  IntegerCoder<4> coder;       ///< context: return kind
  uint16_t lastBySlot[8];      ///< by return kind and GPS change

  PCV_HOST_DEVICE void start(const Point14Fields& from, bool decoding) {
    coder.reset(16, decoding);
    for (auto& intensity : lastBySlot) intensity = from.intensity;
  }
  PCV_HOST_DEVICE static uint32_t slotOf(const Point14Step& s) {
    return (s.kind << 1) | uint32_t(s.gpsChanged);
  }
  PCV_HOST_DEVICE void decode(ArithmeticDecoder& d, const Point14Step& s, Point14Fields& last,
                              bool&) {
    const uint32_t slot = slotOf(s);
    last.intensity = uint16_t(coder.decode(d, lastBySlot[slot], s.kind));
    lastBySlot[slot] = last.intensity;
  }
  PCV_HOST_DEVICE static void store(const Point14Fields& last, const Point14Step&, uint8_t* item) {
    storeLe(item + 12, last.intensity);
  }
  void encode(ArithmeticEncoder& e, const Point14Step& s, const Point14Fields& point,
              const Point14Fields&) {
    const uint32_t slot = slotOf(s);
    coder.encode(e, lastBySlot[slot], point.intensity, s.kind);
    lastBySlot[slot] = point.intensity;
  }
};

/// Coded only for points whose change symbol says the scan angle changed.
struct Point14ScanAngleLayer {
  IntegerCoder<2> coder;  ///< context: GPS change

  PCV_HOST_DEVICE void start(const Point14Fields&, bool decoding) { coder.reset(16, decoding); }
  PCV_HOST_DEVICE void decode(ArithmeticDecoder& d, const Point14Step& s, Point14Fields& last,
                              bool&) {
    if (s.changed & kScanAngleChanged) {
      last.scanAngle = int16_t(coder.decode(d, last.scanAngle, s.gpsChanged));
    }
  }
  PCV_HOST_DEVICE static void store(const Point14Fields& last, const Point14Step&, uint8_t* item) {
    storeLe(item + 18, last.scanAngle);
  }
  void encode(ArithmeticEncoder& e, const Point14Step& s, const Point14Fields& point,
              const Point14Fields& last) {
    if (s.changed & kScanAngleChanged) {
      coder.encode(e, last.scanAngle, point.scanAngle, s.gpsChanged);
    }
  }
};

struct Point14UserDataLayer {
  KeyedSymbolModels<64, 256> byLast;  ///< by the last user data / 4

  PCV_HOST_DEVICE void start(const Point14Fields&, bool) { byLast.startChunk(); }
  PCV_HOST_DEVICE void decode(ArithmeticDecoder& d, const Point14Step&, Point14Fields& last,
                              bool&) {
    last.userData = uint8_t(d.decodeSymbol(byLast.at(last.userData / 4u, true)));
  }
  PCV_HOST_DEVICE static void store(const Point14Fields& last, const Point14Step&, uint8_t* item) {
    item[17] = last.userData;
  }
  void encode(ArithmeticEncoder& e, const Point14Step&, const Point14Fields& point,
              const Point14Fields& last) {
    e.encodeSymbol(byLast.at(last.userData / 4u, false), point.userData);
  }
};

/// Coded only for points whose change symbol says the point source changed.
struct Point14PointSourceLayer {
  IntegerCoder<1> coder;

  PCV_HOST_DEVICE void start(const Point14Fields&, bool decoding) { coder.reset(16, decoding); }
  PCV_HOST_DEVICE void decode(ArithmeticDecoder& d, const Point14Step& s, Point14Fields& last,
                              bool&) {
    if (s.changed & kPointSourceChanged) {
      last.pointSourceId = uint16_t(coder.decode(d, last.pointSourceId));
    }
  }
  PCV_HOST_DEVICE static void store(const Point14Fields& last, const Point14Step&, uint8_t* item) {
    storeLe(item + 20, last.pointSourceId);
  }
  void encode(ArithmeticEncoder& e, const Point14Step& s, const Point14Fields& point,
              const Point14Fields& last) {
    if (s.changed & kPointSourceChanged) coder.encode(e, last.pointSourceId, point.pointSourceId);
  }
};

/// Coded only for points whose change symbol says the GPS time changed; `corrupt` is set when
/// the time sequences switch without end.
struct Point14GpsTimeLayer {
  GpsTimeSequences gps;

  PCV_HOST_DEVICE void start(const Point14Fields& from, bool decoding) {
    gps.startChunk(from.gpsTime, false, decoding);
  }
  PCV_HOST_DEVICE PCV_FORCE_INLINE void decode(ArithmeticDecoder& d, const Point14Step& s,
                                                Point14Fields& last, bool& corrupt) {
    if (s.gpsChanged) last.gpsTime = gps.decode(d, corrupt);
  }
  PCV_HOST_DEVICE static void store(const Point14Fields& last, const Point14Step&, uint8_t* item) {
    storeLe(item + 22, last.gpsTime);
  }
  void encode(ArithmeticEncoder& e, const Point14Step& s, const Point14Fields& point,
              const Point14Fields&) {
    if (s.gpsChanged) gps.encode(e, point.gpsTime);
  }
};

/// One of the eight layers decoded apart from the others (layer after layer, not point after
/// point) from the steps the returns/XY layer left, packed (Point14Step::packed), one per point:
/// the CPU decoder runs it over each piece of a chunk, a GPU thread over a whole chunk. Between
/// runs it keeps where it is: the current channel's last point (only this layer's fields are
/// meaningful) and those of the channels switched away from.
struct Point14LayerCursor {
  Point14Fields last;
  Point14Fields parked[4];
  uint32_t current;

  /// At a chunk's first point, whose channel's models the caller has started.
  PCV_HOST_DEVICE void start(const Point14Fields& first) {
    last = first;
    current = first.scannerChannel;
  }

  /// Decodes `count` points with `steps` into the records at `records` (`length` bytes apart)
  /// through `Layer`'s models of each channel: `modelsOf(channel, starts)` gives them, `starts`
  /// when the channel is new in the chunk (the cursor then starts them from the point of the
  /// channel switched from), or nullptr when there are none (the run stops, false). True
  /// otherwise; faults stay in the decoder and `corrupt`.
  template <typename Layer, typename ModelsOf>
  PCV_HOST_DEVICE bool decode(ArithmeticDecoder& d, const uint32_t* steps, uint64_t count,
                              uint8_t* records, uint32_t length, ModelsOf&& modelsOf,
                              bool& corrupt) {
    Layer* model = modelsOf(current, false);
    for (uint64_t i = 0; i < count; ++i) {
      const Point14Step s = Point14Step::unpack(steps[i]);
      if (s.channel != current) {
        parked[current] = last;
        if (!s.startsChannel) last = parked[s.channel];
        model = modelsOf(s.channel, s.startsChannel);
        if (model == nullptr) return false;
        if (s.startsChannel) model->start(last, true);
        current = s.channel;
      }
      model->decode(d, s, last, corrupt);
      Layer::store(last, s, records + i * length);
    }
    return true;
  }
};

/// One scanner channel's models of all eight layers.
struct Point14FieldLayers {
  Point14ZLayer z;
  Point14ClassificationLayer classification;
  Point14FlagsLayer flags;
  Point14IntensityLayer intensity;
  Point14ScanAngleLayer scanAngle;
  Point14UserDataLayer userData;
  Point14PointSourceLayer pointSource;
  Point14GpsTimeLayer gpsTime;
};

}  // namespace pcv::laz
