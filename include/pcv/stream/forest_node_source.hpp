/// @brief Several node sources (tiles: COPC files, and tiles that are one node each) as one
/// forest, so they stream under one point budget with one ranking of nodes across all of them.
/// Every member keeps its own origin; decoded points are moved to the forest's, which lies near
/// the members' (tiles of one dataset lie within kilometres, where floats keep millimetres).
#pragma once

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "pcv/stream/node_source.hpp"

namespace pcv {

/// Members of a forest read on demand (tiles known from a dataset's index, read when first
/// wanted). They say here when they grew, so the forest asks only those for their growth, not
/// its thousands of members every frame; and their reads can be started ahead on threads of
/// this object's own (requests in flight, not cores: a loader thread then finds each tile read
/// instead of waiting for its round trips in turn). The forest owns it; members hold it weakly.
/// Safe to use from several threads.
class DeferredMembers {
 public:
  /// `readThreads`: reads ahead at once, at most (started on the first readAhead()).
  explicit DeferredMembers(unsigned readThreads) : readThreads_(std::max(1u, readThreads)) {}
  ~DeferredMembers() { stop(); }
  /// Reads in progress finish, those queued are dropped, and no read starts after. The forest
  /// calls it before it lets go of this object, so that no read ahead (which holds it while it
  /// tells of a growth) is left to destroy it on its own thread.
  void stop();
  DeferredMembers(const DeferredMembers&) = delete;
  DeferredMembers& operator=(const DeferredMembers&) = delete;

  void grew(size_t member);
  std::vector<size_t> take();
  /// Runs `read` on one of the threads, after those queued before it. Must not throw.
  void readAhead(std::function<void()> read);

 private:
  const unsigned readThreads_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<size_t> grown_;                // guarded
  std::deque<std::function<void()>> reads_;  // guarded
  bool stopping_ = false;                    // guarded
  std::vector<std::thread> threads_;         // guarded (started on demand)
};

class ForestNodeSource final : public NodeSource {
 public:
  /// Throws InputError when `members` is empty. The trees and nodes are the members' in the
  /// order given; the origin is the first member's. Colours are the data's own when every member
  /// has them; the attributes are those every member carries, in the first member's order. The
  /// trees of the first `standInMembers` members stand in for the others' (SourceTree::standsIn).
  /// Members that grow (NodeSource::growthSince) tell `deferred` when they do; each grows once.
  explicit ForestNodeSource(std::vector<std::shared_ptr<const NodeSource>> members,
                            size_t standInMembers = 0,
                            std::shared_ptr<DeferredMembers> deferred = nullptr);
  ~ForestNodeSource() override;  ///< stops the reads ahead before the members go
  ForestNodeSource(const ForestNodeSource&) = delete;
  ForestNodeSource& operator=(const ForestNodeSource&) = delete;

  const NodeForest& forest() const override { return forest_; }
  const glm::dvec3& origin() const override { return origin_; }
  bool hasColor() const override { return hasColor_; }
  const std::vector<std::string>& attributeNames() const override { return attributes_; }
  PointCloud decodeNode(size_t node) const override;
  /// Each member's nodes passed on to it.
  void prefetchNodes(const std::vector<size_t>& nodes) const noexcept override;
  bool readsOnDemand(size_t node) const override;
  /// The member's answer for its node.
  std::optional<NodeRecords> recordsOf(size_t node) const override;
  /// The members' growths, their nodes numbered in the forest in the order the members grew.
  std::vector<TreeGrowth> growthSince(size_t known) const override;

  size_t memberCount() const { return members_.size(); }
  /// The member a node of the forest comes from (a grown one too), and its index there.
  std::pair<size_t, size_t> memberNode(size_t node) const;
  /// A member's nodes as opened: they are forest().nodes[firstNode(member), +nodeCount(member));
  /// nodes it grew later are numbered past forest().nodes.size().
  size_t firstNode(size_t member) const { return firstNode_[member]; }
  size_t nodeCount(size_t member) const {
    return (member + 1 < firstNode_.size() ? firstNode_[member + 1] : forest_.nodes.size()) -
           firstNode_[member];
  }
  /// The nodes a member grew since it was opened (growthSince): ranges [first, first + count)
  /// of forest indices past forest().nodes.size().
  std::vector<std::pair<size_t, size_t>> grownNodes(size_t member) const;

 private:
  std::vector<std::shared_ptr<const NodeSource>> members_;
  std::vector<size_t> firstNode_;    // by member: its first node's index in the forest
  std::vector<uint32_t> firstTree_;  // by member: its first tree's index in the forest
  std::shared_ptr<DeferredMembers> deferred_;
  // Growth: the log every caller of growthSince reads from its own count, and where each
  // member's grown nodes lie (segments in index order: first forest index, member, first local).
  struct GrownRange {
    size_t first = 0;
    size_t count = 0;
    size_t member = 0;
    size_t firstLocal = 0;
  };
  mutable std::mutex growthMutex_;
  mutable std::vector<TreeGrowth> growthLog_;
  mutable std::vector<GrownRange> grownRanges_;
  mutable size_t grownNodes_ = 0;  // nodes numbered past forest_.nodes
  NodeForest forest_;
  glm::dvec3 origin_{0.0};
  bool hasColor_ = true;
  std::vector<std::string> attributes_;
};

}  // namespace pcv
