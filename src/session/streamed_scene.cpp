#include "pcv/session/streamed_scene.hpp"

namespace pcv {

StreamedScene::StreamedScene(const std::string& path, const ReadOptions& read, Renderer& renderer,
                             const StreamingOptions& options)
    : path_(path), file_(std::make_shared<const CopcFile>(path, read)) {
  cloud_ = std::make_unique<StreamedCloud>(file_, renderer, options);
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
