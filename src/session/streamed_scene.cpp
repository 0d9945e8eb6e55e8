#include "pcv/session/streamed_scene.hpp"

namespace pcv {

StreamedScene::StreamedScene(const std::string& path, const ReadOptions& read, Renderer& renderer,
                             const StreamingOptions& options)
    : path_(path), file_(std::make_shared<const CopcFile>(path, read)) {
  cloud_ = std::make_unique<StreamedCloud>(file_, renderer, options);
}

StreamedScene::StreamedScene(std::shared_ptr<const TileSet> tiles, const std::string& label,
                             const ReadOptions& read, Renderer& renderer,
                             const StreamingOptions& options)
    : path_(label), tiles_(std::move(tiles)) {
  forest_ = openTileForest(*tiles_, {.read = read});
  cloud_ = std::make_unique<StreamedCloud>(forest_, renderer, options);
}

StreamedScene::StreamedScene(std::shared_ptr<const TileSet> tiles,
                             std::shared_ptr<const ForestNodeSource> forest,
                             const std::string& label, Renderer& renderer,
                             const StreamingOptions& options)
    : path_(label), tiles_(std::move(tiles)), forest_(std::move(forest)) {
  cloud_ = std::make_unique<StreamedCloud>(forest_, renderer, options);
}

uint64_t StreamedScene::pointCount() const {
  return file_ ? file_->pointCount() : tiles_->pointCount;
}

Box3d StreamedScene::bounds() const {
  if (file_) return file_->statedBounds();
  return tiles_->bounds.empty() ? cloud_->bounds() : tiles_->bounds;
}

TileStatus StreamedScene::tileStatus(size_t index) const {
  if (!tiles_ || index >= tiles_->tiles.size()) return {};
  return pcv::tileStatus(*cloud_, *forest_, firstTileMember(*forest_, *tiles_) + index);
}

void StreamedScene::update(const Camera& camera, int widthPx, int heightPx) {
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
