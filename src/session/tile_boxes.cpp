// Tile boxes as points along their edges, spaced from the dataset's size within a point budget.
#include "pcv/session/tile_boxes.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace pcv {
namespace {

using Edge = std::pair<glm::dvec3, glm::dvec3>;

/// The distinct edges of `box`: 12, or 4 when it is flat in z (a 2D tile's box).
std::vector<Edge> edgesOf(const Box3d& box) {
  const glm::dvec3 a = box.min, b = box.max;
  std::vector<Edge> edges;
  const std::array<double, 2> zs = {a.z, b.z};
  const size_t levels = a.z == b.z ? 1 : 2;
  for (size_t level = 0; level < levels; ++level) {
    const double z = zs[level];
    edges.push_back({{a.x, a.y, z}, {b.x, a.y, z}});
    edges.push_back({{b.x, a.y, z}, {b.x, b.y, z}});
    edges.push_back({{b.x, b.y, z}, {a.x, b.y, z}});
    edges.push_back({{a.x, b.y, z}, {a.x, a.y, z}});
  }
  if (levels == 2) {
    for (const glm::dvec2 corner :
         {glm::dvec2(a.x, a.y), glm::dvec2(b.x, a.y), glm::dvec2(b.x, b.y), glm::dvec2(a.x, b.y)}) {
      edges.push_back({{corner, a.z}, {corner, b.z}});
    }
  }
  return edges;
}

}  // namespace

std::vector<Point> tileBoxPoints(std::span<const Box3d> boxes, const glm::dvec3& origin,
                                 const TileBoxStyle& style) {
  Box3d all;
  double totalLength = 0.0;
  size_t edgeCount = 0;
  for (const Box3d& box : boxes) {
    if (box.empty()) continue;
    all.extend(box);
    const std::vector<Edge> edges = edgesOf(box);
    for (const auto& [from, to] : edges) totalLength += glm::length(to - from);
    edgeCount += edges.size();
  }
  if (all.empty()) return {};
  const glm::dvec3 extent = all.size();
  const double largest = std::max({extent.x, extent.y, extent.z});
  // Each edge takes its two corners and one point per `spacing` between them: the spacing is
  // what the style asks, or larger so the points stay within the budget.
  const double budget = double(style.maxPoints) - 2.0 * double(edgeCount);
  double spacing = largest * style.spacingOfExtent;
  if (budget > 0.0 && totalLength > budget * spacing) spacing = totalLength / budget;
  std::vector<Point> points;
  for (const Box3d& box : boxes) {
    if (box.empty()) continue;
    for (const auto& [from, to] : edgesOf(box)) {
      const double length = glm::length(to - from);
      // Corners only when the budget cannot even hold those, or the edge has no length.
      const size_t steps = spacing > 0.0 && budget > 0.0
                               ? std::max<size_t>(1, size_t(std::ceil(length / spacing)))
                               : 1;
      for (size_t i = 0; i <= steps; ++i) {
        const glm::dvec3 at = from + (to - from) * (double(i) / double(steps)) - origin;
        points.push_back({float(at.x), float(at.y), float(at.z), style.rgba});
      }
    }
  }
  return points;
}

TileBoxes::TileBoxes(Renderer& renderer, const TileSet& tiles, const glm::dvec3& origin)
    : renderer_(renderer) {
  std::vector<Box3d> boxes;
  for (const Tile& tile : tiles.tiles) boxes.push_back(tile.bounds);
  const std::vector<Point> points = tileBoxPoints(boxes, origin);
  if (!points.empty()) set_ = renderer_.addSet(points, {.hasColor = true});
}

TileBoxes::~TileBoxes() {
  if (set_) renderer_.removeSet(*set_);
}

}  // namespace pcv
