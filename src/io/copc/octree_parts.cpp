// A part in memory: keys from the records, sorted (equal keys ordered by their records' bytes, so
// the result depends only on which records there are, not on the order they came in), the node
// tree, the sampling, then the nodes' records gathered and encoded in rounds of a few nodes per
// core. Memory per point: the record, 8 bytes of key, 4 of order, 1 of level, 4 of grouping
// (and 8 more of unsorted keys while sorting).
#include "octree_parts.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <future>
#include <numeric>

#include "common/byte_order.hpp"
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
      const double gps = loadLe<double>(r + kGpsTimeOffset);
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

/// Nodes with no points of their own but nodes below them (listed with an empty entry), then
/// nodes whose records are gathered and encoded together, in one parallel round.
struct EncodingRound {
  std::vector<size_t> emptyNodes;
  std::vector<size_t> nodes;
  std::vector<uint64_t> offsets{0};  ///< of each node's records in the round; the last: the total
};

/// The nodes below the root, in tree order, cut into rounds of about `roundPoints` points.
std::vector<EncodingRound> planRounds(const LodTree& tree, const LodNodePoints& points,
                                      const std::vector<bool>& listed, uint64_t roundPoints) {
  std::vector<EncodingRound> rounds(1);
  for (size_t n = 1; n < tree.nodes.size(); ++n) {
    if (!listed[n]) continue;
    EncodingRound& round = rounds.back();
    const uint64_t count = points.countOf(n);
    if (count == 0) {
      round.emptyNodes.push_back(n);
      continue;
    }
    round.nodes.push_back(n);
    round.offsets.push_back(round.offsets.back() + count);
    if (round.offsets.back() >= roundPoints) rounds.emplace_back();
  }
  if (rounds.back().nodes.empty() && rounds.back().emptyNodes.empty()) rounds.pop_back();
  return rounds;
}

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
  const std::vector<EncodingRound> rounds =
      planRounds(tree, points, listed, build.encodeRoundPoints);
  // A round's records are gathered while the round before it is encoded (two buffers): the
  // gathering waits on memory, the encoding on arithmetic, so they share the cores well.
  UninitializedVector<uint8_t> gathered[2];
  auto gatherRound = [&](const EncodingRound& round, UninitializedVector<uint8_t>& into) {
    into.resize(round.offsets.back() * length);
    // Largest nodes first, so that no core is left with a large one when the rest are done.
    std::vector<size_t> largestFirst(round.nodes.size());
    std::iota(largestFirst.begin(), largestFirst.end(), size_t(0));
    std::stable_sort(largestFirst.begin(), largestFirst.end(), [&](size_t a, size_t b) {
      return points.countOf(round.nodes[a]) > points.countOf(round.nodes[b]);
    });
    parallelForEachDynamic(round.nodes.size(), [&](size_t taken) {
      const size_t i = largestFirst[taken];
      gather(round.nodes[i], into.data() + round.offsets[i] * length);
    });
  };
  // Declared after the buffers it fills, so that leaving early (an error, a cancel) waits for it
  // before they go.
  std::future<double> gatheringAhead;
  auto waitForGathering = [&] {
    if (!gatheringAhead.valid()) return;
    PhaseTimer timer(phases.gathering);
    phases.gatheringAhead += gatheringAhead.get();
  };
  if (!rounds.empty()) timed(phases.gathering, [&] { gatherRound(rounds[0], gathered[0]); });
  for (size_t r = 0; r < rounds.size(); ++r) {
    if (r + 1 < rounds.size()) {
      gatheringAhead = std::async(std::launch::async, [&, r, limit = WorkerLimit::current()] {
        const WorkerLimit inherited(limit);  // this conversion's share of the cores
        double seconds = 0.0;
        timed(seconds, [&] { gatherRound(rounds[r + 1], gathered[(r + 1) & 1]); });
        return seconds;
      });
    }
    const EncodingRound& round = rounds[r];
    for (const size_t n : round.emptyNodes) {
      build.writer.addEmptyNode(copcKeyOf(tree.nodes[n].level, tree.nodes[n].key));
    }
    if (!round.nodes.empty()) {
      std::vector<CopcNodeRecords> nodes;
      for (size_t i = 0; i < round.nodes.size(); ++i) {
        const LodNode& node = tree.nodes[round.nodes[i]];
        nodes.push_back({.key = copcKeyOf(node.level, node.key),
                         .records = gathered[r & 1].data() + round.offsets[i] * length,
                         .count = points.countOf(round.nodes[i])});
      }
      build.writer.writeNodes(nodes);
      if (build.progress) {
        build.progress->pointsWritten += round.offsets.back();
        build.progress->nodesWritten += round.nodes.size();
      }
    }
    waitForGathering();
    stopIfCancelled(build.progress);
  }
  const bool nodesBelow =
      std::any_of(listed.begin() + (nodeCount > 0 ? 1 : 0), listed.end(), [](bool l) { return l; });
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
