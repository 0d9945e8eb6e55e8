#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// A class edit shown in place (RasterBackend::storeClassChanges): one invocation per changed
// point sets its colour and, with classes, the class byte of its 16-bit filter word (two words
// share a uint: the byte is cleared and set with atomics, so the neighbour's half stays) and the
// class's bit in its batch's summary. The layout is ClassChangeParams in vulkan_backend.cpp.

layout(local_size_x = 256) in;

struct BatchSummary {
  uint classMask[8];
  uint returnBits;
  uint rangeFlags;
  float rangeMin, rangeMax;
};

layout(buffer_reference, scalar) buffer UintArray { uint at[]; };
layout(buffer_reference, scalar) buffer SummaryArray { BatchSummary at[]; };

const uint kSlices = 32u;

layout(buffer_reference, scalar) readonly buffer ClassChangeParams {
  UintArray colors[kSlices];       // RGBA8 per point slot, in slices of 2^sliceShift points
  UintArray filterWords[kSlices];  // two 16-bit filter words per uint (little-endian)
  SummaryArray summaries;          // per batch slot
  UintArray pointSlots;            // per change: the pool's point slot
  UintArray batchSlots;            // per change: its batch slot
  UintArray newColors;             // per change
  UintArray newClasses;            // per change (with classes)
  uint sliceShift;
  uint count;
  uint withClasses;
  uint unused;
};

layout(push_constant, scalar) uniform Push {
  ClassChangeParams p;
} pc;

void main() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint i = group * 256u + gl_LocalInvocationID.x;
  if (i >= pc.p.count) return;
  const uint slot = pc.p.pointSlots.at[i];
  const uint slice = slot >> pc.p.sliceShift;
  const uint local = slot & ((1u << pc.p.sliceShift) - 1u);
  pc.p.colors[slice].at[local] = pc.p.newColors.at[i];
  if (pc.p.withClasses == 0u) return;
  const uint c = pc.p.newClasses.at[i] & 0xffu;
  const uint shift = (local & 1u) * 16u;
  atomicAnd(pc.p.filterWords[slice].at[local >> 1], ~(0xffu << shift));
  atomicOr(pc.p.filterWords[slice].at[local >> 1], c << shift);
  atomicOr(pc.p.summaries.at[pc.p.batchSlots.at[i]].classMask[c >> 5], 1u << (c & 31u));
}
