/// @brief A frame's point filter (classes, returns, one attribute range) per frame, per batch and
/// per point, written once for both compilers so the CPU backend filters exactly as the CUDA one.
/// Each point carries a 16-bit filter word (class and returns) and, while a range filter needs
/// it, the value of the ranged attribute; each batch a summary of what its points hold, so a
/// batch none of whose points pass is skipped and one all of whose points pass is drawn without
/// per-point tests (the common case: a class filter on a Morton-ordered cloud).
#pragma once

#include <cstdint>

#include "pcv/core/host_device.hpp"

namespace pcv {

// filter word = | number of returns (4) | return number (4) | class (8) |
PCV_HOST_DEVICE constexpr uint16_t packFilterWord(uint32_t classification, uint32_t returnNumber,
                                                  uint32_t numberOfReturns) {
  return uint16_t((classification & 0xffu) | (returnNumber & 0xfu) << 8 |
                  (numberOfReturns & 0xfu) << 12);
}

/// The return choices of a frame (PointFilter's ReturnChoice, as numbers both compilers see).
enum FilterReturns : uint32_t {
  kAnyReturn = 0,
  kFirstReturn = 1,
  kLastReturn = 2,
  kOnlyReturn = 3,
  kNumberedReturn = 4,
};

/// A frame's filter, passed by value to the kernels; built by makeFilterFrame
/// (src/raster/filter_frame.hpp).
struct FilterFrame {
  uint32_t active;         ///< 0: nothing is filtered, the other fields are unused
  uint32_t testsClasses;   ///< 1: classMask applies
  uint32_t returns;        ///< FilterReturns
  uint32_t returnNumber;   ///< with kNumberedReturn
  uint32_t classMask[8];   ///< bit c: class c is kept
  uint32_t hasRange;       ///< 1: the point's range value must lie in [rangeMin, rangeMax]
  float rangeMin, rangeMax;
  uint32_t unused;
};

/// What a batch's points hold, computed when their filter data is stored. 48 bytes.
struct BatchSummary {
  uint32_t classMask[8];  ///< bit c: some point has class c
  /// Which return kinds occur: bits 0/1 a first / not-first return, 2/3 last / not-last, 4/5 a
  /// single / not-single return; bits 16-31: return numbers 0-15 that occur.
  uint32_t returnBits;
  uint32_t rangeFlags;    ///< bit 0: some value is NaN (so not every point can pass a range)
  float rangeMin, rangeMax;  ///< of the non-NaN range values (min > max when none)
};
static_assert(sizeof(BatchSummary) == 48);

/// Return kinds of one point, as BatchSummary::returnBits has them.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t returnBitsOf(uint16_t word) {
  const uint32_t number = (word >> 8) & 0xfu, count = word >> 12;
  return (number == 1 ? 1u : 2u) | (number == count && count > 0 ? 4u : 8u) |
         (count == 1 ? 16u : 32u) | 1u << (16 + number);
}

/// Whether a point passes the frame's filter: its word and its range value.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool filterKeeps(const FilterFrame& f, uint16_t word,
                                                  float value) {
  const uint32_t classification = word & 0xffu;
  if (f.testsClasses && !((f.classMask[classification >> 5] >> (classification & 31)) & 1u))
    return false;
  const uint32_t number = (word >> 8) & 0xfu, count = word >> 12;
  switch (f.returns) {
    case kFirstReturn: if (number != 1) return false; break;
    case kLastReturn: if (!(number == count && count > 0)) return false; break;
    case kOnlyReturn: if (count != 1) return false; break;
    case kNumberedReturn: if (number != f.returnNumber) return false; break;
    default: break;
  }
  // "not inside" rejects NaN.
  return !f.hasRange || (value >= f.rangeMin && value <= f.rangeMax);
}

/// What a filter leaves of a batch (as BatchClipClass says of the clip region).
enum class BatchFilterClass : uint32_t {
  kAll,     ///< every point passes: draw without per-point tests
  kNone,    ///< no point passes: skip the batch
  kTested,  ///< test each point
};

