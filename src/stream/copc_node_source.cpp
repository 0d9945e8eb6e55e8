#include "pcv/stream/copc_node_source.hpp"

#include "pcv/io/remote_source.hpp"

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

std::optional<NodeRecords> CopcNodeSource::recordsOf(size_t node) const {
  const std::string path = file_->path().string();
  if (isRemoteLocation(path) || node >= forest_.nodes.size()) return std::nullopt;
  const std::optional<uint64_t> first = file_->firstRecordOf(node);
  if (!first) return std::nullopt;
  return NodeRecords{.file = path, .first = *first, .count = forest_.nodes[node].pointCount};
}

CopcNodeSource::CopcNodeSource(std::shared_ptr<const CopcFile> file)
    : file_(std::move(file)), forest_(forestOf(file_->hierarchy())) {}

}  // namespace pcv
