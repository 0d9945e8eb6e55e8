// The pool of host image buffers: given-back buffers are reused, what it keeps is bounded,
// buffers outlive it, and memory is pinned only where CUDA can pin it (skipped elsewhere).
#include <algorithm>
#include <utility>
#include <vector>

#include "pcv/raster/host_image_pool.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

TEST(HostImagePool, GivenBackBuffersAreReusedForTheSameSize) {
  HostImagePool pool;
  uint32_t* first = nullptr;
  {
    HostImageBuffer buffer = pool.acquire(640 * 480, false);
    ASSERT_NE(buffer.pixels(), nullptr);
    EXPECT_EQ(buffer.pixelCount(), 640u * 480u);
    std::fill_n(buffer.pixels(), buffer.pixelCount(), 0x01020304u);  // every pixel is ours
    first = buffer.pixels();
    EXPECT_EQ(pool.keptBuffers(), 0);
  }
  EXPECT_EQ(pool.keptBuffers(), 1);
  const HostImageBuffer again = pool.acquire(640 * 480, false);
  EXPECT_EQ(again.pixels(), first);
  EXPECT_EQ(pool.keptBuffers(), 0);
  const HostImageBuffer other = pool.acquire(320 * 240, false);
  EXPECT_NE(other.pixels(), first);
}

TEST(HostImagePool, KeepsNoMoreBuffersOrBytesThanItsLimits) {
  HostImagePool pool({.keptBuffers = 2, .keptBytes = 1000 * sizeof(uint32_t)});
  {
    std::vector<HostImageBuffer> held;
    for (int i = 0; i < 5; ++i) held.push_back(pool.acquire(100, false));
  }
  EXPECT_EQ(pool.keptBuffers(), 2);
  { const HostImageBuffer large = pool.acquire(2000, false); }  // alone beyond keptBytes
  EXPECT_EQ(pool.keptBuffers(), 2);
  {
    std::vector<HostImageBuffer> held;
    for (int i = 0; i < 2; ++i) held.push_back(pool.acquire(450, false));
  }
  EXPECT_EQ(pool.keptBuffers(), 2);  // the older small ones made room
}

TEST(HostImagePool, BuffersOutliveThePoolAndMove) {
  HostImageBuffer kept;
  {
    HostImagePool pool;
    HostImageBuffer buffer = pool.acquire(1000, false);
    buffer.pixels()[999] = 42;
    kept = std::move(buffer);
    EXPECT_EQ(buffer.pixels(), nullptr);
  }
  EXPECT_EQ(kept.pixels()[999], 42u);
  kept = HostImageBuffer();  // freed with no pool left to keep it
  EXPECT_EQ(kept.pixels(), nullptr);
}

TEST(HostImagePool, OrdinaryMemoryForTheCpuBackend) {
  HostImagePool pool;
  const auto renderer = createRenderer("cpu");
  const HostImageBuffer buffer = pool.acquireFor(*renderer, 64 * 64);
  EXPECT_FALSE(buffer.pinned());
  EXPECT_EQ(pool.pinnedBytes(), 0u);
}

TEST(HostImagePool, PinnedMemoryWhereCudaCanPinIt) {
  HostImagePool pool({.pinnedBytes = 3 * 1000 * sizeof(uint32_t)});
  std::string whyNot;
  if (!cudaAvailable(&whyNot)) {
    // Asked for anyway: ordinary memory, never a failure.
    const HostImageBuffer buffer = pool.acquire(1000, true);
    EXPECT_FALSE(buffer.pinned());
    GTEST_SKIP() << whyNot;
  }
  std::vector<HostImageBuffer> held;
  for (int i = 0; i < 4; ++i) held.push_back(pool.acquire(1000, true));
  EXPECT_TRUE(held[0].pinned() && held[1].pinned() && held[2].pinned());
  EXPECT_FALSE(held[3].pinned());  // beyond pinnedBytes
  EXPECT_EQ(pool.pinnedBytes(), 3 * 1000 * sizeof(uint32_t));
  held.clear();
  EXPECT_LE(pool.pinnedBytes(), 3 * 1000 * sizeof(uint32_t));  // kept ones stay pinned
  const auto renderer = createRenderer("cuda");
  EXPECT_TRUE(pool.acquireFor(*renderer, 1000).pinned());  // a kept pinned buffer
}

}  // namespace
}  // namespace pcv
