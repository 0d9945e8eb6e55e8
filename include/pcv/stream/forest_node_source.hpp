/// @brief Several node sources (tiles: COPC files, and tiles that are one node each) as one
/// forest, so they stream under one point budget with one ranking of nodes across all of them.
/// Every member keeps its own origin; decoded points are moved to the forest's, which lies near
/// the members' (tiles of one dataset lie within kilometres, where floats keep millimetres).
#pragma once

#include <memory>
#include <vector>

#include "pcv/stream/node_source.hpp"

namespace pcv {

class ForestNodeSource final : public NodeSource {
 public:
  /// Throws InputError when `members` is empty. The trees and nodes are the members' in the
  /// order given; the origin is the first member's. Colours are the data's own when every member
  /// has them; the attributes are those every member carries, in the first member's order. The
  /// trees of the first `standInMembers` members stand in for the others' (SourceTree::standsIn).
  explicit ForestNodeSource(std::vector<std::shared_ptr<const NodeSource>> members,
                            size_t standInMembers = 0);

  const NodeForest& forest() const override { return forest_; }
  const glm::dvec3& origin() const override { return origin_; }
  bool hasColor() const override { return hasColor_; }
  const std::vector<std::string>& attributeNames() const override { return attributes_; }
  PointCloud decodeNode(size_t node) const override;
  /// Each member's nodes passed on to it.
  void prefetchNodes(const std::vector<size_t>& nodes) const noexcept override;

  size_t memberCount() const { return members_.size(); }
  /// The member a node of the forest comes from, and its index there.
  std::pair<size_t, size_t> memberNode(size_t node) const;
  /// A member's nodes: they are forest().nodes[firstNode(member), +nodeCount(member)).
  size_t firstNode(size_t member) const { return firstNode_[member]; }
  size_t nodeCount(size_t member) const {
    return (member + 1 < firstNode_.size() ? firstNode_[member + 1] : forest_.nodes.size()) -
           firstNode_[member];
  }

 private:
  std::vector<std::shared_ptr<const NodeSource>> members_;
  std::vector<size_t> firstNode_;  // by member: its first node's index in the forest
  NodeForest forest_;
  glm::dvec3 origin_{0.0};
  bool hasColor_ = true;
  std::vector<std::string> attributes_;
};

}  // namespace pcv
