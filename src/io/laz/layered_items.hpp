/// @brief The items that follow POINT14 in layered chunks: RGB14 / RGBNIR14 (an RGB layer and a
/// NIR layer), WAVEPACKET14 (one layer) and BYTE14 (one layer per extra byte). Each keeps one
/// context per scanner channel and follows the channel POINT14 hands on per point.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "arithmetic_decoder.hpp"
#include "arithmetic_encoder.hpp"
#include "byte_codec.hpp"
#include "entropy_models.hpp"
#include "record_bytes.hpp"
#include "rgb_codec.hpp"
#include "wave_packet_codec.hpp"

namespace pcv::laz {

/// Which context a layered item predicts from after POINT14 named `channel` for this point.
/// Switching to an unused channel starts it from the current one's last values. Version 3 keeps
/// predicting from (and updating) the previous channel's last values when it switches back to a
/// channel already seen; version 4 uses that channel's own.
struct ChannelFollower {
  uint32_t current;  ///< channel whose models code
  bool unused[4];

  /// Returns the channel whose last values the point is predicted from and written to; calls
  /// start(channel, from) when a channel is first used.
  template <typename Start>
  PCV_HOST_DEVICE uint32_t follow(uint32_t channel, uint32_t version, Start&& start) {
    uint32_t owner = current;
    if (channel != current) {
      current = channel;
      if (unused[channel]) {
        unused[channel] = false;
        start(channel, owner);
        owner = channel;
      } else if (version >= 4) {
        owner = channel;
      }
    }
    return owner;
  }

  PCV_HOST_DEVICE void startChunk(uint32_t channel) {
    for (auto& u : unused) u = true;
    unused[channel] = false;
    current = channel;
  }
};

/// The NIR layer of RGBNIR14: one symbol says which of the value's two bytes changed, then each
/// changed byte is coded against the last one.
struct NirModels {
  SymbolModel<4> changed;  ///< bit 0: low byte changed, bit 1: high byte
  SymbolModel<256> diff[2];

  PCV_HOST_DEVICE void reset(bool decoding) {
    changed.reset(4, decoding);
    diff[0].reset(256, decoding);
    diff[1].reset(256, decoding);
  }
};

/// The next NIR value after `last`.
PCV_HOST_DEVICE inline uint16_t decodeNir(ArithmeticDecoder& decoder, NirModels& models,
                                          uint16_t last) {
  const uint32_t changed = decoder.decodeSymbol(models.changed);
  uint32_t low = lowByte(last), high = highByte(last);
  if (changed & 1) low = decodeByteAfter(decoder, models.diff[0], low);
  if (changed & 2) high = decodeByteAfter(decoder, models.diff[1], high);
  return uint16_t(low | (high << 8));
}

/// RGB14 (6 bytes) and RGBNIR14 (8 bytes: RGB, then NIR).
struct Rgb14Codec {
  struct Context {
    Rgb lastRgb;
    uint16_t lastNir;
    RgbModels rgb;
    NirModels nir;
  };

  uint32_t version;
  bool hasNir;
  bool decoding;
  bool wantRgb, wantNir;      ///< decoding: layers asked for
  bool rgbActive, nirActive;  ///< decoding: wanted and present; encoding: changed in this chunk
  ChannelFollower channels;
  Context contexts[4];
  ArithmeticDecoder rgbLayer, nirLayer;

  uint32_t itemBytes() const { return hasNir ? 8u : 6u; }

  PCV_HOST_DEVICE void startChunk(const uint8_t* firstItem, uint32_t channel, bool forDecoding) {
    decoding = forDecoding;
    rgbActive = nirActive = false;
    channels.startChunk(channel);
    Context& context = contexts[channel];
    context.lastRgb.load(firstItem);
    context.lastNir = hasNir ? loadLe<uint16_t>(firstItem + 6) : 0;
    resetModels(channel);
  }

  PCV_HOST_DEVICE void startLayers(const uint8_t* rgbBytes, uint32_t rgbSize,
                                   const uint8_t* nirBytes, uint32_t nirSize) {
    rgbActive = wantRgb && rgbSize > 0;
    if (rgbActive) rgbLayer.start(rgbBytes, rgbSize);
    nirActive = hasNir && wantNir && nirSize > 0;
    if (nirActive) nirLayer.start(nirBytes, nirSize);
  }

