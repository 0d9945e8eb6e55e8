// The frame's point filter per batch and per point: the GLSL twin of
// src/raster/shared/point_filter_frame.hpp.
#ifndef PCV_POINT_FILTER_GLSL
#define PCV_POINT_FILTER_GLSL

#include "frame_params.glsl"

const uint kAnyReturn = 0u, kFirstReturn = 1u, kLastReturn = 2u, kOnlyReturn = 3u,
           kNumberedReturn = 4u;
const uint kFilterWordTest = 1u, kFilterValueTest = 2u, kFilterDropsAll = 4u;

uint filterWordAt(uint slot) {
  const uint local = inSlice(slot);  // slices hold an even count: pairs never straddle
  return (pc.frame.filterWords[sliceOf(slot)].at[local >> 1] >> ((local & 1u) * 16u)) & 0xffffu;
}

bool filterWordKept(uint word) {
  const uint classification = word & 0xffu, returns = (word >> 8) & 0xffu;
  return ((pc.frame.pointFilter.classMask[classification >> 5] >> (classification & 31u)) &
          (pc.frame.pointFilter.returnMask[returns >> 5] >> (returns & 31u)) & 1u) != 0u;
}

bool rangeValueKept(float value) {
  return value >= pc.frame.pointFilter.rangeMin && value <= pc.frame.pointFilter.rangeMax;
}

// The per-point tests batch slot `slot` needs (batchFilterTests of the shared header).
uint batchFilterTests(uint slot) {
  if (pc.frame.pointFilter.enabled == 0u) return 0u;
  if ((pc.frame.hasFilterData & 1u) == 0u ||
      (pc.frame.pointFilter.hasRange != 0u && (pc.frame.hasFilterData & 2u) == 0u)) {
    return kFilterDropsAll;
  }
  const BatchSummary s = pc.frame.summaries.at[slot];
  bool wordPasses = true;
  if (pc.frame.pointFilter.testsClasses != 0u) {
    bool any = false;
    for (int i = 0; i < 8; ++i) {
      any = any || (s.classMask[i] & pc.frame.pointFilter.classMask[i]) != 0u;
      wordPasses = wordPasses && (s.classMask[i] & ~pc.frame.pointFilter.classMask[i]) == 0u;
    }
    if (!any) return kFilterDropsAll;
  }
  uint passing = 0u, failing = 0u;
  switch (pc.frame.pointFilter.returns) {
    case kFirstReturn: passing = 1u; failing = 2u; break;
    case kLastReturn: passing = 4u; failing = 8u; break;
    case kOnlyReturn: passing = 16u; failing = 32u; break;
    case kNumberedReturn:
      passing = 1u << (16u + pc.frame.pointFilter.returnNumber);
      failing = 0xffff0000u & ~passing;
      break;
    default: break;
  }
  if (passing != 0u) {
    if ((s.returnBits & passing) == 0u) return kFilterDropsAll;
    wordPasses = wordPasses && (s.returnBits & failing) == 0u;
  }
  uint tests = wordPasses ? 0u : kFilterWordTest;
  if (pc.frame.pointFilter.hasRange != 0u) {
    if (!(s.rangeMax >= pc.frame.pointFilter.rangeMin && s.rangeMin <= pc.frame.pointFilter.rangeMax)) {
      return kFilterDropsAll;
    }
    const bool valuePasses = (s.rangeFlags & 1u) == 0u && s.rangeMin >= pc.frame.pointFilter.rangeMin &&
                             s.rangeMax <= pc.frame.pointFilter.rangeMax;
    if (!valuePasses) tests |= kFilterValueTest;
  }
  return tests;
}

bool filterKeepsSlot(uint tests, uint slot) {
  if ((tests & kFilterWordTest) != 0u && !filterWordKept(filterWordAt(slot))) return false;
  return (tests & kFilterValueTest) == 0u || rangeValueKept(pc.frame.rangeValues[sliceOf(slot)].at[inSlice(slot)]);
}

#endif
