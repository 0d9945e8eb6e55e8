// The CPU OctreeLodSampler. Sampling goes up a level at a time: the points of a sampling cell are
// consecutive in key order, so each internal node's range is cut into pieces at cell boundaries
// and the pieces are scanned in parallel, each cell's winner moving up to the node.
#include <algorithm>
#include <atomic>

#include "octree_key_sort.hpp"
#include "pcv/core/octree_keys.hpp"
#include "pcv/core/octree_lod.hpp"
#include "pcv/core/parallel.hpp"

namespace pcv {
namespace {

/// Points per piece of work: small enough to balance the cores, large enough to amortise.
constexpr uint64_t kPiecePoints = uint64_t(1) << 18;

struct Piece {
  uint64_t begin, end;
};

/// The pieces of [begin, end) at `level`'s sampling cell boundaries.
void cutAtCells(std::span<const uint64_t> keys, uint64_t begin, uint64_t end, int level,
                std::vector<Piece>& pieces) {
  while (begin < end) {
    uint64_t cut = std::min(end, begin + kPiecePoints);
    if (cut < end) {
      const uint64_t cell = sampleCellAt(keys[cut - 1], level);
      cut = uint64_t(
          std::partition_point(keys.begin() + cut, keys.begin() + end,
                               [&](uint64_t k) { return sampleCellAt(k, level) <= cell; }) -
          keys.begin());
    }
    pieces.push_back({begin, cut});
    begin = cut;
  }
}

/// In each sampling cell of `level` within the piece, the point held at level + 1 nearest the
/// cell's centre (the first among equals) moves up to `level`.
void pickCellWinners(std::span<const uint64_t> keys, std::span<uint8_t> holderLevel,
                     const Piece& piece, int level) {
  const uint8_t childLevel = uint8_t(level + 1);
  uint64_t cell = 0;
  uint32_t bestDistance = 0;
  uint64_t best = piece.end;  // none yet
  for (uint64_t p = piece.begin; p < piece.end; ++p) {
    if (holderLevel[p] != childLevel) continue;
    const uint64_t key = keys[p];
    const uint64_t pointCell = sampleCellAt(key, level);
    const uint32_t distance = sampleCellDistance(key, level);
    if (best == piece.end || pointCell != cell) {
      if (best != piece.end) holderLevel[best] = uint8_t(level);
      cell = pointCell;
      bestDistance = distance;
      best = p;
    } else if (distance < bestDistance) {
      bestDistance = distance;
      best = p;
    }
  }
  if (best != piece.end) holderLevel[best] = uint8_t(level);
}

class CpuOctreeLodSampler : public OctreeLodSampler {
 public:
  const char* name() const override { return "cpu"; }

  void sortKeys(std::span<const uint64_t> keys, std::span<uint64_t> sortedKeys,
                std::span<uint32_t> order) override {
    sortOctreeKeys(keys, sortedKeys, order);
  }

  void sampleLevels(std::span<const uint64_t> sortedKeys, const LodTree& tree,
                    std::span<uint8_t> holderLevel) override {
    if (tree.nodes.empty()) return;
    int deepestInternal = -1;
    for (const LodNode& node : tree.nodes) {
      if (!node.leaf) deepestInternal = std::max(deepestInternal, node.level);
    }
    parallelForEachDynamic(tree.nodes.size(), [&](size_t n) {
      const LodNode& node = tree.nodes[n];
      if (node.leaf) {
        std::fill(holderLevel.begin() + node.begin, holderLevel.begin() + node.end,
                  uint8_t(node.level));
      }
    });
    std::vector<Piece> pieces;
    for (int level = deepestInternal; level >= tree.nodes[0].level; --level) {
      pieces.clear();
      for (const LodNode& node : tree.nodes) {
        if (!node.leaf && node.level == level)
          cutAtCells(sortedKeys, node.begin, node.end, level, pieces);
      }
      parallelForEachDynamic(pieces.size(), [&](size_t i) {
        pickCellWinners(sortedKeys, holderLevel, pieces[i], level);
      });
    }
  }
};

}  // namespace

std::unique_ptr<OctreeLodSampler> makeCpuOctreeLodSampler() {
  return std::make_unique<CpuOctreeLodSampler>();
}

}  // namespace pcv