  /// Decodes the items of `count` points, `length` bytes apart, each following the channel
  /// `channelOf(i)` that its POINT14 hands on. The layers' decoders are locals for the whole run
  /// (decodeItem is inlined), so their state stays in registers rather than in this struct.
  template <typename ChannelOf>
  void decode(uint8_t* items, uint32_t length, uint64_t count, ChannelOf&& channelOf) {
    ArithmeticDecoder rgb = rgbLayer, nir = nirLayer;
    for (uint64_t i = 0; i < count; ++i) decodeItem(items + i * length, channelOf(i), rgb, nir);
    rgbLayer = rgb;
    nirLayer = nir;
  }

  /// `rgb` and `nir` are the two layers' encoders.
  void encode(ArithmeticEncoder& rgb, ArithmeticEncoder& nir, const uint8_t* item,
              uint32_t channel) {
    const uint32_t owner = follow(channel);
    Context& models = contexts[channels.current];
    Context& last = contexts[owner];
    Rgb color;
    color.load(item);
    if (encodeRgb(rgb, models.rgb, last.lastRgb, color) != 0) rgbActive = true;
    last.lastRgb = color;
    if (!hasNir) return;
    const uint16_t value = loadLe<uint16_t>(item + 6);
    const uint32_t changed = uint32_t(lowByte(value) != lowByte(last.lastNir)) |
                             (uint32_t(highByte(value) != highByte(last.lastNir)) << 1);
    nir.encodeSymbol(models.nir.changed, changed);
    if (changed & 1) {
      nir.encodeSymbol(models.nir.diff[0],
                       wrapByte(int32_t(lowByte(value)) - int32_t(lowByte(last.lastNir))));
    }
    if (changed & 2) {
      nir.encodeSymbol(models.nir.diff[1],
                       wrapByte(int32_t(highByte(value)) - int32_t(highByte(last.lastNir))));
    }
    if (changed) nirActive = true;
    last.lastNir = value;
  }

 private:
  /// Follows the channel POINT14 hands on (a channel new in the chunk starts from the last
  /// values of the one before, with fresh models); returns the channel whose last values the
  /// point continues.
  uint32_t follow(uint32_t channel) {
    return channels.follow(channel, version, [&](uint32_t fresh, uint32_t from) {
      contexts[fresh].lastRgb = contexts[from].lastRgb;
      contexts[fresh].lastNir = contexts[from].lastNir;
      resetModels(fresh);
    });
  }

  PCV_FORCE_INLINE void decodeItem(uint8_t* item, uint32_t channel, ArithmeticDecoder& rgb,
                                   ArithmeticDecoder& nir) {
    const uint32_t owner = follow(channel);
    Context& models = contexts[channels.current];
    Context& last = contexts[owner];
    if (rgbActive) last.lastRgb = decodeRgb(rgb, models.rgb, last.lastRgb);
    last.lastRgb.store(item);
    if (!hasNir) return;
    if (nirActive) last.lastNir = decodeNir(nir, models.nir, last.lastNir);
    storeLe(item + 6, last.lastNir);
  }

  PCV_HOST_DEVICE void resetModels(uint32_t channel) {
    Context& context = contexts[channel];
    if (!decoding || wantRgb) context.rgb.reset(decoding);
    if (hasNir && (!decoding || wantNir)) context.nir.reset(decoding);
  }
};

/// WAVEPACKET14.
struct WavePacket14Codec {
  struct Context {
    WavePacket last;
    WavePacketCoder coder;
  };

  uint32_t version;
  bool decoding;
  bool wanted;  ///< decoding: layer asked for
  bool active;  ///< decoding: wanted and present; encoding: changed in this chunk
  ChannelFollower channels;
  Context contexts[4];
  ArithmeticDecoder layer;

  void startChunk(const uint8_t* firstItem, uint32_t channel, bool forDecoding) {
    decoding = forDecoding;
    active = false;
    channels.startChunk(channel);
    contexts[channel].last.load(firstItem);
    contexts[channel].coder.start(decoding, !decoding || wanted);
  }

  PCV_HOST_DEVICE void startLayer(const uint8_t* bytes, uint32_t size) {
    active = wanted && size > 0;
    if (active) layer.start(bytes, size);
  }

