// The raster's reciprocal (reciprocalInViewRange: the hardware estimate and one Newton step on
// the GPU) must round exactly as IEEE division does over the whole range of view distances, or
// the CUDA images would drift from the CPU oracle's.
#include <cstring>

#include "pcv/core/float_math.hpp"
#include "pcv/raster/projection.hpp"
#include "reciprocal_kernel.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

TEST(Reciprocal, EveryFloatOfTheViewRangeRoundsAsIeeeDivisionOnTheGpu) {
  PCV_REQUIRE_CUDA();
  const uint32_t first = floatBits(kMinViewDistance), last = floatBits(kMaxViewDistance);
  const test::ReciprocalCheck check = test::compareReciprocalWithDivisionOnDevice(first, last);
  std::printf("[ reciprocal ] %u floats in [2^-100, 2^100], %llu differ from IEEE 1/w\n",
              last - first + 1, (unsigned long long)check.mismatches);
  EXPECT_EQ(check.mismatches, 0u) << "e.g. w bits 0x" << std::hex << check.exampleBits;
}

TEST(Reciprocal, GpuMatchesTheHostDivisionOnASpreadOfValues) {
  PCV_REQUIRE_CUDA();
  std::vector<float> values;
  for (uint32_t bits = floatBits(kMinViewDistance); bits <= floatBits(kMaxViewDistance);
       bits += 104729)  // a prime stride: every exponent, scattered mantissas
    values.push_back(bitsToFloat(bits));
  values.push_back(3.0f);
  values.push_back(0.1f);
  const std::vector<float> gpu = test::reciprocalsOnDevice(values);
  uint64_t different = 0;
  for (size_t i = 0; i < values.size(); ++i)
    different += floatBits(gpu[i]) != floatBits(1.0f / values[i]);
  EXPECT_EQ(different, 0u) << "of " << values.size();
}

}  // namespace
}  // namespace pcv
