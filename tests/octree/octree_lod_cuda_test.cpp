// The GPU's sort of octree keys and sampling of levels against the CPU's: the same sorted keys, an
// order that is a stable permutation, every point held at the CPU's level, and a COPC file
// identical byte for byte to the CPU's, in memory and through temporary files. Skipped (never
// passed) without a usable GPU or without CUDA in the build.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "io_test_util.hpp"
#include "pcv/octree/octree_keys.hpp"
#include "pcv/octree/octree_lod.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinders.hpp"
#include "test_support.hpp"
#if PCV_WITH_CUDA
#include "pcv/octree/octree_lod_cuda.hpp"
#endif

namespace pcv::test {
namespace {

#if PCV_WITH_CUDA

/// Keys as a part's are: `sharedBits` top bits equal (the part's cube), the rest random within
/// `randomBits`, so small widths give many equal keys.
std::vector<uint64_t> partKeys(size_t n, uint64_t seed, int sharedBits, int randomBits) {
  std::mt19937_64 random(seed);
  const uint64_t prefix = sharedBits > 0 ? (random() >> (64 - sharedBits)) << (63 - sharedBits) : 0;
  const uint64_t mask = randomBits > 0 ? (uint64_t(1) << randomBits) - 1 : 0;
  std::vector<uint64_t> keys(n);
  for (uint64_t& key : keys) key = prefix | (random() & mask);
  return keys;
}

std::vector<uint8_t> fileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

PointRecordSource cylinderSource(uint64_t count, uint64_t seed) {
  return [=] {
    Box3d bounds;
    bounds.extend(glm::dvec3(-3.0));
    bounds.extend(glm::dvec3(3.0));
    return producedRecords(std::make_shared<CylinderProducer>(makeCylinderSet(seed), count), bounds,
                           glm::dvec3(0.0), 7);
  };
}

#endif

TEST(CudaOctreeKeySort, SortsAsTheCpuDoesAndStably) {
  PCV_REQUIRE_CUDA();
#if PCV_WITH_CUDA
  struct Case {
    size_t n;
    int sharedBits, randomBits;
  };
  for (const Case& c : std::vector<Case>{{1, 0, 63},
                                         {1000, 0, 63},
                                         {1000003, 0, 63},    // not a multiple of any tile
                                         {2000000, 9, 54},    // a level-3 part
                                         {1500000, 9, 16},    // runs of equal keys
                                         {300000, 63, 0}}) {  // every key equal
    SCOPED_TRACE(::testing::Message() << c.n << " keys, " << c.sharedBits << " shared bits, "
                                      << c.randomBits << " random");
    const std::vector<uint64_t> keys =
        partKeys(c.n, c.n + c.randomBits, c.sharedBits, c.randomBits);
    std::vector<uint64_t> cpuSorted(c.n);
    std::vector<uint32_t> cpuOrder(c.n);
    makeCpuOctreeLodSampler()->sortKeys(keys, cpuSorted, cpuOrder);
    // Poisoned, so that an element the GPU did not write shows.
    std::vector<uint64_t> sorted(c.n, ~uint64_t(0));
    std::vector<uint32_t> order(c.n, ~uint32_t(0));
    ASSERT_TRUE(sortOctreeKeysOnGpu(keys, sorted, order)) << "the GPU had no room";
    EXPECT_TRUE(sorted == cpuSorted);
    std::vector<bool> seen(c.n, false);
    size_t wrong = 0;
    for (size_t i = 0; i < c.n; ++i) {
      const uint32_t from = order[i];
      if (from >= c.n || seen[from] || keys[from] != sorted[i] ||
          (i > 0 && sorted[i] == sorted[i - 1] && order[i - 1] >= from)) {
        ++wrong;
        continue;
      }
      seen[from] = true;
    }
    EXPECT_EQ(wrong, 0u) << "positions whose order entry is out of range, repeated, names "
                            "another key, or breaks index order among equal keys";
  }
#endif
}

TEST(CudaOctreeLodSampling, HoldsEveryPointAtTheCpusLevel) {
  PCV_REQUIRE_CUDA();
#if PCV_WITH_CUDA
  struct Case {
    size_t n;
    int sharedBits, randomBits;
    int rootLevel;
    uint64_t maxPointsPerNode;
  };
  for (const Case& c : std::vector<Case>{{1, 0, 63, 0, 100},
                                         {5000, 0, 63, 0, 10000},      // the root alone
                                         {300001, 0, 63, 0, 1000},     // deep, uneven leaves
                                         {400000, 9, 54, 3, 2000},     // a level-3 part
                                         {300000, 9, 18, 3, 500},      // equal keys: ties
                                         {200000, 63, 0, 0, 3000}}) {  // every key equal
    SCOPED_TRACE(::testing::Message()
                 << c.n << " keys, " << c.sharedBits << " shared bits, " << c.randomBits
                 << " random, nodes of " << c.maxPointsPerNode);
    const std::vector<uint64_t> keys = partKeys(c.n, c.n + 7, c.sharedBits, c.randomBits);
    const std::unique_ptr<OctreeLodSampler> cpu = makeCpuOctreeLodSampler();
    std::vector<uint64_t> sorted(c.n);
    std::vector<uint32_t> order(c.n);
    cpu->sortKeys(keys, sorted, order);
    const LodTree tree =
        buildLodTree(sorted, c.rootLevel, nodeKeyAt(sorted[0], c.rootLevel), c.maxPointsPerNode);
    std::vector<uint8_t> expected(c.n);
    cpu->sampleLevels(sorted, tree, expected);
    // Poisoned, so that an entry the GPU did not write shows.
    std::vector<uint8_t> held(c.n, 0xEE);
    ASSERT_TRUE(sampleOctreeLevelsOnGpu(sorted, tree, held)) << "the GPU had no room";
    size_t differing = 0;
    for (size_t i = 0; i < c.n; ++i) differing += held[i] != expected[i];
    EXPECT_EQ(differing, 0u) << "points held at another level than the CPU's, of " << c.n << " in "
                             << tree.nodes.size() << " nodes";
    // Through the sampler, whose sampling starts from the keys its sort left on the GPU.
    const std::unique_ptr<OctreeLodSampler> gpu = makeCudaOctreeLodSampler();
    std::vector<uint64_t> gpuSorted(c.n);
    std::vector<uint32_t> gpuOrder(c.n);
    gpu->sortKeys(keys, gpuSorted, gpuOrder);
    ASSERT_TRUE(gpuSorted == sorted);
    std::fill(held.begin(), held.end(), 0xEE);
    gpu->sampleLevels(gpuSorted, tree, held);
    EXPECT_TRUE(held == expected) << "the sampler's levels differ from the CPU's";
  }
#endif
}

TEST(CudaOctreeKeySort, WritesTheSameCopcFileAsTheCpu) {
  PCV_REQUIRE_CUDA();
#if PCV_WITH_CUDA
  TempDir dir;
  constexpr uint64_t kPoints = 300000;
  const std::unique_ptr<OctreeLodSampler> gpu = makeCudaOctreeLodSampler();
  const std::unique_ptr<OctreeLodSampler> cpu = makeCpuOctreeLodSampler();
  ASSERT_STREQ(gpu->name(), "cuda");
  // In memory as one part, then through temporary files (parts of about 25 000 points).
  for (const uint64_t memoryBytes : {uint64_t(0), uint64_t(2560) << 10}) {
    SCOPED_TRACE(memoryBytes ? "through temporary files" : "in memory");
    CopcWriteOptions options{
        .memoryBytes = memoryBytes, .tempDirectory = dir.file(""), .maxPointsPerNode = 3000};
    options.sampler = cpu.get();
    writeCopcFile(cylinderSource(kPoints, 4), dir.file("cpu.copc.laz"), options);
    options.sampler = gpu.get();
    writeCopcFile(cylinderSource(kPoints, 4), dir.file("gpu.copc.laz"), options);
    const std::vector<uint8_t> a = fileBytes(dir.file("cpu.copc.laz"));
    const std::vector<uint8_t> b = fileBytes(dir.file("gpu.copc.laz"));
    ASSERT_GT(a.size(), kPoints);
    EXPECT_TRUE(a == b) << a.size() << " and " << b.size() << " bytes";
  }
#endif
}

}  // namespace
}  // namespace pcv::test
