// What every shader of the Vulkan backend reads: the frame's parameters, found through the one
// push constant (a buffer device address), and the pool's arrays, found through the addresses
// the parameters hold. Addresses instead of descriptor sets: no binding has a size limit
// (maxStorageBufferRange is 128 MiB on some devices), and a pool that grows only changes a
// number. The layout is VulkanFrameParams in ../frame_params.hpp, field for field.
#ifndef PCV_FRAME_PARAMS_GLSL
#define PCV_FRAME_PARAMS_GLSL

#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require

#include "compact_points.glsl"

struct FilterFrame {
  uint enabled, testsClasses, returns, returnNumber;
  uint classMask[8];
  uint returnMask[8];
  uint hasRange;
  float rangeMin, rangeMax;
  uint unused;
};

struct BatchSummary {
  uint classMask[8];
  uint returnBits;
  uint rangeFlags;
  float rangeMin, rangeMax;
};

struct PolygonEdge {
  float ax, ay, by, slope;
};

struct ClipPolygon {
  uint edgeCount, keepOutside;
  float minimumW;
  uint unused;
  float rows[3][4];
  float low[2], high[2];
  PolygonEdge edges[128];
};

struct ClipFrame {
  uint enabled, keepOutside, hasPlane, hasRegion;
  float boxMin[3], boxMax[3], plane[3];
  float planeMin, planeMax;
  ClipPolygon polygon;
};

struct SplatFrame {
  int width, height;
  uint sizePx, maxSizePx;
  float worldSizeToPx, marginPx;
  uint worldSize, orthographic, round;
};

struct ShadeFrame {
  uint backgroundBottom, backgroundTop, gradient, edl;
  int edlRadiusPx, edlDiagonalPx;
  float edlFactor;
  uint highQuality;
  float hqDepthScale;
  int fillRadiusPx;
};

struct Point {
  float x, y, z;
  uint rgba;
};

layout(buffer_reference, scalar) buffer BatchArray { Batch at[]; };
layout(buffer_reference, scalar) buffer UintArray { uint at[]; };
layout(buffer_reference, scalar) buffer FloatArray { float at[]; };
layout(buffer_reference, scalar) buffer WordArray { uint64_t at[]; };
layout(buffer_reference, scalar) buffer SummaryArray { BatchSummary at[]; };
layout(buffer_reference, scalar) buffer PointArray { Point at[]; };

const uint kFrameSlices = 32u;

layout(buffer_reference, scalar) readonly buffer FrameParams {
  // The per-point arrays, each in slices of 2^sliceShift points (sliced_array.hpp).
  UintArray positions[kFrameSlices];    // quantized position words
  UintArray colors[kFrameSlices];       // RGBA8 per point slot
  UintArray filterWords[kFrameSlices];  // two 16-bit filter words per uint (little-endian)
  FloatArray rangeValues[kFrameSlices]; // a range attribute's value per point slot
  BatchArray batches;       // the pool's batch slots
  SummaryArray summaries;   // per batch slot
  UintArray drawn;          // the batch slots drawn, when listed
  UintArray visibility;     // per drawn batch: the compact cull's kBatch* verdict
  WordArray words;          // framebuffer
  WordArray filled;         // framebuffer after hole filling
  UintArray accumulators;   // four per pixel (high quality)
  UintArray image;          // RGBA8 per pixel
  uint sliceShift;          // log2 of the points per slice
  uint batchCount;          // batches drawn
  uint drawnListed;         // 1: drawn lists the batch slots; 0: slots [0, batchCount)
  uint flipRows;            // 1: the image's rows run from the top down
  uint background;          // packed RGBA8
  uint hasFilterData;       // bit 0: summaries and words, bit 1: range values
  ViewTransform view;
  SplatFrame splat;
  ShadeFrame shade;
  FilterFrame pointFilter;
  ClipFrame clip;
};

layout(push_constant, scalar) uniform Push {
  FrameParams frame;
} pc;

uint sliceOf(uint slot) {
  return slot >> pc.frame.sliceShift;
}
uint inSlice(uint slot) {
  return slot & ((1u << pc.frame.sliceShift) - 1u);
}
uint positionAt(uint slot) {
  return pc.frame.positions[sliceOf(slot)].at[inSlice(slot)];
}
uint colorAt(uint slot) {
  return pc.frame.colors[sliceOf(slot)].at[inSlice(slot)];
}

// The batch slot of drawn batch b.
uint drawnBatchSlot(uint b) {
  return pc.frame.drawnListed != 0u ? pc.frame.drawn.at[b] : b;
}

// Workgroup index of a grid laid out as rows of at most 65535 groups (the guaranteed limit).
uint linearGroupIndex() {
  return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

// The image's index of pixel (x, y), row 0 at the bottom of the frame.
uint imageIndex(uint x, uint y) {
  const uint width = uint(pc.frame.view.width), height = uint(pc.frame.view.height);
  return (pc.frame.flipRows != 0u ? height - 1u - y : y) * width + x;
}

uint64_t packDepthWord(float positiveDepth, uint payload) {
  return (uint64_t(floatBitsToUint(positiveDepth)) << 32) | uint64_t(payload);
}
float depthOfWord(uint64_t word) {
  return uintBitsToFloat(uint(word >> 32));
}
uint payloadOfWord(uint64_t word) {
  return uint(word & 0xffffffffUL);
}
const uint64_t kEmptyPixel = 0xffffffffffffffffUL;

#endif
