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

void CopcNodeSource::prefetchNodes(const std::vector<size_t>& nodes) const noexcept {
  try {
    file_->prefetchNodes(nodes);
  } catch (const std::exception&) {
    // decodeNode meets the fault again and reports it for its node.
  }
}

CopcNodeSource::CopcNodeSource(std::shared_ptr<const CopcFile> file)
    : file_(std::move(file)), forest_(forestOf(file_->hierarchy())) {}

}  // namespace pcv
