/// @brief The returns/XY layer of a POINT14 item, the one layer every point needs: per point one
/// symbol saying whether the scanner channel, point source, GPS time, scan angle, number of
/// returns and return number changed, then the channel, the returns, and x and y as differences
/// predicted by medians. It reads nothing from the other layers, and hands them a Point14Step per
/// point. Four channel contexts, each started from the last point of the channel before it.
#pragma once

#include <cstdint>

#include "arithmetic_decoder.hpp"
#include "arithmetic_encoder.hpp"
#include "entropy_models.hpp"
#include "integer_coder.hpp"
#include "median_predictors.hpp"
#include "point10_codec.hpp"
#include "point14_fields.hpp"

namespace pcv::laz {

/// What one scanner channel's returns/XY layer predicts from.
struct Point14XYContext {
  bool unused;  ///< not yet seen in this chunk
  /// The channel's last point. The returns/XY layer keeps its own fields here; the CPU decoder
  /// keeps the other layers' fields here too, the GPU's first pass leaves them at the values of
  /// the point the channel started from.
  Point14Fields last;
  SymbolModel<128> changes[8];  ///< by the last point's return kind and GPS change
  SymbolModel<3> channelStep;
  KeyedSymbolModels<16, 16> returnCountByLast, returnNumberByLast;
  SymbolModel<13> returnNumberStep;  ///< return number +2..+14 when the GPS time is unchanged
  IntegerCoder<2> dxCoder;
  IntegerCoder<22> dyCoder;
  MedianOfFive xDiff[12], yDiff[12];  ///< by return map and GPS change

  PCV_HOST_DEVICE void start(const Point14Fields& from, bool decoding) {
    unused = false;
    last = from;
    last.gpsTimeChanged = false;
    for (auto& model : changes) model.reset(128, decoding);
    channelStep.reset(3, decoding);
    returnCountByLast.startChunk();
    returnNumberByLast.startChunk();
    returnNumberStep.reset(13, decoding);
    dxCoder.reset(32, decoding);
    dyCoder.reset(32, decoding);
    for (int i = 0; i < 12; ++i) {
      xDiff[i].reset();
      yDiff[i].reset();
    }
  }
};

struct Point14ReturnsXY {
  uint32_t version;  ///< 3 or 4: which channel the other items follow (Point14Step)
  bool decoding;
  uint32_t current;  ///< channel of the last point
  Point14XYContext contexts[4];

  PCV_HOST_DEVICE void startChunk(const Point14Fields& first, bool forDecoding) {
    decoding = forDecoding;
    for (auto& context : contexts) context.unused = true;
    current = first.scannerChannel;
    contexts[current].start(first, decoding);
  }

  /// Decodes the next point's returns, x and y into its channel's `last`.
  PCV_HOST_DEVICE PCV_FORCE_INLINE Point14Step decode(ArithmeticDecoder& xy) {
    const uint32_t lastKind = returnKindOf(contexts[current].last);
    const uint32_t changed = xy.decodeSymbol(contexts[current].changes[lastKind]);
    // Version 3 passes the channel on only for points that switch channel, version 4 always.
    uint32_t others = version >= 4 ? current : 0;
    bool starts = false;
    if (changed & kChannelChanged) {
      const uint32_t channel = (current + xy.decodeSymbol(contexts[current].channelStep) + 1) & 3;
      if (contexts[channel].unused) {
        contexts[channel].start(contexts[current].last, decoding);
        starts = true;
      }
      current = channel;
      others = channel;
      contexts[current].last.scannerChannel = uint8_t(channel);
    }
    Point14XYContext& context = contexts[current];
    Point14Fields& last = context.last;
    const bool gpsChanged = (changed & kGpsTimeChanged) != 0;
    decodeReturns(xy, context, changed, gpsChanged);
    Point14Step s = stepOf(changed, last, others, starts);
    const uint32_t slot = slotOf(s);
    const int32_t dx = context.dxCoder.decode(xy, context.xDiff[slot].median(), s.n == 1);
    last.x = int32_t(uint32_t(last.x) + uint32_t(dx));
    context.xDiff[slot].add(dx);
    const int32_t dy = context.dyCoder.decode(xy, context.yDiff[slot].median(), yContextOf(s));
    last.y = int32_t(uint32_t(last.y) + uint32_t(dy));
    context.yDiff[slot].add(dy);
    s.zContext = zContextOf(s);
    last.gpsTimeChanged = gpsChanged;
    return s;
  }

