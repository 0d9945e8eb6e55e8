#include "pcv/stream/forest_node_source.hpp"

#include <algorithm>
#include <map>

#include "pcv/core/error.hpp"

namespace pcv {

void DeferredMembers::stop() {
  std::vector<std::thread> threads;
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    reads_.clear();
    threads = std::move(threads_);
  }
  wake_.notify_all();
  for (std::thread& thread : threads) thread.join();
}

void DeferredMembers::grew(size_t member) {
  const std::lock_guard lock(mutex_);
  grown_.push_back(member);
}

std::vector<size_t> DeferredMembers::take() {
  const std::lock_guard lock(mutex_);
  return std::exchange(grown_, {});
}

void DeferredMembers::readAhead(std::function<void()> read) {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) return;
    reads_.push_back(std::move(read));
    if (threads_.size() < readThreads_) {
      threads_.emplace_back([this] {
        std::unique_lock lock(mutex_);
        for (;;) {
          wake_.wait(lock, [&] { return stopping_ || !reads_.empty(); });
          if (stopping_) return;
          std::function<void()> next = std::move(reads_.front());
          reads_.pop_front();
          lock.unlock();
          next();
          lock.lock();
        }
      });
    }
  }
  wake_.notify_one();
}

ForestNodeSource::ForestNodeSource(std::vector<std::shared_ptr<const NodeSource>> members,
                                   size_t standInMembers, std::shared_ptr<DeferredMembers> deferred)
    : members_(std::move(members)), deferred_(std::move(deferred)) {
  if (members_.empty()) throw InputError("a forest of node sources needs at least one source");
  origin_ = members_.front()->origin();
  attributes_ = members_.front()->attributeNames();
  for (const auto& member : members_) {
    const NodeForest& forest = member->forest();
    const auto firstTree = uint32_t(forest_.trees.size());
    firstNode_.push_back(forest_.nodes.size());
    firstTree_.push_back(firstTree);
    forest_.trees.insert(forest_.trees.end(), forest.trees.begin(), forest.trees.end());
    if (firstNode_.size() <= standInMembers) {
      for (size_t tree = firstTree; tree < forest_.trees.size(); ++tree) {
        forest_.trees[tree].standsIn = true;
      }
    }
    for (SourceNode node : forest.nodes) {
      node.tree += firstTree;
      forest_.nodes.push_back(node);
    }
    hasColor_ = hasColor_ && member->hasColor();
    const std::vector<std::string>& names = member->attributeNames();
    std::erase_if(attributes_, [&](const std::string& name) {
      return std::find(names.begin(), names.end(), name) == names.end();
    });
  }
}

ForestNodeSource::~ForestNodeSource() {
  if (deferred_) deferred_->stop();
}

std::pair<size_t, size_t> ForestNodeSource::memberNode(size_t node) const {
  if (node >= forest_.nodes.size()) {
    const std::lock_guard lock(growthMutex_);
    const auto after =
        std::upper_bound(grownRanges_.begin(), grownRanges_.end(), node,
                         [](size_t index, const GrownRange& range) { return index < range.first; });
    if (after == grownRanges_.begin() || node >= forest_.nodes.size() + grownNodes_) {
      throw InputError("node " + std::to_string(node) + " is not in a forest of " +
                       std::to_string(forest_.nodes.size() + grownNodes_) + " nodes");
    }
    const GrownRange& range = *std::prev(after);
    return {range.member, range.firstLocal + (node - range.first)};
  }
  const size_t member =
      size_t(std::upper_bound(firstNode_.begin(), firstNode_.end(), node) - firstNode_.begin()) - 1;
  return {member, node - firstNode_[member]};
}

void ForestNodeSource::prefetchNodes(const std::vector<size_t>& nodes) const noexcept {
  std::map<size_t, std::vector<size_t>> byMember;
  for (const size_t node : nodes) {
    try {
      const auto [member, local] = memberNode(node);
      byMember[member].push_back(local);
    } catch (const Error&) {
      // Not a node of this forest: decodeNode says so.
    }
  }
  for (const auto& [member, local] : byMember) members_[member]->prefetchNodes(local);
}

std::vector<std::pair<size_t, size_t>> ForestNodeSource::grownNodes(size_t member) const {
  const std::lock_guard lock(growthMutex_);
  std::vector<std::pair<size_t, size_t>> ranges;
  for (const GrownRange& range : grownRanges_) {
    if (range.member == member) ranges.emplace_back(range.first, range.count);
  }
  return ranges;
}

bool ForestNodeSource::readsOnDemand(size_t node) const {
  if (node >= forest_.nodes.size()) return false;  // grown: its tile is read
  const auto [member, local] = memberNode(node);
  return members_[member]->readsOnDemand(local);
}

std::optional<NodeRecords> ForestNodeSource::recordsOf(size_t node) const {
  const auto [member, local] = memberNode(node);
  return members_[member]->recordsOf(local);
}

std::vector<TreeGrowth> ForestNodeSource::growthSince(size_t known) const {
  const std::lock_guard lock(growthMutex_);
  if (deferred_) {
    for (const size_t member : deferred_->take()) {
      const size_t firstLocal = members_[member]->forest().nodes.size();
      for (TreeGrowth growth : members_[member]->growthSince(0)) {
        // The member's numbers become the forest's: its trees and root shifted as at opening,
        // its new nodes numbered on from every node so far.
        const uint32_t firstTree = firstTree_[member];
        growth.root += firstNode_[member];
        growth.rootNode.tree += firstTree;
        for (SourceNode& node : growth.nodes) node.tree += firstTree;
        if (!growth.nodes.empty()) {
          grownRanges_.push_back({.first = forest_.nodes.size() + grownNodes_,
                                  .count = growth.nodes.size(),
                                  .member = member,
                                  .firstLocal = firstLocal});
          grownNodes_ += growth.nodes.size();
        }
        growthLog_.push_back(std::move(growth));
      }
    }
  }
  if (known >= growthLog_.size()) return {};
  return {growthLog_.begin() + std::ptrdiff_t(known), growthLog_.end()};
}

PointCloud ForestNodeSource::decodeNode(size_t node) const {
  const auto [member, local] = memberNode(node);
  PointCloud cloud = members_[member]->decodeNode(local);
  // The shift is added in double per point, so each offset rounds once, as a reader's would.
  const glm::dvec3 shift = cloud.origin - origin_;
  if (shift != glm::dvec3(0.0)) {
    for (Point& point : cloud.points) {
      point.x = float(double(point.x) + shift.x);
      point.y = float(double(point.y) + shift.y);
      point.z = float(double(point.z) + shift.z);
    }
  }
  cloud.origin = origin_;
  if (!hasColor_) cloud.hasColor = false;
  std::erase_if(cloud.attributes, [&](const ScalarAttribute& attribute) {
    return std::find(attributes_.begin(), attributes_.end(), attribute.name) == attributes_.end();
  });
  return cloud;
}

}  // namespace pcv
