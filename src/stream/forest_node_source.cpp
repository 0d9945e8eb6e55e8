#include "pcv/stream/forest_node_source.hpp"

#include <algorithm>
#include <map>

#include "pcv/core/error.hpp"

namespace pcv {

ForestNodeSource::ForestNodeSource(std::vector<std::shared_ptr<const NodeSource>> members,
                                   size_t standInMembers)
    : members_(std::move(members)) {
  if (members_.empty()) throw InputError("a forest of node sources needs at least one source");
  origin_ = members_.front()->origin();
  attributes_ = members_.front()->attributeNames();
  for (const auto& member : members_) {
    const NodeForest& forest = member->forest();
    const auto firstTree = uint32_t(forest_.trees.size());
    firstNode_.push_back(forest_.nodes.size());
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

std::pair<size_t, size_t> ForestNodeSource::memberNode(size_t node) const {
  const size_t member =
      size_t(std::upper_bound(firstNode_.begin(), firstNode_.end(), node) - firstNode_.begin()) - 1;
  return {member, node - firstNode_[member]};
}

void ForestNodeSource::prefetchNodes(const std::vector<size_t>& nodes) const noexcept {
  std::map<size_t, std::vector<size_t>> byMember;
  for (const size_t node : nodes) {
    if (node >= forest_.nodes.size()) continue;
    const auto [member, local] = memberNode(node);
    byMember[member].push_back(local);
  }
  for (const auto& [member, local] : byMember) members_[member]->prefetchNodes(local);
}

PointCloud ForestNodeSource::decodeNode(size_t node) const {
  if (node >= forest_.nodes.size()) {
    throw InputError("node " + std::to_string(node) + " is not in a forest of " +
                     std::to_string(forest_.nodes.size()) + " nodes");
  }
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
