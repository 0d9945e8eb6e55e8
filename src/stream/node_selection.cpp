#include "pcv/stream/node_selection.hpp"

#include <algorithm>
#include <cmath>
#include <queue>

namespace pcv {
namespace {

/// Pixels per world unit at distance 1 along the view: the projection's vertical scale.
double pixelsPerUnitAtOne(const NodeSelectionParams& p) {
  return 0.5 * double(p.heightPx) / std::tan(0.5 * double(p.camera.fovYRadians));
}

/// Pixels per world unit of an orthographic view, at every depth.
double orthoPixelsPerUnit(const NodeSelectionParams& p) {
  return double(std::max(1, p.widthPx)) / std::max(p.camera.orthoWidth, 1e-30);
}

/// Whether the node's cube lies at least partly inside the view frustum (tested against the
/// four side planes and the near and far planes with the cube's bounding sphere).
bool sphereInView(const glm::dvec3& centre, double radius, const NodeSelectionParams& p) {
  const Camera& c = p.camera;
  const glm::dvec3 toCentre = centre - c.eye;
  const double depth = glm::dot(toCentre, c.forward());
  if (depth + radius < double(c.nearPlane) || depth - radius > double(c.farPlane)) return false;
  if (c.orthographic()) {
    // Parallel sides: the view is a box orthoWidth wide.
    const double halfWidth = 0.5 * c.orthoWidth;
    const double halfHeight =
        halfWidth * double(std::max(1, p.heightPx)) / double(std::max(1, p.widthPx));
    return std::abs(glm::dot(toCentre, c.right())) - halfWidth <= radius &&
           std::abs(glm::dot(toCentre, c.up())) - halfHeight <= radius;
  }
  const double tanY = std::tan(0.5 * double(c.fovYRadians));
  const double tanX = tanY * double(p.widthPx) / double(std::max(1, p.heightPx));
  const double right = glm::dot(toCentre, c.right()), up = glm::dot(toCentre, c.up());
  // Distance of the centre beyond each side plane, through the plane's unit normal.
  auto beyond = [&](double lateral, double tangent) {
    return (std::abs(lateral) - tangent * depth) / std::sqrt(1.0 + tangent * tangent);
  };
  return beyond(right, tanX) <= radius && beyond(up, tanY) <= radius;
}

}  // namespace

double nodePriority(const OctreeIndex& tree, size_t node, const NodeSelectionParams& p) {
  const Box3d& box = tree.node(node).bounds;
  const glm::dvec3 centre = box.center();
  const double radius = 0.5 * glm::length(box.size());
  if (!sphereInView(centre, radius, p)) return 0.0;
  const glm::dvec3 toCentre = centre - p.camera.eye;
  if (p.camera.orthographic()) return radius * orthoPixelsPerUnit(p);  // no nearer, no farther
  const double distance = glm::length(toCentre);
  if (distance <= radius) return 1e30 / double(1 + tree.node(node).key.level);  // inside it
  const double screenRadius = radius / distance * pixelsPerUnitAtOne(p);
  const double towardCentre = std::max(0.0, glm::dot(toCentre / distance, p.camera.forward()));
  return screenRadius * (0.5 + 0.5 * towardCentre);
}

bool needsRefinement(const OctreeIndex& tree, size_t node, const NodeSelectionParams& p) {
  const Box3d& box = tree.node(node).bounds;
  if (p.camera.orthographic())
    return tree.spacing(node) * orthoPixelsPerUnit(p) > p.refineSpacingPx;
  const double radius = 0.5 * glm::length(box.size());
  const double distance =
      std::max(glm::length(box.center() - p.camera.eye) - radius, double(p.camera.nearPlane));
  return tree.spacing(node) / distance * pixelsPerUnitAtOne(p) > p.refineSpacingPx;
}

std::vector<uint32_t> selectNodes(const OctreeIndex& tree, const NodeSelectionParams& p) {
  std::vector<uint32_t> chosen;
  struct Candidate {
    double priority;
    uint32_t node;
    bool operator<(const Candidate& other) const {
      // Ties go to the lower index, so the choice does not depend on the heap's order.
      return priority != other.priority ? priority < other.priority : node > other.node;
    }
  };
  std::priority_queue<Candidate> candidates;
  auto consider = [&](int32_t node) {
    if (node == OctreeIndex::kNone) return;
    const double priority = nodePriority(tree, size_t(node), p);
    if (priority > 0.0) candidates.push({priority, uint32_t(node)});
  };
  // Every tree's root competes from the start: one ranking across the forest.
  for (int32_t root : tree.roots()) consider(root);
  uint64_t points = 0;
  while (!candidates.empty()) {
    const uint32_t node = candidates.top().node;
    candidates.pop();
    const uint64_t count = tree.node(node).pointCount;
    if (count > p.pointBudget - std::min(points, p.pointBudget)) continue;  // does not fit
    points += count;
    chosen.push_back(node);
    if (!needsRefinement(tree, node, p)) continue;
    for (int32_t child : tree.children(node)) consider(child);
  }
  return chosen;
}

}  // namespace pcv
