/// @brief A COPC file as a node source: one tree, its nodes those of the file's hierarchy (same
/// indices), decoded by the file. An adapter here rather than CopcFile deriving from NodeSource,
/// because io/ sits below stream/: the reader stays a plain reader, and stream/ adapts it.
#pragma once

#include <memory>

#include "pcv/io/copc_file.hpp"
#include "pcv/stream/node_source.hpp"

namespace pcv {

/// One tree of a forest from a COPC hierarchy: the same nodes in the same order.
NodeForest forestOf(const CopcHierarchy& hierarchy);

class CopcNodeSource final : public NodeSource {
 public:
  explicit CopcNodeSource(std::shared_ptr<const CopcFile> file);

  const NodeForest& forest() const override { return forest_; }
  const glm::dvec3& origin() const override { return file_->origin(); }
  bool hasColor() const override { return file_->hasColor(); }
  const std::vector<std::string>& attributeNames() const override {
    return file_->attributeNames();
  }
  PointCloud decodeNode(size_t node) const override { return file_->decodeNode(node); }
  void prefetchNodes(const std::vector<size_t>& nodes) const noexcept override;
  /// The node's chunk's records (none for a URL: its records are not the local disk's).
  std::optional<NodeRecords> recordsOf(size_t node) const override;

  const CopcFile& file() const { return *file_; }

 private:
  std::shared_ptr<const CopcFile> file_;
  NodeForest forest_;
};

}  // namespace pcv
