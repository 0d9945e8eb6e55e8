/// @brief The turbo colour map as one function that g++ and nvcc compile alike (no fused
/// multiply-adds on either side), so points coloured on the GPU (arrays a caller holds there) get
/// exactly the colours the CPU gives.
#pragma once

#include <cstdint>

#include "pcv/core/host_device.hpp"
#include "pcv/core/point.hpp"

namespace pcv {

/// Turbo (Mikhailov, Google AI blog 2019), the published 6th-order polynomial approximation:
/// red, green, blue in [0, 1]. NaN gives the t = 0 colour; t is clamped to [0, 1]. The sums are
/// grouped as GLM groups a 4- and a 2-vector dot product, ((a + b) + (c + d)) + (e + f).
PCV_HOST_DEVICE inline void turboChannels(float t, float& red, float& green, float& blue) {
  t = t != t ? 0.0f : (t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t));
  const float t2 = t * t, t3 = t2 * t;
  const float t4 = t2 * t2, t5 = t3 * t2;
  auto channel = [&](float c0, float c1, float c2, float c3, float c4, float c5) {
    const float v = ((1.0f * c0 + t * c1) + (t2 * c2 + t3 * c3)) + (t4 * c4 + t5 * c5);
    return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
  };
  red = channel(0.13572138f, 4.61539260f, -42.66032258f, 132.13108234f, -152.94239396f,
                59.28637943f);
  green = channel(0.09140261f, 2.19418839f, 4.84296658f, -14.18503333f, 4.27729857f, 2.82956604f);
  blue = channel(0.10667330f, 12.64194608f, -60.58204836f, 110.36276771f, -89.90310912f,
                 27.34824973f);
}

/// A channel in [0, 1] as the nearest byte.
PCV_HOST_DEVICE inline uint32_t channelByte(float c) {
  return uint32_t((c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c)) * 255.0f + 0.5f);
}

/// turboChannels as packed RGBA8 (alpha 255): what colorMapRgba(ColorMap::Turbo, t) gives.
PCV_HOST_DEVICE inline uint32_t turboRgba(float t) {
  float red, green, blue;
  turboChannels(t, red, green, blue);
  return packRgba(channelByte(red), channelByte(green), channelByte(blue));
}

}  // namespace pcv
