// The CPU OctreeLodSampler. Sampling goes up a level at a time, deepest first: in each internal
// node, every sampling cell's winner among the points its children hold moves up to the node.
// The points a child holds are all of a leaf's, or the winners an internal child kept, so each
// level scans those lists, not the node's whole range: the points are read about once in all,
// not once per level.
#include <algorithm>
#include <vector>

#include "octree_key_sort.hpp"
#include "pcv/octree/octree_keys.hpp"
#include "pcv/octree/octree_lod.hpp"
#include "pcv/core/parallel.hpp"

namespace pcv {
namespace {

/// The winner of each sampling cell of `level`, from candidates visited in key order: the one
/// nearest the cell's centre, the first among equals.
class CellWinners {
 public:
  CellWinners(std::span<const uint64_t> keys, int level, std::vector<uint32_t>& winners)
      : keys_(keys), level_(level), winners_(winners) {}

  void offer(uint32_t p) {
    const uint64_t key = keys_[p];
    const uint64_t cell = sampleCellAt(key, level_);
    const uint32_t distance = sampleCellDistance(key, level_);
    if (!any_ || cell != cell_) {
      if (any_) winners_.push_back(best_);
      any_ = true;
      cell_ = cell;
      bestDistance_ = distance;
      best_ = p;
    } else if (distance < bestDistance_) {
      bestDistance_ = distance;
      best_ = p;
    }
  }
  void finish() {
    if (any_) winners_.push_back(best_);
  }

 private:
  std::span<const uint64_t> keys_;
  int level_;
  std::vector<uint32_t>& winners_;
  bool any_ = false;
  uint64_t cell_ = 0;
  uint32_t bestDistance_ = 0;
  uint32_t best_ = 0;
};

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
    const size_t nodeCount = tree.nodes.size();
    // Children in key order (the tree is depth first), and the internal nodes of each level.
    std::vector<std::vector<size_t>> children(nodeCount);
    std::vector<std::vector<size_t>> internalAt;
    for (size_t n = 0; n < nodeCount; ++n) {
      const LodNode& node = tree.nodes[n];
      if (node.parent >= 0) children[size_t(node.parent)].push_back(n);
      if (node.leaf) continue;
      if (internalAt.size() <= size_t(node.level)) internalAt.resize(size_t(node.level) + 1);
      internalAt[size_t(node.level)].push_back(n);
    }
    parallelForEachDynamic(nodeCount, [&](size_t n) {
      const LodNode& node = tree.nodes[n];
      if (node.leaf) {
        std::fill(holderLevel.begin() + node.begin, holderLevel.begin() + node.end,
                  uint8_t(node.level));
      }
    });
    // What each internal node holds once sampled: its winners, in key order.
    std::vector<std::vector<uint32_t>> held(nodeCount);
    for (size_t level = internalAt.size(); level-- > 0;) {
      parallelForEachDynamic(internalAt[level].size(), [&](size_t i) {
        const size_t n = internalAt[level][i];
        CellWinners cells(sortedKeys, int(level), held[n]);
        for (const size_t c : children[n]) {
          const LodNode& child = tree.nodes[c];
          if (child.leaf) {
            for (uint64_t p = child.begin; p < child.end; ++p) cells.offer(uint32_t(p));
          } else {
            for (const uint32_t p : held[c]) cells.offer(p);
            std::vector<uint32_t>().swap(held[c]);
          }
        }
        cells.finish();
        for (const uint32_t p : held[n]) holderLevel[p] = uint8_t(level);
      });
    }
  }
};

}  // namespace

std::unique_ptr<OctreeLodSampler> makeCpuOctreeLodSampler() {
  return std::make_unique<CpuOctreeLodSampler>();
}

}  // namespace pcv