  /// Encodes `point`'s returns, x and y; its channel's `last` is left for the other layers
  /// (the caller replaces it by `point` afterwards).
  Point14Step encode(ArithmeticEncoder& xy, const Point14Fields& point) {
    const uint32_t lastKind = returnKindOf(contexts[current].last);
    const uint32_t channel = point.scannerChannel;
    // A switch compares with the channel's own last point, or starts it from the current one.
    const Point14Fields& compared = channel != current && !contexts[channel].unused
                                        ? contexts[channel].last
                                        : contexts[current].last;
    const uint32_t changed = changesOf(point, compared, channel != current);
    xy.encodeSymbol(contexts[current].changes[lastKind], changed);
    uint32_t others = version >= 4 ? current : 0;
    bool starts = false;
    if (changed & kChannelChanged) {
      xy.encodeSymbol(contexts[current].channelStep, ((channel - current) & 3) - 1);
      if (contexts[channel].unused) {
        contexts[channel].start(contexts[current].last, decoding);
        starts = true;
      }
      current = channel;
      others = channel;
    }
    Point14XYContext& context = contexts[current];
    const Point14Fields& last = context.last;
    const bool gpsChanged = (changed & kGpsTimeChanged) != 0;
    encodeReturns(xy, context, changed, point, gpsChanged);
    Point14Step s = stepOf(changed, point, others, starts);
    const uint32_t slot = slotOf(s);
    const int32_t dx = int32_t(uint32_t(point.x) - uint32_t(last.x));
    context.dxCoder.encode(xy, context.xDiff[slot].median(), dx, s.n == 1);
    context.xDiff[slot].add(dx);
    const int32_t dy = int32_t(uint32_t(point.y) - uint32_t(last.y));
    context.dyCoder.encode(xy, context.yDiff[slot].median(), dy, yContextOf(s));
    context.yDiff[slot].add(dy);
    s.zContext = zContextOf(s);
    return s;
  }

 private:
  PCV_HOST_DEVICE Point14Step stepOf(uint32_t changed, const Point14Fields& point,
                                     uint32_t others, bool starts) const {
    Point14Step s = Point14Step::of(changed, point.numberOfReturns, point.returnNumber);
    s.channel = current;
    s.othersChannel = others;
    s.startsChannel = starts;
    return s;
  }

  /// The median slot of x and y: return map and GPS change.
  PCV_HOST_DEVICE static uint32_t slotOf(const Point14Step& s) {
    return (point14ReturnMap(s.n, s.r) << 1) | uint32_t(s.gpsChanged);
  }
  PCV_HOST_DEVICE uint32_t yContextOf(const Point14Step& s) const {
    return (s.n == 1) + evenBitsContext(contexts[current].dxCoder.lastK(), 20);
  }
  PCV_HOST_DEVICE uint32_t zContextOf(const Point14Step& s) const {
    const Point14XYContext& context = contexts[current];
    const uint32_t k = (context.dxCoder.lastK() + context.dyCoder.lastK()) / 2;
    return (s.n == 1) + evenBitsContext(k, 18);
  }

  /// The last point's return kind and GPS change: the context of the change symbol.
  PCV_HOST_DEVICE static uint32_t returnKindOf(const Point14Fields& last) {
    return (last.returnNumber == 1 ? 1u : 0u) +
           (last.returnNumber >= last.numberOfReturns ? 2u : 0u) + (last.gpsTimeChanged ? 4u : 0u);
  }

  static uint32_t changesOf(const Point14Fields& point, const Point14Fields& last,
                            bool channelChanged) {
    // GPS times are compared as bits, not as doubles, so that -0.0 and NaN payloads survive.
    uint32_t changed = (uint32_t(channelChanged) << 6) |
                       (uint32_t(point.pointSourceId != last.pointSourceId) << 5) |
                       (uint32_t(point.gpsTime != last.gpsTime) << 4) |
                       (uint32_t(point.scanAngle != last.scanAngle) << 3) |
                       (uint32_t(point.numberOfReturns != last.numberOfReturns) << 2);
    const uint32_t r = point.returnNumber, lastR = last.returnNumber;
    if (r != lastR) changed |= r == ((lastR + 1) & 15) ? 1u : (r == ((lastR + 15) & 15) ? 2u : 3u);
    return changed;
  }

  /// Number of returns when it changed; the return number as +1, -1 or coded.
  PCV_HOST_DEVICE PCV_FORCE_INLINE static void decodeReturns(ArithmeticDecoder& xy,
                                                             Point14XYContext& context,
                                            uint32_t changed, bool gpsChanged) {
    Point14Fields& last = context.last;
    if (changed & kReturnCountChanged) {
      last.numberOfReturns =
          uint8_t(xy.decodeSymbol(context.returnCountByLast.at(last.numberOfReturns, true)));
    }
    const uint32_t lastR = last.returnNumber;
    switch (changed & 3) {
      case 1:
        last.returnNumber = uint8_t((lastR + 1) & 15);
        break;
      case 2:
        last.returnNumber = uint8_t((lastR + 15) & 15);
        break;
      case 3:
        last.returnNumber =
            uint8_t(gpsChanged ? xy.decodeSymbol(context.returnNumberByLast.at(lastR, true))
                               : (lastR + xy.decodeSymbol(context.returnNumberStep) + 2) & 15);
        break;
      default:
        break;
    }
  }

  static void encodeReturns(ArithmeticEncoder& xy, Point14XYContext& context, uint32_t changed,
                            const Point14Fields& point, bool gpsChanged) {
    const Point14Fields& last = context.last;
    if (changed & kReturnCountChanged) {
      xy.encodeSymbol(context.returnCountByLast.at(last.numberOfReturns, false),
                      point.numberOfReturns);
    }
    if ((changed & 3) == 3) {
      const uint32_t r = point.returnNumber, lastR = last.returnNumber;
      if (gpsChanged) {
        xy.encodeSymbol(context.returnNumberByLast.at(lastR, false), r);
      } else {
        xy.encodeSymbol(context.returnNumberStep, ((r - lastR) & 15) - 2);
      }
    }
  }
};

}  // namespace pcv::laz
