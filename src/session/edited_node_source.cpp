#include "pcv/session/edited_node_source.hpp"

#include <algorithm>

#include "pcv/session/cloud_edits.hpp"

namespace pcv {

EditedNodeSource::EditedNodeSource(std::shared_ptr<const NodeSource> inner,
                                   std::vector<PointEdit> edits)
    : inner_(std::move(inner)), attributes_(inner_->attributeNames()) {
  // A node alone cannot be classified: a Classify edit needs the points around it (the
  // viewer classifies scenes read whole; a stream's files get it when saved).
  for (PointEdit& edit : edits) {
    if (edit.action != EditAction::Classify) edits_.push_back(std::move(edit));
  }
  if (edits_.empty()) return;
  // applyEditsToCloud makes the class and the flag where a node lacks them.
  for (const char* name : {"classification", "withheld"}) {
    if (std::find(attributes_.begin(), attributes_.end(), name) == attributes_.end()) {
      attributes_.push_back(name);
    }
  }
}

PointCloud EditedNodeSource::decodeNode(size_t node) const {
  PointCloud cloud = inner_->decodeNode(node);
  applyEditsToCloud(cloud, edits_);
  dropWithheldPoints(cloud);
  return cloud;
}

}  // namespace pcv
