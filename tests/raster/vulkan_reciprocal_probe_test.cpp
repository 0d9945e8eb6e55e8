// The reciprocal probe (vulkan/reciprocal_probe.hpp) on whatever Vulkan device there is, lavapipe
// included: it must find a quotient that one Newton step cannot make exact, and count the same
// floats however the range is cut among its invocations. Whether a device's own quotient passes
// is the device's business; the Vulkan-vs-CPU tests check the pixels of the path it chooses.
#include <algorithm>
#include <bit>
#include <memory>

#include "test_support.hpp"
#include "vulkan/fma_probe.hpp"
#include "vulkan/reciprocal_probe.hpp"
#include "vulkan/vulkan_context.hpp"

namespace pcv {
namespace {

/// The quotient off by 1 in 2^8: the step leaves an error near 2^-16, far beyond an ulp.
constexpr float kSpoiledScale = 1.0f + 0x1p-8f;

class VulkanReciprocalProbe : public ::testing::Test {
 protected:
  void SetUp() override {
    PCV_REQUIRE_VULKAN();
    context_ = std::make_unique<vk::VulkanContext>("", true);
    emulatedFma_ = !vk::deviceFusesFma(*context_);
  }
  vk::ReciprocalProbeResult probe(float first, uint32_t count, float scale) {
    const uint32_t bits = std::bit_cast<uint32_t>(first);
    return vk::probeNewtonReciprocal(*context_, emulatedFma_, bits, bits + count, scale);
  }
  std::unique_ptr<vk::VulkanContext> context_;
  bool emulatedFma_ = false;
};

TEST_F(VulkanReciprocalProbe, FindsAQuotientTheNewtonStepCannotMakeExact) {
  for (const float first : {1.0f, 0x1p-100f, 0x1.fp99f}) {
    const vk::ReciprocalProbeResult spoiled = probe(first, 50'000, kSpoiledScale);
    EXPECT_EQ(spoiled.checked, 50'000u) << first;
    EXPECT_GT(spoiled.mismatches, 40'000u) << first;
    EXPECT_GE(spoiled.lowestMismatch, std::bit_cast<uint32_t>(first)) << first;
    EXPECT_LT(spoiled.lowestMismatch, std::bit_cast<uint32_t>(first) + 50'000u) << first;
  }
}

TEST_F(VulkanReciprocalProbe, CountsTheSameFloatsHoweverTheRangeIsCut) {
  // 3 * 4096 + 1000 floats: a last invocation with a partial run, then the range in two pieces
  // that cut an invocation's run.
  const uint32_t count = 3 * 4096 + 1000, cut = 5000;
  const vk::ReciprocalProbeResult whole = probe(1.5f, count, kSpoiledScale);
  const vk::ReciprocalProbeResult low = probe(1.5f, cut, kSpoiledScale);
  const float middle = std::bit_cast<float>(std::bit_cast<uint32_t>(1.5f) + cut);
  const vk::ReciprocalProbeResult high = probe(middle, count - cut, kSpoiledScale);
  EXPECT_GT(whole.mismatches, 0u);
  EXPECT_EQ(whole.mismatches, low.mismatches + high.mismatches);
  EXPECT_EQ(whole.lowestMismatch, std::min(low.lowestMismatch, high.lowestMismatch));
  EXPECT_EQ(probe(1.5f, 0, kSpoiledScale).mismatches, 0u);
}

}  // namespace
}  // namespace pcv
