#include "stand_in_cover.hpp"

#include <algorithm>
#include <unordered_set>

namespace pcv {

StandInCover::StandInCover(const OctreeIndex& tree) : tree_(tree) {
  std::vector<uint32_t> standIns;
  for (size_t node = 0; node < tree_.size(); ++node) {
    if (tree_.standsIn(node)) standIns.push_back(uint32_t(node));
  }
  if (standIns.empty()) return;
  for (int32_t root : tree_.roots()) {
    if (tree_.standsIn(size_t(root))) continue;
    rootOrdinal_[uint32_t(root)] = uint32_t(otherRoots_.size());
    otherRoots_.push_back(uint32_t(root));
  }
  for (uint32_t node : standIns) {
    std::vector<uint32_t>& under = rootsUnder_[node];
    for (uint32_t ordinal = 0; ordinal < otherRoots_.size(); ++ordinal) {
      // Closed boxes: touching counts, so a stand-in node steps aside only when the tiles on its
      // edges are drawn too.
      if (tree_.node(node).bounds.overlaps(tree_.node(otherRoots_[ordinal]).bounds)) {
        under.push_back(ordinal);
      }
    }
  }
}

std::vector<uint32_t> StandInCover::dropCovered(
    std::vector<uint32_t>& chosen, const NodeSelectionParams& params,
    const std::function<bool(uint32_t)>& resident) const {
  if (empty()) return {};
  // Per root of the other trees, worked out when first asked: -1 not yet, 1 where a stand-in is
  // still needed (in view, and not chosen or not resident), 0 where it is not.
  std::vector<int8_t> needed(otherRoots_.size(), -1);
  std::vector<bool> chosenRoot(otherRoots_.size(), false);
  for (uint32_t node : chosen) {
    const auto ordinal = rootOrdinal_.find(node);
    if (ordinal != rootOrdinal_.end()) chosenRoot[ordinal->second] = true;
  }
  const auto stillNeeded = [&](uint32_t ordinal) {
    if (needed[ordinal] < 0) {
      const uint32_t root = otherRoots_[ordinal];
      const bool drawn = chosenRoot[ordinal] && resident(root);
      needed[ordinal] = !drawn && nodePriority(tree_, root, params) > 0.0 ? 1 : 0;
    }
    return needed[ordinal] == 1;
  };
  // Children come after their parents in `chosen`: walking it backwards settles them first.
  std::unordered_set<uint32_t> kept;
  std::unordered_set<uint32_t> dropped;
  std::vector<uint32_t> removed;
  for (auto at = chosen.rbegin(); at != chosen.rend(); ++at) {
    const auto under = rootsUnder_.find(*at);
    if (under == rootsUnder_.end()) continue;  // not a stand-in node
    bool keep = under->second.empty() ||       // over no tile: it stands in for nothing
                std::any_of(under->second.begin(), under->second.end(), stillNeeded);
    for (int32_t child : tree_.children(*at)) {
      keep = keep || (child >= 0 && kept.contains(uint32_t(child)));
    }
    if (keep) {
      kept.insert(*at);
    } else {
      dropped.insert(*at);
      removed.push_back(*at);
    }
  }
  if (!removed.empty()) {
    std::erase_if(chosen, [&](uint32_t node) { return dropped.contains(node); });
  }
  return removed;
}

}  // namespace pcv
