/// @brief GPU side of reciprocal_test.cpp: the raster's reciprocal against the GPU's IEEE one.
#pragma once

#include <cstdint>
#include <vector>

namespace pcv::test {

struct ReciprocalCheck {
  uint64_t mismatches;   ///< floats whose reciprocals differ
  uint32_t exampleBits;  ///< one of them, when there are any
};

/// reciprocalInViewRange(w) against __frcp_rn(w) for every float with bits in
/// [firstBits, lastBits].
ReciprocalCheck compareReciprocalWithDivisionOnDevice(uint32_t firstBits, uint32_t lastBits);

/// reciprocalInViewRange of each value, computed on the GPU.
std::vector<float> reciprocalsOnDevice(const std::vector<float>& values);

}  // namespace pcv::test
