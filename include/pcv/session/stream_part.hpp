/// @brief A scene's streamed part, opened from a ScenePlan and nothing else: its COPC file (a
/// COPC cache of LAS/LAZ files among them) or a dataset's tiles as one forest, the sets the current
/// frame draws, the tiles' states and the rates the Streaming section shows. Every front end opens
/// streams here (Scene for `pcv render` and Python, SceneModel for the viewer), so a new node
/// source is one NodeSource plus one branch where the plan is made. No window and no GL.
#pragma once

#include "pcv/session/point_edits.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/scene_sources.hpp"
#include "pcv/session/session_report.hpp"
#include "pcv/stream/streamed_cloud.hpp"
#include "pcv/stream/tile_forest.hpp"
#include "pcv/stream/tile_states.hpp"

namespace pcv {

/// Points per second decoded and uploaded, over the last second or so.
struct StreamRates {
  double decodedPerSecond = 0.0;
  double uploadedPerSecond = 0.0;
};

class StreamPart {
 public:
  /// Opens the stream `plan` names (kind Streamed, no cache missing) on `renderer`, which must
  /// outlive it: the COPC file plan.files[0], or plan.tiles as one forest (`forest` when it was
  /// opened already, openTileForest(*plan.tiles, {.read = read}) on another thread; else opened
  /// here, hierarchies and overview on all cores), and decodes the first tree's root. `report`
  /// hears what is streamed. Throws InputError for a file that is not readable COPC, broken
  /// tiles, or budgets that cannot hold a root. Every node decoded gets `edits` applied and
  /// its withheld points left out (EditedNodeSource).
  StreamPart(const ScenePlan& plan, const ReadOptions& read, Renderer& renderer,
             const StreamingOptions& options, const SessionReport& report = {},
             std::shared_ptr<const ForestNodeSource> forest = nullptr,
             const std::vector<PointEdit>& edits = {});

  /// Shows `edits` (all made so far) from now on without opening the stream again: the
  /// resident nodes whose cube `changed` may meet are decoded again with them and replace
  /// their old points when ready (StreamedCloud::replaceSource); the others stay.
  void setEdits(const std::vector<PointEdit>& edits,
                const std::function<bool(const Box3d&)>& changed);

  /// Draws the points `selection` holds in the highlight colour (kSelectionHighlightRgba) in
  /// every node decoded from now on (none: no highlight); the resident nodes the old or the new
  /// selection may reach are decoded again and swapped in as setEdits does.
  void setHighlight(std::optional<PointSelection> selection);

  /// Chooses the nodes a width x height frame through `camera` draws, and takes what the
  /// decoders finished. Never waits for a decode.
  void update(const Camera& camera, int widthPx, int heightPx);
  /// The sets the last update() chose (parents before children).
  const std::vector<PointSetId>& frameSets() const { return frameSets_; }
  SetSelection selection() const { return SetSelection::only(frameSets_); }

  /// What it was opened from (to open it again, coloured otherwise).
  const ScenePlan& plan() const { return plan_; }
  const ReadOptions& read() const { return read_; }
  /// The COPC file's path, or the dataset's label (ScenePlan::label).
  const std::string& path() const { return path_; }
  /// Points in the file or all tiles, as their headers state.
  uint64_t pointCount() const;
  /// Nodes of its octree or forest.
  size_t nodeCount() const { return cloud_->source().forest().nodes.size(); }
  /// The dataset's tiles; null for a COPC file.
  const TileSet* tiles() const { return tiles_.get(); }
  /// The tiles' forest (to open the stream again without reading it again); null for a file.
  const std::shared_ptr<const ForestNodeSource>& forest() const { return forest_; }
  /// The state of tile `index` of tiles() after the last update().
  TileStatus tileStatus(size_t index) const;
  /// Attributes its points carry.
  const std::vector<std::string>& attributeNames() const {
    return cloud_->source().attributeNames();
  }
  /// Colours came from the file or the tiles.
  bool hasColor() const;
  StreamedCloud& cloud() { return *cloud_; }
  const StreamedCloud& cloud() const { return *cloud_; }
  /// World bounds as the file or the tiles' headers state them (for framing before the nodes
  /// arrive).
  Box3d bounds() const;
  const StreamRates& rates() const { return rates_; }

 private:
  using Clock = std::chrono::steady_clock;
  ScenePlan plan_;
  ReadOptions read_;
  std::string path_;
  std::shared_ptr<const CopcFile> file_;            // a COPC file, or
  std::shared_ptr<const TileSet> tiles_;            // a dataset: its tiles
  std::shared_ptr<const ForestNodeSource> forest_;  // and their forest
  std::shared_ptr<const NodeSource> unedited_;      // the file's or the forest's nodes
  std::optional<PointSelection> highlight_;
  std::unique_ptr<StreamedCloud> cloud_;
  std::vector<PointSetId> frameSets_;
  StreamRates rates_;
  Clock::time_point ratesSince_ = Clock::now();
  uint64_t decodedAtRates_ = 0, uploadedAtRates_ = 0;
};

}  // namespace pcv
