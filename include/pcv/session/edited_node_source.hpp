/// @brief A streamed source as edited: every node decoded (and decoded again after eviction)
/// gets the edits made so far applied to its points, and its withheld (deleted) points left
/// out, so edits are kept per node without any state of their own and survive eviction. With
/// no edits it only leaves the withheld points out.
#pragma once

#include <memory>
#include <vector>

#include "pcv/session/point_edits.hpp"
#include "pcv/stream/node_source.hpp"

namespace pcv {

class EditedNodeSource final : public NodeSource {
 public:
  /// `edits` must be valid (validateEdit). The inner source must decode the attributes
  /// attributesForEdits(edits) names where its files hold them. A node alone has not the
  /// points around it that classifying needs: a Classify edit shows the classes it found ahead
  /// (PointEdit::found) on the nodes whose points are records of those files
  /// (NodeSource::recordsOf), and one without them is left out.
  EditedNodeSource(std::shared_ptr<const NodeSource> inner, std::vector<PointEdit> edits);

  const NodeForest& forest() const override { return inner_->forest(); }
  const glm::dvec3& origin() const override { return inner_->origin(); }
  bool hasColor() const override { return inner_->hasColor(); }
  const std::vector<std::string>& attributeNames() const override { return attributes_; }
  /// The inner node's points, edited; throws what the inner source throws, and InputError for
  /// an edit whose filter reads an attribute the node lacks.
  PointCloud decodeNode(size_t node) const override;
  void prefetchNodes(const std::vector<size_t>& nodes) const noexcept override {
    inner_->prefetchNodes(nodes);
  }
  /// The inner source's tiles read on demand and the trees they grow (a dataset opened from
  /// its index), as they are: edits apply to their nodes once decoded.
  bool readsOnDemand(size_t node) const override { return inner_->readsOnDemand(node); }
  std::optional<NodeRecords> recordsOf(size_t node) const override {
    return inner_->recordsOf(node);
  }
  std::vector<TreeGrowth> growthSince(size_t known) const override {
    return inner_->growthSince(known);
  }

 private:
  std::shared_ptr<const NodeSource> inner_;
  std::vector<PointEdit> edits_;
  std::vector<std::string> attributes_;  ///< the inner's, and the edits' class and flag
  bool showsFoundClasses_ = false;       ///< some edit is Classify (with its classes found)
};

}  // namespace pcv
