// A part in memory: keys from the records, sorted (equal keys ordered by their records' bytes, so
// the result depends only on which records there are, not on the order they came in), the node
// tree, the sampling, then the nodes' records gathered and encoded in rounds of a few nodes per
// core. Memory per point: the record, 8 bytes of key, 4 of order, 1 of level, 4 of grouping
// (and 8 more of unsorted keys while sorting).
#include "octree_parts.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <numeric>

#include "pcv/core/parallel.hpp"
#include "phase_timer.hpp"

namespace pcv::io {
namespace {

/// Byte offset of the GPS time in point formats 6-10.
constexpr uint32_t kGpsTimeOffset = 22;

template <typename T>
void release(UninitializedVector<T>& v) {
  UninitializedVector<T>().swap(v);
}

/// Keys of every record, and the GPS time range.
UninitializedVector<uint64_t> keysOf(OctreeBuild& build, const uint8_t* records, uint64_t count) {
  UninitializedVector<uint64_t> keys(count);
  const uint32_t length = build.recordLength;
  parallelFor(count, [&](uint64_t begin, uint64_t end) {
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    for (uint64_t i = begin; i < end; ++i) {
      const uint8_t* r = records + i * length;
      int32_t xyz[3];
      std::memcpy(xyz, r, 12);
      keys[i] = build.quantizer.keyOf(xyz);
      double gps;
      std::memcpy(&gps, r + kGpsTimeOffset, 8);
      low = std::min(low, gps);
      high = std::max(high, gps);
    }
    std::lock_guard lock(build.gpsMutex);
    build.gpsTimeMin = std::min(build.gpsTimeMin, low);
    build.gpsTimeMax = std::max(build.gpsTimeMax, high);
  });
  return keys;
}

/// Within each run of equal keys, orders the points by their records' bytes (then by index).
void orderEqualKeysByRecord(std::span<const uint64_t> keys, std::span<uint32_t> order,
                            const uint8_t* records, uint32_t length) {
  parallelFor(keys.size(), [&](uint64_t begin, uint64_t end) {
    // Runs belong to the range they start in.
    while (begin > 0 && begin < end && keys[begin] == keys[begin - 1]) ++begin;
    for (uint64_t run = begin; run < end;) {
      uint64_t runEnd = run + 1;
      while (runEnd < keys.size() && keys[runEnd] == keys[run]) ++runEnd;
      if (runEnd - run > 1) {
        std::sort(order.begin() + run, order.begin() + runEnd, [&](uint32_t a, uint32_t b) {
          const int c =
              std::memcmp(records + uint64_t(a) * length, records + uint64_t(b) * length, length);
          return c < 0 || (c == 0 && a < b);
        });
      }
      run = runEnd;
    }
  });
}

/// The sorted points of a part with the node holding each: writes every node but the root.
struct SampledPart {
  const LodTree& tree;
  std::span<const uint64_t> keys;   ///< in key order
  std::span<const uint32_t> order;  ///< record index of each sorted point
  std::span<const uint8_t> holderLevel;
  const uint8_t* records;
  /// Per node: nodes were written below it before this part (children built apart).
  std::vector<bool> nodesBelowBefore;
};

HeldPoints finishPart(OctreeBuild& build, const SampledPart& part) {
  const LodTree& tree = part.tree;
  CopcPhaseTimes& phases = build.phases;
  const size_t nodeCount = tree.nodes.size();
  LodNodePoints points;
  // A node is listed when it or a node below it has points.
  std::vector<bool> listed(nodeCount, false);
  {
    PhaseTimer timer(phases.grouping);
    points = lodNodePoints(tree, part.holderLevel);
    for (size_t n = nodeCount; n-- > 0;) {
      if (points.countOf(n) > 0 || (!part.nodesBelowBefore.empty() && part.nodesBelowBefore[n]))
        listed[n] = true;
      if (listed[n] && tree.nodes[n].parent >= 0) listed[tree.nodes[n].parent] = true;
    }
  }
  const uint32_t length = build.recordLength;
  auto gather = [&](size_t node, uint8_t* into) {
    for (const uint32_t p : points.of(node)) {
      std::memcpy(into, part.records + uint64_t(part.order[p]) * length, length);
      into += length;
    }
  };
  // Nodes below the root, a round of them at a time: gathered and encoded in parallel.
  std::vector<size_t> round;
  std::vector<uint64_t> roundOffsets;
  UninitializedVector<uint8_t> roundRecords;
  auto flush = [&] {
    if (round.empty()) return;
    {
      PhaseTimer timer(phases.gathering);
      roundRecords.resize(roundOffsets.back() * length);
      // Largest nodes first, so that no core is left with a large one when the rest are done.
      std::vector<size_t> largestFirst(round.size());
      std::iota(largestFirst.begin(), largestFirst.end(), size_t(0));
      std::stable_sort(largestFirst.begin(), largestFirst.end(), [&](size_t a, size_t b) {
        return points.countOf(round[a]) > points.countOf(round[b]);
      });
      parallelForEachDynamic(round.size(), [&](size_t taken) {
        const size_t i = largestFirst[taken];
        gather(round[i], roundRecords.data() + roundOffsets[i] * length);
      });
    }
    std::vector<CopcNodeRecords> nodes;
    for (size_t i = 0; i < round.size(); ++i) {
      const LodNode& node = tree.nodes[round[i]];
      nodes.push_back({.key = copcKeyOf(node.level, node.key),
                       .records = roundRecords.data() + roundOffsets[i] * length,
                       .count = points.countOf(round[i])});
    }
    build.writer.writeNodes(nodes);
    if (build.progress) {
      build.progress->pointsWritten += roundOffsets.back();
      build.progress->nodesWritten += round.size();
    }
    stopIfCancelled(build.progress);
    round.clear();
    roundOffsets.assign(1, 0);
  };
  roundOffsets.assign(1, 0);
  bool nodesBelow = false;
  for (size_t n = 1; n < nodeCount; ++n) {
    if (!listed[n]) continue;
    nodesBelow = true;
    const uint64_t count = points.countOf(n);
    if (count == 0) {
      const LodNode& node = tree.nodes[n];
      build.writer.addEmptyNode(copcKeyOf(node.level, node.key));
      continue;
    }
    round.push_back(n);
    roundOffsets.push_back(roundOffsets.back() + count);
    if (roundOffsets.back() >= build.encodeRoundPoints) flush();
  }
  flush();
  HeldPoints held;
  if (nodeCount == 0) return held;
  held.level = tree.nodes[0].level;
  held.key = tree.nodes[0].key;
  held.nodesBelow = nodesBelow;
  const uint64_t heldCount = points.countOf(0);
  held.records.resize(heldCount * length);
  held.keys.resize(heldCount);
  PhaseTimer timer(phases.gathering);
  gather(0, held.records.data());
  const std::span<const uint32_t> rootPoints = points.of(0);
  for (uint64_t i = 0; i < heldCount; ++i) held.keys[i] = part.keys[rootPoints[i]];
  return held;
}

}  // namespace

CopcNodeKey copcKeyOf(int level, uint64_t key) {
  return {.level = level,
          .x = int32_t(compactOctreeBits(key)),
          .y = int32_t(compactOctreeBits(key >> 1)),
          .z = int32_t(compactOctreeBits(key >> 2))};
}

void stopIfCancelled(const CopcWriteProgress* progress) {
  if (progress && progress->cancel.load()) throw ConversionCancelled("conversion cancelled");
}

HeldPoints buildPart(OctreeBuild& build, int level, uint64_t key,
                     UninitializedVector<uint8_t> records) {
  const uint32_t length = build.recordLength;
  const uint64_t count = records.size() / length;
  CopcPhaseTimes& phases = build.phases;
  UninitializedVector<uint64_t> keys =
      timed(phases.keys, [&] { return keysOf(build, records.data(), count); });
  UninitializedVector<uint64_t> sortedKeys(count);
  UninitializedVector<uint32_t> order(count);
  timed(phases.sort, [&] { build.sampler.sortKeys(keys, sortedKeys, order); });
  release(keys);
  stopIfCancelled(build.progress);
  timed(phases.ties, [&] { orderEqualKeysByRecord(sortedKeys, order, records.data(), length); });
  const LodTree tree = timed(
      phases.tree, [&] { return buildLodTree(sortedKeys, level, key, build.maxPointsPerNode); });
  UninitializedVector<uint8_t> holderLevel(count);
  timed(phases.sampling, [&] { build.sampler.sampleLevels(sortedKeys, tree, holderLevel); });
  stopIfCancelled(build.progress);
  HeldPoints held = finishPart(build, {.tree = tree,
                                       .keys = sortedKeys,
                                       .order = order,
                                       .holderLevel = holderLevel,
                                       .records = records.data()});
  if (count == 0) {
    held.level = level;
    held.key = key;
  }
  return held;
}

HeldPoints sampleAboveParts(OctreeBuild& build, int level, uint64_t key,
                            std::vector<HeldPoints> children) {
  const uint32_t length = build.recordLength;
  std::vector<uint64_t> childCounts;
  uint64_t total = 0;
  for (const HeldPoints& child : children) {
    childCounts.push_back(child.count());
    total += child.count();
  }
  CopcPhaseTimes& phases = build.phases;
  UninitializedVector<uint8_t> records(total * length);
  UninitializedVector<uint64_t> keys(total);
  std::vector<uint64_t> childEnds;
  {
    PhaseTimer timer(phases.merging);
    uint64_t at = 0;
    for (HeldPoints& child : children) {
      std::copy(child.records.begin(), child.records.end(), records.begin() + at * length);
      std::copy(child.keys.begin(), child.keys.end(), keys.begin() + at);
      at += child.count();
      childEnds.push_back(at);
      release(child.records);
      release(child.keys);
    }
  }
  const LodTree tree =
      timed(phases.tree, [&] { return lodTreeOverChildren(keys, level, key, childEnds); });
  std::vector<bool> nodesBelowBefore(tree.nodes.size(), false);
  {
    // The tree's children are the non-empty ones, in order.
    size_t node = 1;
    for (size_t c = 0; c < children.size(); ++c) {
      if (childCounts[c] > 0) nodesBelowBefore[node++] = children[c].nodesBelow;
    }
  }
  UninitializedVector<uint32_t> order(total);
  std::iota(order.begin(), order.end(), 0u);
  UninitializedVector<uint8_t> holderLevel(total);
  // Few points (what a node's children hold): the CPU sampler needs no transfers.
  timed(phases.sampling, [&] { makeCpuOctreeLodSampler()->sampleLevels(keys, tree, holderLevel); });
  HeldPoints held = finishPart(build, {.tree = tree,
                                       .keys = keys,
                                       .order = order,
                                       .holderLevel = holderLevel,
                                       .records = records.data(),
                                       .nodesBelowBefore = std::move(nodesBelowBefore)});
  held.level = level;
  held.key = key;
  // Children that hold nothing may still have nodes below them, listed with an empty entry.
  for (size_t c = 0; c < children.size(); ++c) {
    if (childCounts[c] == 0 && children[c].nodesBelow) {
      build.writer.addEmptyNode(copcKeyOf(children[c].level, children[c].key));
      held.nodesBelow = true;
    }
  }
  return held;
}

void writeRoot(OctreeBuild& build, HeldPoints root) {
  if (root.count() == 0) return;  // the hierarchy lists an empty root by itself
  const CopcNodeRecords node{
      .key = copcKeyOf(0, 0), .records = root.records.data(), .count = root.count()};
  build.writer.writeNodes({&node, 1});
  if (build.progress) {
    build.progress->pointsWritten += root.count();
    build.progress->nodesWritten += 1;
  }
}

}  // namespace pcv::io
