#include "pcv/session/edited_node_source.hpp"

#include <algorithm>

#include "pcv/process/point_classes.hpp"
#include "pcv/session/cloud_edits.hpp"

namespace pcv {
namespace {

/// Shows on `cloud` (a node's points, its edit attributes made) the classes a Classify edit
/// found in the file its points are records of. A node that is not records of one file, or
/// whose decode has another count than the records (points dropped), keeps its classes.
void showFoundClasses(PointCloud& cloud, const PointEdit& edit,
                      const std::optional<NodeRecords>& records) {
  if (!records || records->count != cloud.size()) return;
  const FoundClasses* found = edit.found->of(records->file);
  if (!found) return;
  ScalarAttribute* classes = nullptr;
  for (ScalarAttribute& attribute : cloud.attributes) {
    if (attribute.name == "classification") classes = &attribute;
  }
  if (!classes) return;
  // The node's records are consecutive: their classes are one run of the sorted indices.
  const auto& indices = found->indices;
  const uint64_t end = records->first + records->count;
  for (auto at = std::lower_bound(indices.begin(), indices.end(), records->first);
       at != indices.end() && *at < end; ++at) {
    const uint64_t point = *at - records->first;
    const double previous = classes->value(point);
    const uint8_t before = previous >= 0.0 && previous <= 255.0 ? uint8_t(previous) : 0;
    classes->setValue(
        point,
        double(mergedClass(before, found->classes[size_t(at - indices.begin())], edit.classify)));
  }
}

}  // namespace

EditedNodeSource::EditedNodeSource(std::shared_ptr<const NodeSource> inner,
                                   std::vector<PointEdit> edits)
    : inner_(std::move(inner)), attributes_(inner_->attributeNames()) {
  // A node alone cannot be classified: a Classify edit needs the points around it. One whose
  // classes were found ahead in the files (a streamed scene's) shows them; one without shows
  // when it is saved.
  for (PointEdit& edit : edits) {
    if (edit.action == EditAction::Classify && !edit.found) continue;
    showsFoundClasses_ = showsFoundClasses_ || edit.action == EditAction::Classify;
    edits_.push_back(std::move(edit));
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
    const std::optional<NodeRecords> records =
        showsFoundClasses_ ? inner_->recordsOf(node) : std::nullopt;
    // The edits in order: runs of selections and actions, each Classify edit between them.
    const std::span<const PointEdit> edits = edits_;
    size_t from = 0;
    for (size_t e = 0; e <= edits.size(); ++e) {
      if (e < edits.size() && edits[e].action != EditAction::Classify) continue;
      applyEditsToCloud(cloud, edits.subspan(from, e - from));
      if (e < edits.size()) {
        ensureEditAttributes(cloud, edits.subspan(e, 1));
        showFoundClasses(cloud, edits[e], records);
      }
      from = e + 1;
    }
  } catch (const InputError&) {
    if (!unread) throw;
    return cloud;  // a stand-in without the attributes the filters read
  }
  dropWithheldPoints(cloud);
  return cloud;
}

}  // namespace pcv