  PCV_HOST_DEVICE void decode(uint8_t* item, uint32_t channel) {
    const uint32_t owner = channels.follow(channel, version, [&](uint32_t fresh, uint32_t from) {
      contexts[fresh].last = contexts[from].last;
      contexts[fresh].coder.start(decoding, wanted);
    });
    if (active) {
      contexts[channels.current].coder.decode(layer, contexts[owner].last, item);
    } else {
      contexts[owner].last.store(item);
    }
  }

  void encode(ArithmeticEncoder& encoder, const uint8_t* item, uint32_t channel) {
    const uint32_t owner = channels.follow(channel, version, [&](uint32_t fresh, uint32_t from) {
      contexts[fresh].last = contexts[from].last;
      contexts[fresh].coder.start(false);
    });
    uint8_t lastBytes[kWavePacketBytes];
    contexts[owner].last.store(lastBytes);
    if (std::memcmp(lastBytes, item, kWavePacketBytes) != 0) active = true;
    contexts[channels.current].coder.encode(encoder, contexts[owner].last, item);
  }
};

/// BYTE14: extra bytes, each in its own layer.
struct Byte14Codec {
  struct Context {
    std::vector<uint8_t> last;
    std::vector<SymbolModel<256>> diff;
  };

  uint32_t version;
  bool decoding;
  std::vector<bool> wanted;  ///< decoding: per byte, asked for
  std::vector<bool> active;  ///< decoding: wanted and present; encoding: changed in this chunk
  ChannelFollower channels;
  Context contexts[4];
  std::vector<ArithmeticDecoder> layers;

  explicit Byte14Codec(uint32_t byteCount)
      : version(3),
        decoding(true),
        wanted(byteCount, true),
        active(byteCount, false),
        layers(byteCount) {
    for (auto& context : contexts) {
      context.last.resize(byteCount);
      context.diff.resize(byteCount);
    }
  }

  uint32_t byteCount() const { return uint32_t(layers.size()); }

  void startChunk(const uint8_t* firstItem, uint32_t channel, bool forDecoding) {
    decoding = forDecoding;
    active.assign(byteCount(), false);
    channels.startChunk(channel);
    std::memcpy(contexts[channel].last.data(), firstItem, byteCount());
    resetModels(channel);
  }

  void startLayer(uint32_t byte, const uint8_t* bytes, uint32_t size) {
    active[byte] = wanted[byte] && size > 0;
    if (active[byte]) layers[byte].start(bytes, size);
  }

  bool failed() const {
    for (uint32_t i = 0; i < byteCount(); ++i) {
      if (active[i] && layers[i].failed()) return true;
    }
    return false;
  }

  void decode(uint8_t* item, uint32_t channel) {
    const uint32_t owner = channels.follow(channel, version, [&](uint32_t fresh, uint32_t from) {
      contexts[fresh].last = contexts[from].last;
      resetModels(fresh);
    });
    Context& models = contexts[channels.current];
    uint8_t* last = contexts[owner].last.data();
    for (uint32_t i = 0; i < byteCount(); ++i) {
      if (active[i]) last[i] = decodeByteAfter(layers[i], models.diff[i], last[i]);
      item[i] = last[i];
    }
  }

  /// `encoders` holds one encoder per byte.
  void encode(ArithmeticEncoder* encoders, const uint8_t* item, uint32_t channel) {
    const uint32_t owner = channels.follow(channel, version, [&](uint32_t fresh, uint32_t from) {
      contexts[fresh].last = contexts[from].last;
      resetModels(fresh);
    });
    Context& models = contexts[channels.current];
    uint8_t* last = contexts[owner].last.data();
    for (uint32_t i = 0; i < byteCount(); ++i) {
      encoders[i].encodeSymbol(models.diff[i], wrapByte(int32_t(item[i]) - int32_t(last[i])));
      if (item[i] != last[i]) {
        active[i] = true;
        last[i] = item[i];
      }
    }
  }

 private:
  void resetModels(uint32_t channel) {
    for (uint32_t i = 0; i < byteCount(); ++i) {
      if (!decoding || wanted[i]) contexts[channel].diff[i].reset(256, decoding);
    }
  }
};

}  // namespace pcv::laz
