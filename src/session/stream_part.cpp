// Opening a stream: the one place a plan's COPC file or tiles become a streamed cloud.
#include "pcv/session/stream_part.hpp"

#include "pcv/core/error.hpp"
#include "pcv/core/number_text.hpp"
#include "pcv/io/copc_file.hpp"
#include "pcv/session/cloud_edits.hpp"
#include "pcv/session/edited_node_source.hpp"
#include "pcv/session/selection_export.hpp"
#include "pcv/stream/copc_node_source.hpp"

namespace pcv {

StreamPart::StreamPart(const ScenePlan& plan, const ReadOptions& read, Renderer& renderer,
                       const StreamingOptions& options, const SessionReport& report,
                       std::shared_ptr<const ForestNodeSource> forest,
                       const std::vector<PointEdit>& edits)
    : plan_(plan), read_(read), tiles_(plan.tiles), forest_(std::move(forest)) {
  if (plan.kind != SceneKind::Streamed || plan.cacheMissing || (!tiles_ && plan.files.empty())) {
    throw Error("a stream opens from a plan that streams, with its COPC cache made");
  }
  if (tiles_) {
    path_ = plan.label;
    report.say("streaming " + std::to_string(tiles_->tiles.size()) + " tiles (" +
               countText(tiles_->pointCount) + " points) of " + path_ + " as one forest");
    if (!forest_) forest_ = openTileForest(*tiles_, {.read = read});
    unedited_ = forest_;
  } else {
    path_ = plan.files[0];
    report.say("streaming " + path_);
    file_ = std::make_shared<const CopcFile>(path_, read);
    unedited_ = std::make_shared<const CopcNodeSource>(file_);
  }
  cloud_ = std::make_unique<StreamedCloud>(
      std::make_shared<const EditedNodeSource>(unedited_, edits), renderer, options);
}

void StreamPart::setEdits(const std::vector<PointEdit>& edits,
                          const std::function<bool(const Box3d&)>& changed) {
  cloud_->replaceSource(std::make_shared<const EditedNodeSource>(unedited_, edits), changed);
}

void StreamPart::setHighlight(std::optional<PointSelection> selection) {
  if (!selection && !highlight_) return;
  // The nodes to decode again: those the old highlight or the new one may reach (anywhere
  // for a selection whose region cannot be made).
  std::vector<RegionTest> regions;
  for (const std::optional<PointSelection>* shown : {&highlight_, &selection}) {
    if (!*shown) continue;
    RegionTest region;
    try {
      region = selectionRegionTest(**shown);
    } catch (const InputError&) {
    }
    regions.push_back(std::move(region));
  }
  highlight_ = selection;
  std::shared_ptr<const NodeTint> tint;
  if (selection) {
    tint = std::make_shared<const NodeTint>(
        [held = *selection](const PointCloud& cloud, std::span<Point> colored) {
          std::vector<uint64_t> selected;
          try {
            selected = selectedIndices(cloud, held, nullptr);
          } catch (const InputError&) {
            return;  // a filter over an attribute the node lacks highlights nothing there
          }
          for (const uint64_t i : selected) colored[i].rgba = kSelectionHighlightRgba;
        });
  }
  cloud_->setTint(std::move(tint), anyRegionTest(std::move(regions)));
}

uint64_t StreamPart::pointCount() const {
  return file_ ? file_->pointCount() : tiles_->pointCount;
}

bool StreamPart::hasColor() const {
  return file_ ? file_->hasColor() : forest_->hasColor();
}

Box3d StreamPart::bounds() const {
  if (file_) return file_->statedBounds();
  return tiles_->bounds.empty() ? cloud_->bounds() : tiles_->bounds;
}

TileStatus StreamPart::tileStatus(size_t index) const {
  if (!tiles_ || index >= tiles_->tiles.size()) return {};
  return pcv::tileStatus(*cloud_, *forest_, firstTileMember(*forest_, *tiles_) + index);
}

void StreamPart::update(const Camera& camera, int widthPx, int heightPx) {
  frameSets_ = cloud_->update(camera, widthPx, heightPx);
  // Rates over windows of about a second: a frame's own counts are too bursty to read.
  const Clock::time_point now = Clock::now();
  const double seconds = std::chrono::duration<double>(now - ratesSince_).count();
  if (seconds < 1.0) return;
  const StreamingStats& stats = cloud_->stats();
  rates_.decodedPerSecond = double(stats.decodedPoints - decodedAtRates_) / seconds;
  rates_.uploadedPerSecond = double(stats.uploadedPoints - uploadedAtRates_) / seconds;
  decodedAtRates_ = stats.decodedPoints;
  uploadedAtRates_ = stats.uploadedPoints;
  ratesSince_ = now;
}

}  // namespace pcv