/// The batch's class from its summary: exact for classes and returns (a kind that occurs is
/// present in some point), conservative for ranges (the box of values).
PCV_HOST_DEVICE inline BatchFilterClass classifyBatchFilter(const FilterFrame& f,
                                                            const BatchSummary& s) {
  if (!f.active) return BatchFilterClass::kAll;
  bool all = true;
  if (f.testsClasses) {
    bool any = false;
    for (int i = 0; i < 8; ++i) {
      any = any || (s.classMask[i] & f.classMask[i]) != 0;
      all = all && (s.classMask[i] & ~f.classMask[i]) == 0;
    }
    if (!any) return BatchFilterClass::kNone;
  }
  uint32_t passing = 0, failing = 0;  // return bits of points that pass / fail
  switch (f.returns) {
    case kFirstReturn: passing = 1u, failing = 2u; break;
    case kLastReturn: passing = 4u, failing = 8u; break;
    case kOnlyReturn: passing = 16u, failing = 32u; break;
    case kNumberedReturn:
      passing = 1u << (16 + f.returnNumber);
      failing = 0xffff0000u & ~passing;
      break;
    default: break;
  }
  if (passing != 0) {
    if ((s.returnBits & passing) == 0) return BatchFilterClass::kNone;
    all = all && (s.returnBits & failing) == 0;
  }
  if (f.hasRange) {
    if (!(s.rangeMax >= f.rangeMin && s.rangeMin <= f.rangeMax)) return BatchFilterClass::kNone;
    all = all && (s.rangeFlags & 1u) == 0 && s.rangeMin >= f.rangeMin && s.rangeMax <= f.rangeMax;
  }
  return all ? BatchFilterClass::kAll : BatchFilterClass::kTested;
}

/// The summary of a batch's points: words[i] and (with values) values[i] for i < count.
PCV_HOST_DEVICE inline BatchSummary summarizeBatch(const uint16_t* words, const float* values,
                                                   uint32_t count) {
  BatchSummary s{};
  s.rangeMin = 1.0f / 0.0f;
  s.rangeMax = -1.0f / 0.0f;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t classification = words[i] & 0xffu;
    s.classMask[classification >> 5] |= 1u << (classification & 31);
    s.returnBits |= returnBitsOf(words[i]);
    if (!values) continue;
    const float v = values[i];
    if (!(v == v)) {
      s.rangeFlags |= 1u;
      continue;
    }
    s.rangeMin = v < s.rangeMin ? v : s.rangeMin;
    s.rangeMax = v > s.rangeMax ? v : s.rangeMax;
  }
  return s;
}

}  // namespace pcv

namespace pcv {

/// The filter data of a pool (device or host memory): null where the pool holds none.
struct FilterArrays {
  const BatchSummary* summaries;  ///< one per batch slot
  const uint16_t* words;          ///< one per point slot
  const float* values;            ///< one per point slot, the range attribute's
};

/// The class of batch slot `slot` under the frame's filter; kAll when it filters nothing.
PCV_HOST_DEVICE PCV_FORCE_INLINE BatchFilterClass classifyBatchFilter(const FilterFrame& f,
                                                                      const FilterArrays& a,
                                                                      uint32_t slot) {
  if (!f.active) return BatchFilterClass::kAll;
  if (!a.summaries || !a.words || (f.hasRange && !a.values)) return BatchFilterClass::kNone;
  return classifyBatchFilter(f, a.summaries[slot]);
}

/// Whether the point at slot `i` passes (for batches classified kTested).
PCV_HOST_DEVICE PCV_FORCE_INLINE bool filterKeepsSlot(const FilterFrame& f, const FilterArrays& a,
                                                      uint32_t i) {
  return filterKeeps(f, a.words[i], f.hasRange ? a.values[i] : 0.0f);
}

}  // namespace pcv
