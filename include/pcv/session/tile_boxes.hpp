/// @brief A dataset's tile boxes as outlines drawn by the point renderer itself: points spaced
/// along the 12 edges of every tile's header box, added as one more point set. So the outlines
/// take the frame's depth test against the points, look the same on every backend (the CPU
/// backend is the pixel oracle for CUDA, as for any set), and the rasterizer stays a rasterizer
/// of points with no line stage and no GL. The spacing is fixed when the set is made, from the
/// dataset's size: the edges are solid when the whole dataset is in view and dotted from close.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv {

struct TileBoxStyle {
  uint32_t rgba = packRgba(255, 210, 60);  ///< amber: apart from terrain and colour maps
  /// Points along all edges at most (count of points); the spacing grows to stay within.
  uint64_t maxPoints = 4'000'000;
  /// Spacing as a fraction of the largest side of the box around all tiles: 1/4096 keeps the
  /// edges solid in a 4K-wide view of the whole dataset.
  double spacingOfExtent = 1.0 / 4096.0;
};

/// Points along the edges of each of `boxes` (world coordinates; empty boxes are skipped) as
/// offsets from `origin`, both corners of every edge included. Flat boxes (a 2D tile) give
/// their 4 edges once.
std::vector<Point> tileBoxPoints(std::span<const Box3d> boxes, const glm::dvec3& origin,
                                 const TileBoxStyle& style = {});

/// A dataset's tile boxes shown as one set of a renderer (outside a stream's reserved pool, as
/// files beside it are), removed when this goes: the scene part `pcv render --tile-boxes` and the
/// viewer's Tile boxes switch both make.
class TileBoxes {
 public:
  /// Adds the boxes of `tiles` as offsets from `origin` to `renderer`, which must outlive this.
  /// Throws what the renderer throws (out of memory) with nothing added.
  TileBoxes(Renderer& renderer, const TileSet& tiles, const glm::dvec3& origin);
  ~TileBoxes();
  TileBoxes(const TileBoxes&) = delete;
  TileBoxes& operator=(const TileBoxes&) = delete;
  /// The set; empty when no tile states a box.
  const std::optional<PointSetId>& set() const { return set_; }

 private:
  Renderer& renderer_;
  std::optional<PointSetId> set_;
};

}  // namespace pcv
