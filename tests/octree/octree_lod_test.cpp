// The level-of-detail octree's pieces: keys interleave and come apart again, the parallel sort
// agrees with std::sort, the node tree splits exactly the nodes over the limit, and the sampling
// picks what a direct reading of its definition picks (random points, clustered points, equal
// keys).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "pcv/octree/octree_keys.hpp"
#include "pcv/octree/octree_lod.hpp"

namespace pcv::test {
namespace {

TEST(OctreeKeys, InterleaveAndComeApart) {
  std::mt19937 random(3);
  for (int i = 0; i < 10000; ++i) {
    const uint32_t x = random() & 0x1FFFFF, y = random() & 0x1FFFFF, z = random() & 0x1FFFFF;
    const uint64_t key = octreeKey(x, y, z);
    EXPECT_EQ(compactOctreeBits(key), x);
    EXPECT_EQ(compactOctreeBits(key >> 1), y);
    EXPECT_EQ(compactOctreeBits(key >> 2), z);
    // The level-1 node is the top bit of each axis, x lowest.
    EXPECT_EQ(nodeKeyAt(key, 1), uint64_t((x >> 20) | ((y >> 20) << 1) | ((z >> 20) << 2)));
  }
  EXPECT_EQ(octreeKey(0x1FFFFF, 0x1FFFFF, 0x1FFFFF), (uint64_t(1) << 63) - 1);
}

TEST(OctreeKeys, CellDistanceIsZeroNowhereAndLargestAtCorners) {
  // Level 13: cells are two octree coordinates wide; the coordinate centres lie at 0.5 and 1.5,
  // a quarter cell from the centre at 1 on each axis: 4 * 3 * 0.5^2 = 3.
  EXPECT_EQ(sampleCellDistance(octreeKey(0, 0, 0), 13), 3u);
  EXPECT_EQ(sampleCellDistance(octreeKey(1, 1, 1), 13), 3u);
  // Level 0: 2^14 coordinates per cell; the corner coordinate is 2^14 - 1/2 from the centre.
  const double half = 8192.0 - 0.5;
  EXPECT_EQ(sampleCellDistance(octreeKey(0, 0, 0), 0), uint32_t(4 * 3 * half * half));
}

TEST(OctreeKeys, QuantizerMapsTheCubeOntoTheCoordinates) {
  OctreeQuantizer q;
  q.cornerSteps[0] = -100;
  q.cornerSteps[1] = 0;
  q.cornerSteps[2] = 50;
  for (double& c : q.coordinatesPerStep) c = double(1 << 21) / 1000.0;  // 1000 steps per edge
  const int32_t corner[3] = {-100, 0, 50};
  EXPECT_EQ(q.keyOf(corner), 0u);
  EXPECT_TRUE(q.contains(corner));
  const int32_t farCorner[3] = {899, 999, 1049};
  EXPECT_TRUE(q.contains(farCorner));
  EXPECT_EQ(compactOctreeBits(q.keyOf(farCorner)), uint32_t(999.0 * (1 << 21) / 1000.0));
  const int32_t outside[3] = {900, 0, 50};
  EXPECT_FALSE(q.contains(outside));
  const int32_t below[3] = {-101, 0, 50};
  EXPECT_FALSE(q.contains(below));
}

std::vector<uint64_t> randomKeys(size_t n, uint64_t seed, int clusterBits) {
  std::mt19937_64 random(seed);
  std::vector<uint64_t> keys(n);
  // Clustered: a few top-level cells hold everything (as surfaces do), with many equal keys.
  for (uint64_t& k : keys) {
    const uint64_t cluster = (random() % 5) << (63 - 6);
    k = cluster | (random() & ((uint64_t(1) << clusterBits) - 1));
  }
  return keys;
}

TEST(OctreeLod, SortAgreesWithStdSort) {
  for (const auto& [n, bits] : std::vector<std::pair<size_t, int>>{
           {0, 10}, {1, 10}, {700, 50}, {100000, 57}, {300000, 12}, {200000, 0}}) {
    SCOPED_TRACE(::testing::Message() << n << " keys, " << bits << " random bits");
    const std::vector<uint64_t> keys = randomKeys(n, n + bits, bits);
    std::vector<uint64_t> sorted(n);
    std::vector<uint32_t> order(n);
    makeCpuOctreeLodSampler()->sortKeys(keys, sorted, order);
    std::vector<uint64_t> expected = keys;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(sorted, expected);
    std::vector<bool> seen(n, false);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_LT(order[i], n);
      EXPECT_FALSE(seen[order[i]]);
      seen[order[i]] = true;
      EXPECT_EQ(keys[order[i]], sorted[i]);
    }
  }
}

/// Points spread over a few clustered regions, as sorted keys.
std::vector<uint64_t> sortedCloud(size_t n, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<uint64_t> keys;
  std::normal_distribution<double> spread(0.0, 60000.0);
  const uint32_t centres[3][3] = {
      {400000, 500000, 900000}, {1500000, 200000, 300000}, {1000000, 1000000, 1000000}};
  for (size_t i = 0; i < n; ++i) {
    const auto& c = centres[i % 3];
    uint32_t q[3];
    for (int a = 0; a < 3; ++a) {
      q[a] = uint32_t(std::clamp(double(c[a]) + spread(random), 0.0, double((1 << 21) - 1)));
    }
    // Some points repeat exactly, as duplicates in scans do.
    keys.push_back(i % 17 == 0 && !keys.empty() ? keys.back() : octreeKey(q[0], q[1], q[2]));
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

TEST(OctreeLod, TreeSplitsExactlyTheNodesOverTheLimit) {
  const std::vector<uint64_t> keys = sortedCloud(50000, 1);
  const LodTree tree = buildLodTree(keys, 0, 0, 1000);
  ASSERT_FALSE(tree.nodes.empty());
  uint64_t leafPoints = 0;
  for (size_t n = 0; n < tree.nodes.size(); ++n) {
    const LodNode& node = tree.nodes[n];
    EXPECT_EQ(node.leaf, node.end - node.begin <= 1000 || node.level == kMaxOctreeLevel);
    for (uint64_t p = node.begin; p < node.end; ++p)
      EXPECT_EQ(nodeKeyAt(keys[p], node.level), node.key);
    if (node.leaf) leafPoints += node.end - node.begin;
    if (node.parent >= 0) {
      EXPECT_EQ(node.key >> 3, tree.nodes[node.parent].key);
      EXPECT_EQ(node.level, tree.nodes[node.parent].level + 1);
    }
  }
  EXPECT_EQ(leafPoints, keys.size()) << "the leaves hold every point once";
}

/// The sampling as its definition reads: each internal node, children first, keeps per grid cell
/// the point of its children's nearest the cell's centre.
std::vector<uint8_t> referenceSampling(const std::vector<uint64_t>& keys, const LodTree& tree) {
  std::vector<uint8_t> holder(keys.size());
  std::vector<std::vector<uint64_t>> held(tree.nodes.size());
  for (size_t n = tree.nodes.size(); n-- > 0;) {
    const LodNode& node = tree.nodes[n];
    if (node.leaf) {
      for (uint64_t p = node.begin; p < node.end; ++p) held[n].push_back(p);
      continue;
    }
    std::vector<uint64_t> candidates;
    for (size_t c = n + 1; c < tree.nodes.size(); ++c) {
      if (tree.nodes[c].parent == int32_t(n))
        candidates.insert(candidates.end(), held[c].begin(), held[c].end());
    }
    std::map<uint64_t, uint64_t> winner;  // cell -> point
    for (const uint64_t p : candidates) {
      const uint64_t cell = sampleCellAt(keys[p], node.level);
      auto it = winner.find(cell);
      if (it == winner.end()) {
        winner[cell] = p;
      } else {
        const uint32_t d = sampleCellDistance(keys[p], node.level);
        const uint32_t best = sampleCellDistance(keys[it->second], node.level);
        if (d < best || (d == best && p < it->second)) it->second = p;
      }
    }
    std::set<uint64_t> picked;
    for (const auto& [cell, p] : winner) picked.insert(p);
    for (size_t c = n + 1; c < tree.nodes.size(); ++c) {
      if (tree.nodes[c].parent != int32_t(n)) continue;
      std::erase_if(held[c], [&](uint64_t p) { return picked.contains(p); });
    }
    held[n].assign(picked.begin(), picked.end());
  }
  for (size_t n = 0; n < tree.nodes.size(); ++n) {
    for (const uint64_t p : held[n]) holder[p] = uint8_t(tree.nodes[n].level);
  }
  return holder;
}

TEST(OctreeLod, SamplingMatchesItsDefinition) {
  for (const uint64_t maxPoints : {50u, 700u, 5000u}) {
    SCOPED_TRACE(maxPoints);
    const std::vector<uint64_t> keys = sortedCloud(40000, maxPoints);
    const LodTree tree = buildLodTree(keys, 0, 0, maxPoints);
    std::vector<uint8_t> holder(keys.size(), 0xFF);
    makeCpuOctreeLodSampler()->sampleLevels(keys, tree, holder);
    const std::vector<uint8_t> expected = referenceSampling(keys, tree);
    EXPECT_EQ(holder, expected);
    // Grouped by node, every point once, in ascending order.
    const LodNodePoints points = lodNodePoints(tree, holder);
    std::vector<bool> seen(keys.size(), false);
    for (size_t n = 0; n < tree.nodes.size(); ++n) {
      const std::span<const uint32_t> of = points.of(n);
      EXPECT_TRUE(std::is_sorted(of.begin(), of.end()));
      for (const uint32_t p : of) {
        EXPECT_FALSE(seen[p]);
        seen[p] = true;
        EXPECT_EQ(holder[p], tree.nodes[n].level);
        EXPECT_GE(p, tree.nodes[n].begin);
        EXPECT_LT(p, tree.nodes[n].end);
      }
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), true), long(keys.size()));
  }
}

TEST(OctreeLod, AParentSamplesChildrenBuiltApart) {
  const std::vector<uint64_t> keys = sortedCloud(9000, 4);
  // The level-1 nodes as children built apart, each already holding all its points.
  std::vector<uint64_t> childEnds;
  for (size_t p = 1; p <= keys.size(); ++p) {
    if (p == keys.size() || nodeKeyAt(keys[p], 1) != nodeKeyAt(keys[p - 1], 1))
      childEnds.push_back(p);
  }
  const LodTree tree = lodTreeOverChildren(keys, 0, 0, childEnds);
  ASSERT_EQ(tree.nodes.size(), childEnds.size() + 1);
  std::vector<uint8_t> holder(keys.size(), 0xFF);
  makeCpuOctreeLodSampler()->sampleLevels(keys, tree, holder);
  EXPECT_EQ(holder, referenceSampling(keys, tree));
  std::set<uint64_t> rootCells;
  for (size_t p = 0; p < keys.size(); ++p) {
    if (holder[p] == 0) {
      EXPECT_TRUE(rootCells.insert(sampleCellAt(keys[p], 0)).second);
    }
  }
  std::set<uint64_t> occupied;
  for (const uint64_t k : keys) occupied.insert(sampleCellAt(k, 0));
  EXPECT_EQ(rootCells, occupied) << "the root holds one point in every occupied cell";
}

}  // namespace
}  // namespace pcv::test
