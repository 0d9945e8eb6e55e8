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
  // A tile not read yet decodes to a stand-in of its density, not to its points: nothing to
  // edit (and it may lack what the edits' filters read). Still unread after the decode: it
  // was a stand-in. Read meanwhile: either, so the edits apply where they can.
  const bool unread = inner_->readsOnDemand(node);
  PointCloud cloud = inner_->decodeNode(node);
  if (unread && inner_->readsOnDemand(node)) return cloud;
  try {
    applyEditsToCloud(cloud, edits_);
  } catch (const InputError&) {
    if (!unread) throw;
    return cloud;  // a stand-in without the attributes the filters read
  }
  dropWithheldPoints(cloud);
  return cloud;
}

}  // namespace pcv
