/// @brief The frame's parameters as the Vulkan shaders read them (shaders/frame_params.glsl,
/// scalar block layout): the pool's array addresses, the view, the splat, shading, filter and
/// clip frames. Field for field the GLSL block; the static_asserts pin the offsets the shaders
/// assume.
#pragma once

#include <cstddef>
#include <cstdint>

#include "shared/clip_region.hpp"
#include "shared/point_filter_frame.hpp"

namespace pcv::vk {

struct ShaderView {
  float viewProjection[16];
  int32_t width, height;
  float nearPlane, farPlane;
  int32_t orthographic;
  float depthRow[4];
};

struct ShaderSplat {
  int32_t width, height;
  uint32_t sizePx, maxSizePx;
  float worldSizeToPx, marginPx;
  uint32_t worldSize, orthographic, round;
};

struct ShaderShade {
  uint32_t backgroundBottom, backgroundTop, gradient, edl;
  int32_t edlRadiusPx, edlDiagonalPx;
  float edlFactor;
  uint32_t highQuality;
  float hqDepthScale;
  int32_t fillRadiusPx;
};

/// Slices a per-point array may have (VulkanPointPool's kMaxPoolSlices).
constexpr uint32_t kFrameSlices = 32;

struct VulkanFrameParams {
  uint64_t positions[kFrameSlices], colors[kFrameSlices], filterWords[kFrameSlices],
      rangeValues[kFrameSlices];
  uint64_t batches, summaries, drawn, visibility, words, filled, accumulators, image;
  uint32_t sliceShift;  ///< log2 of the points per slice
  uint32_t batchCount;
  uint32_t drawnListed;
  uint32_t flipRows;
  uint32_t background;
  uint32_t hasFilterData;  ///< bit 0: summaries and words, bit 1: range values
  ShaderView view;
  ShaderSplat splat;
  ShaderShade shade;
  FilterFrame filter;
  ClipFrame clip;
};

static_assert(sizeof(ShaderView) == 100);
static_assert(sizeof(ShaderSplat) == 36);
static_assert(sizeof(ShaderShade) == 40);
static_assert(sizeof(FilterFrame) == 96);
static_assert(offsetof(VulkanFrameParams, batches) == 4 * kFrameSlices * 8);
static_assert(offsetof(VulkanFrameParams, view) == 4 * kFrameSlices * 8 + 8 * 8 + 6 * 4);
static_assert(offsetof(VulkanFrameParams, clip) == offsetof(VulkanFrameParams, view) + 100 + 36 +
                                                         40 + 96);

}  // namespace pcv::vk
