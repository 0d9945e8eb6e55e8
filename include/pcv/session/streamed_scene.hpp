/// @brief A COPC file, or a dataset of tiles as one forest, that the viewer streams instead of
/// reading it whole: the streamed cloud, the sets the current frame draws, the tiles' states,
/// and the rates the Streaming section shows. No window and no GL, so it is tested with the
/// scene model.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/stream/streamed_cloud.hpp"
#include "pcv/stream/tile_forest.hpp"
#include "pcv/stream/tile_states.hpp"

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
  /// Opens the dataset `tiles` as one forest (openTileForest: hierarchies and the overview read
  /// on all cores) and decodes its first tree's root. `label` names it (the folder or VPC).
  /// Throws InputError for broken tiles, or budgets that cannot hold a root.
  StreamedScene(std::shared_ptr<const TileSet> tiles, const std::string& label,
                const ReadOptions& read, Renderer& renderer, const StreamingOptions& options);
  /// The same with the forest already opened (openTileForest(*tiles, {.read = ...}), on another
  /// thread): only the first tree's root is decoded here.
  StreamedScene(std::shared_ptr<const TileSet> tiles,
                std::shared_ptr<const ForestNodeSource> forest, const std::string& label,
                Renderer& renderer, const StreamingOptions& options);

  /// Chooses the nodes a width x height frame through `camera` draws, and takes what the
  /// decoders finished. Never waits for a decode.
  void update(const Camera& camera, int widthPx, int heightPx);
  /// The sets the last update() chose (parents before children).
  SetSelection selection() const { return SetSelection::only(frameSets_); }

  /// The COPC file's path, or the dataset's label.
  const std::string& path() const { return path_; }
  /// Points in the file or all tiles, as their headers state.
  uint64_t pointCount() const;
  /// Nodes of its octree or forest.
  size_t nodeCount() const { return cloud_->source().forest().nodes.size(); }
  /// The dataset's tiles; null for a COPC file.
  const TileSet* tiles() const { return tiles_.get(); }
  /// The state of tile `index` of tiles() after the last update().
  TileStatus tileStatus(size_t index) const;
  /// Attributes its points carry.
  const std::vector<std::string>& attributeNames() const {
    return cloud_->source().attributeNames();
  }
  StreamedCloud& cloud() { return *cloud_; }
  const StreamedCloud& cloud() const { return *cloud_; }
  /// World bounds as the file or the tiles' headers state them (for framing before the nodes
  /// arrive).
  Box3d bounds() const;
  const StreamRates& rates() const { return rates_; }

 private:
  using Clock = std::chrono::steady_clock;
  std::string path_;
  std::shared_ptr<const CopcFile> file_;            // a COPC file, or
  std::shared_ptr<const TileSet> tiles_;            // a dataset: its tiles
  std::shared_ptr<const ForestNodeSource> forest_;  // and their forest
  std::unique_ptr<StreamedCloud> cloud_;
  std::vector<PointSetId> frameSets_;
  StreamRates rates_;
  Clock::time_point ratesSince_ = Clock::now();
  uint64_t decodedAtRates_ = 0, uploadedAtRates_ = 0;
};

}  // namespace pcv
