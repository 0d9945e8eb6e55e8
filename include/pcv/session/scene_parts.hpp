/// @brief The parts a scene shows together on one renderer, in one view origin: the cylinders,
/// the files read whole and the one being read, a stream and its tile boxes. What a frame asks of
/// them together (the sets it draws, the points, the bounds, a picked point) is answered here
/// once, for Scene (`pcv render`, Python) and the viewer's SceneModel alike.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/cylinders_part.hpp"
#include "pcv/session/in_core_part.hpp"
#include "pcv/session/preview_part.hpp"
#include "pcv/session/scene_sources.hpp"
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
  /// `renderer` must outlive the parts; each removes its sets when it goes.
  explicit SceneParts(Renderer& renderer)
      : renderer(renderer), inCore(renderer), preview(renderer) {}
  ~SceneParts();
  SceneParts(const SceneParts&) = delete;
  SceneParts& operator=(const SceneParts&) = delete;

  Renderer& renderer;
  std::unique_ptr<CylindersPart> cylinders;
  InCorePart inCore;
  PreviewPart preview;
  std::unique_ptr<StreamPart> stream;
  std::unique_ptr<TileBoxes> tileBoxes;  ///< the stream's tiles' outlines, when shown
  glm::dvec3 origin{0.0};                ///< what the renderer's points are offsets from

  /// Shows the stream's tile boxes (a dataset's); throws what the renderer throws.
  void showTileBoxes();
  /// Removes the stream and its tile boxes, giving its reserved pool back.
  void closeStream();
  /// Removes the sets of the cylinders, the files read whole (their points stay) and the preview.
  void hideInCore();

  /// What a frame draws: every set, or with a stream the nodes it chose and every other part's
  /// sets. The listed ids live until the next call.
  SetSelection drawnSets() const;
  /// Points that selection draws (count of points).
  uint64_t pointsDrawn() const;
  /// World bounds of the files: the stream's stated bounds and those of the files read whole.
  Box3d filesBounds() const;
  /// The files: the streamed one first, then those read whole.
  std::vector<std::string> files() const;
  /// What points may be coloured by: the files' attributes (read whole or streamed), and x, y, z.
  std::vector<std::string> colorableAttributes() const;
  /// The point drawn at pixel (x, y) (row 0 at the bottom; or the nearest drawn within two
  /// pixels) of the width x height frame `settings` draw through `camera`, from the renderer's
  /// own depth pass, in the world.
  std::optional<PickedWorldPoint> pick(const Camera& camera, const RenderSettings& settings,
                                       int width, int height, int xPx, int yPx) const;
  /// Names what is shown, for its bookmarks: the files' absolute paths, or the cylinders of
  /// `demo` with their point count and seed.
  std::string key(const DemoScene& demo) const;

 private:
  mutable std::vector<PointSetId> drawn_;
};

}  // namespace pcv
