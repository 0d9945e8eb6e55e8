#include "pcv/stream/copc_node_source.hpp"

namespace pcv {

NodeForest forestOf(const CopcHierarchy& hierarchy) {
  NodeForest forest;
  forest.trees.push_back({.rootSpacing = hierarchy.spacing});
  forest.nodes.reserve(hierarchy.nodes.size());
  for (const CopcNode& node : hierarchy.nodes) {
    forest.nodes.push_back(
        {.tree = 0, .key = node.key, .bounds = node.bounds, .pointCount = node.pointCount});
  }
  return forest;
}

CopcNodeSource::CopcNodeSource(std::shared_ptr<const CopcFile> file)
    : file_(std::move(file)), forest_(forestOf(file_->hierarchy())) {}

}  // namespace pcv
