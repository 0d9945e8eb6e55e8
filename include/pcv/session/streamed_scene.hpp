/// @brief A COPC file the viewer streams from its octree instead of reading it whole: the
/// streamed cloud, the sets the current frame draws, and the rates the Streaming section shows.
/// No window and no GL, so it is tested with the scene model.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/stream/streamed_cloud.hpp"

namespace pcv {

/// Points per second decoded and uploaded, over the last second or so.
struct StreamRates {
  double decodedPerSecond = 0.0;
  double uploadedPerSecond = 0.0;
};

class StreamedScene {
 public:
  /// Opens `path` and decodes its root (the colouring's range comes from it). Throws InputError
  /// for a file that is not readable COPC, or budgets that cannot hold the root.
  StreamedScene(const std::string& path, const ReadOptions& read, Renderer& renderer,
                const StreamingOptions& options);

  /// Chooses the nodes a width x height frame through `camera` draws, and takes what the
  /// decoders finished. Never waits for a decode.
  void update(const Camera& camera, int widthPx, int heightPx);
  /// The sets the last update() chose (parents before children).
  SetSelection selection() const { return SetSelection::only(frameSets_); }

  const std::string& path() const { return path_; }
  const CopcFile& file() const { return *file_; }
  StreamedCloud& cloud() { return *cloud_; }
  const StreamedCloud& cloud() const { return *cloud_; }
  /// World bounds as the file states them (for framing before the nodes arrive).
  Box3d bounds() const { return file_->statedBounds(); }
  const StreamRates& rates() const { return rates_; }

 private:
  using Clock = std::chrono::steady_clock;
  std::string path_;
  std::shared_ptr<const CopcFile> file_;
  std::unique_ptr<StreamedCloud> cloud_;
  std::vector<PointSetId> frameSets_;
  StreamRates rates_;
  Clock::time_point ratesSince_ = Clock::now();
  uint64_t decodedAtRates_ = 0, uploadedAtRates_ = 0;
};

}  // namespace pcv
