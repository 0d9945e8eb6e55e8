/// @brief The parts a scene shows together on one renderer, in one view origin: the cylinders,
/// the files read whole and the one being read, a stream and its tile boxes. What a frame asks of
/// them together (the sets it draws, the points, the bounds, a picked point) is answered here
/// once, and what is done to them together (a stream opened, files shown in its origin, tile
/// boxes switched), for Scene (`pcv render`, Python) and the viewer's SceneModel alike; the
/// viewer reads them through SceneModel::parts().
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/cylinders_part.hpp"
#include "pcv/session/in_core_part.hpp"
#include "pcv/session/preview_part.hpp"
#include "pcv/session/scene_sources.hpp"
#include "pcv/session/session_report.hpp"
#include "pcv/session/stream_limits.hpp"
#include "pcv/session/stream_part.hpp"
#include "pcv/session/tile_boxes.hpp"

namespace pcv {

/// A point a pick found, in world coordinates.
struct PickedWorldPoint {
  glm::dvec3 position{0.0};
  /// Its index in the files read whole (InCorePart::cloud()), when it is one of theirs: their
  /// double coordinates then; otherwise the stored point (the cylinders, a preview, a node).
  std::optional<uint64_t> inCoreIndex;
};

class SceneParts {
 public:
  /// `renderer` must outlive the parts; each removes its sets when it goes. `demo`: the cylinders
  /// shown without files.
  explicit SceneParts(Renderer& renderer, const DemoCylinders& demo = {})
      : renderer(renderer), demo(demo), inCore(renderer), preview(renderer) {}
  ~SceneParts();
  SceneParts(const SceneParts&) = delete;
  SceneParts& operator=(const SceneParts&) = delete;

  Renderer& renderer;
  const DemoCylinders demo;
  std::unique_ptr<CylindersPart> cylinders;
  InCorePart inCore;
  PreviewPart preview;
  std::unique_ptr<StreamPart> stream;
  std::unique_ptr<TileBoxes> tileBoxes;  ///< the stream's tiles' outlines, when shown
  glm::dvec3 origin{0.0};                ///< what the renderer's points are offsets from

  /// Opens the stream `plan` names (StreamPart) under `limits`, its nodes coloured as `coloring`
  /// asks, and takes its origin as the parts'. Throws what StreamPart throws. Tile boxes are
  /// setTileBoxes()'s. Its nodes get `edits` applied as they are decoded.
  void openStream(const ScenePlan& plan, const ReadOptions& read, const StreamLimits& limits,
                  const ColoringOptions& coloring, const SessionReport& report,
                  std::shared_ptr<const ForestNodeSource> forest = nullptr,
                  const std::vector<PointEdit>& edits = {});
  /// Draws the stream's tile boxes (a dataset's; this stream's and those opened later), or not;
  /// off until switched on. Throws what the renderer throws, the switch kept.
  void setTileBoxes(bool shown);
  bool tileBoxesShown() const { return tileBoxesShown_; }
  /// Removes the stream and its tile boxes, giving its reserved pool back.
  void closeStream();
  /// Colours the files read whole as `coloring` asks and shows them (ColouredCloud::show, whose
  /// arguments and throws these are): beside a stream as offsets from its origin, else from
  /// their own, which becomes the parts' origin. Returns the colouring used.
  Coloring showInCore(const ColoringOptions& coloring, const PointSetOptions& options = {},
                      std::string* fallbackError = nullptr);
  /// Shows `update` of the file being read. A file other than the one shown starts a new
  /// preview; one that replaces what is shown (or comes alone) hides the cylinders and the files
  /// read whole, and takes its own origin (beside a stream, the stream's). Returns the world
  /// bounds of what is shown then (the preview, the files' set shown, the stream); empty when
  /// nothing was added (PreviewPart::add).
  std::optional<Box3d> showPreview(const LoadPreview& update);
  /// Removes the sets of the cylinders, the files read whole (their points stay) and the preview.
  void hideInCore();

  /// Whether files are shown, read whole or streamed (else the cylinders, or nothing).
  bool holdsFiles() const { return inCore.holds() || stream; }
  /// What a frame draws: every set, or with a stream the nodes it chose and every other part's
  /// sets. The listed ids live until the next call.
  SetSelection drawnSets() const;
  /// Points that selection draws (count of points).
  uint64_t pointsDrawn() const;
  /// World bounds of the files: the stream's stated bounds and those of the files read whole.
  Box3d filesBounds() const;
  /// World bounds of what is shown: the files and the one being read, or the cylinders.
  Box3d shownBounds() const;
  /// The files: the streamed one first, then those read whole.
  std::vector<std::string> files() const;
  /// What points may be coloured by: the files' attributes (read whole or streamed), and x, y, z.
  std::vector<std::string> colorableAttributes() const;
  /// The point drawn at pixel (x, y) (row 0 at the bottom; or the nearest drawn within two
  /// pixels) of the width x height frame `settings` draw through `camera`, from the renderer's
  /// own depth pass, in the world.
  std::optional<PickedWorldPoint> pick(const Camera& camera, const RenderSettings& settings,
                                       int width, int height, int xPx, int yPx) const;
  /// Names what is shown, for its bookmarks: the files' absolute paths, or the cylinders with
  /// their point count and seed.
  std::string key() const;

 private:
  mutable std::vector<PointSetId> drawn_;
  bool tileBoxesShown_ = false;
};

}  // namespace pcv
