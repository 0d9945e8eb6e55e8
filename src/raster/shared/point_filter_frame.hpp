/// @brief A frame's point filter (classes, returns, one attribute range) per frame, per batch and
/// per point, written once for both compilers so the CPU backend filters exactly as the CUDA one.
/// Each point carries a 16-bit filter word (class and returns) and, while a range filter needs
/// it, the value of the ranged attribute; each batch a summary of what its points hold, so a
/// batch none of whose points pass is skipped and one all of whose points pass is drawn as if
/// nothing were filtered (the common case: a class filter on a Morton-ordered cloud). Batches in
/// between read per point only the array (word or value) whose test some of their points fail.
///
/// Why the word is an array of its own and not folded into the 4-byte position word: that word
/// has 2 spare bits (30 of position; kInvalidQuantized takes the pattern 11), too few for a class
/// (8 bits), and a wider position word would cost every frame, filtered or not, for the sake of
/// the batches a filter splits.
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
  uint32_t testsClasses;   ///< 1: some class is left out
  uint32_t returns;        ///< FilterReturns
  uint32_t returnNumber;   ///< with kNumberedReturn
  uint32_t classMask[8];   ///< bit c: class c is kept (every bit when classes are not filtered)
  /// bit (number of returns << 4 | return number), the filter word's high byte: that return is
  /// kept (every bit when returns are not filtered). With classMask, a point's word is tested by
  /// two bit lookups, whatever the return choice.
  uint32_t returnMask[8];
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

/// Whether the return (number, count) passes a return choice, as ReturnChoice says.
PCV_HOST_DEVICE constexpr bool returnChoiceKeeps(uint32_t returns, uint32_t returnNumber,
                                                 uint32_t number, uint32_t count) {
  switch (returns) {
    case kFirstReturn:
      return number == 1;
    case kLastReturn:
      return number == count && count > 0;
    case kOnlyReturn:
      return count == 1;
    case kNumberedReturn:
      return number == returnNumber;
    default:
      return true;
  }
}

/// Whether a filter word passes the class and return masks (FilterFrame::classMask, returnMask,
/// or copies of them in shared memory): one bit lookup each.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool filterWordKept(const uint32_t* classMask,
                                                     const uint32_t* returnMask, uint32_t word) {
  const uint32_t classification = word & 0xffu, returns = (word >> 8) & 0xffu;
  return ((classMask[classification >> 5] >> (classification & 31)) &
          (returnMask[returns >> 5] >> (returns & 31)) & 1u) != 0;
}

/// Whether a range value lies in the frame's range ("not inside" rejects NaN).
PCV_HOST_DEVICE PCV_FORCE_INLINE bool rangeValueKept(const FilterFrame& f, float value) {
  return value >= f.rangeMin && value <= f.rangeMax;
}

/// Whether a point passes the frame's filter: its word and its range value.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool filterKeeps(const FilterFrame& f, uint16_t word,
                                                  float value) {
  if (!f.active) return true;
  return filterWordKept(f.classMask, f.returnMask, word) &&
         (!f.hasRange || rangeValueKept(f, value));
}

/// What a filter leaves of a batch (as BatchClipClass says of the clip region).
enum class BatchFilterClass : uint32_t {
  kAll,     ///< every point passes: draw without per-point tests
  kNone,    ///< no point passes: skip the batch
  kTested,  ///< test each point
};

/// The per-point tests a batch needs, from its summary (bits; 0: every point passes, draw the
/// batch as if nothing were filtered).
enum BatchFilterTests : uint32_t {
  kFilterWordTest = 1u,   ///< test each point's filter word (class, returns)
  kFilterValueTest = 2u,  ///< test each point's range value
  kFilterDropsAll = 4u,   ///< no point passes: skip the batch
};

/// The tests a batch needs under the frame's filter: exact for classes and returns (a kind that
/// occurs is present in some point), conservative for ranges (the box of values). A part of the
/// filter every point of the batch passes is not tested, so a class filter over a batch of
/// mixed intensities reads no range values, and a range over a batch of kept classes no words.
PCV_HOST_DEVICE inline uint32_t batchFilterTests(const FilterFrame& f, const BatchSummary& s) {
  if (!f.active) return 0;
  bool wordPasses = true;  // every point's word passes
  if (f.testsClasses) {
    bool any = false;
    for (int i = 0; i < 8; ++i) {
      any = any || (s.classMask[i] & f.classMask[i]) != 0;
      wordPasses = wordPasses && (s.classMask[i] & ~f.classMask[i]) == 0;
    }
    if (!any) return kFilterDropsAll;
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
    if ((s.returnBits & passing) == 0) return kFilterDropsAll;
    wordPasses = wordPasses && (s.returnBits & failing) == 0;
  }
  uint32_t tests = wordPasses ? 0u : kFilterWordTest;
  if (f.hasRange) {
    if (!(s.rangeMax >= f.rangeMin && s.rangeMin <= f.rangeMax)) return kFilterDropsAll;
    const bool valuePasses =
        (s.rangeFlags & 1u) == 0 && s.rangeMin >= f.rangeMin && s.rangeMax <= f.rangeMax;
    if (!valuePasses) tests |= kFilterValueTest;
  }
  return tests;
}

/// The batch's class from its summary (batchFilterTests, as kAll / kNone / kTested).
PCV_HOST_DEVICE inline BatchFilterClass classifyBatchFilter(const FilterFrame& f,
                                                            const BatchSummary& s) {
  const uint32_t tests = batchFilterTests(f, s);
  if (tests & kFilterDropsAll) return BatchFilterClass::kNone;
  return tests == 0 ? BatchFilterClass::kAll : BatchFilterClass::kTested;
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

/// The tests batch slot `slot` needs under the frame's filter (batchFilterTests); 0 when the
/// frame filters nothing, kFilterDropsAll when the pool lacks data the filter reads.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t batchFilterTests(const FilterFrame& f,
                                                           const FilterArrays& a, uint32_t slot) {
  if (!f.active) return 0;
  if (!a.summaries || !a.words || (f.hasRange && !a.values)) return kFilterDropsAll;
  return batchFilterTests(f, a.summaries[slot]);
}

/// Whether the point at slot `i` passes the tests `tests` (batchFilterTests) of its batch: only
/// the arrays those tests name are read.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool filterKeepsSlot(const FilterFrame& f, const FilterArrays& a,
                                                      uint32_t tests, uint32_t i) {
  if ((tests & kFilterWordTest) && !filterWordKept(f.classMask, f.returnMask, a.words[i]))
    return false;
  return !(tests & kFilterValueTest) || rangeValueKept(f, a.values[i]);
}

}  // namespace pcv
