/// @brief Which octree nodes a frame draws: the visible ones whose points still look too sparse
/// on screen, the most important first (large on screen, near the view's centre and the
/// camera), until the point budget is spent. A forest (tiles) is ranked as one: the roots of all
/// trees are the first candidates, under the one budget. COPC keeps every point on exactly one
/// level, so a node's parent is part of the full cloud and is always chosen before it: drawing the
/// chosen nodes leaves no holes, whatever is still loading below them.
#pragma once

#include <cstdint>
#include <vector>

#include "pcv/core/camera.hpp"
#include "pcv/stream/octree_index.hpp"

namespace pcv {

struct NodeSelectionParams {
  Camera camera;
  int widthPx = 1280, heightPx = 720;
  uint64_t pointBudget = 0;  ///< points of the chosen nodes, at most
  /// A node is refined (its children considered) while its point spacing shows larger than
  /// this on screen, in pixels.
  double refineSpacingPx = 1.0;
};

/// The priority of a visible node: its bounding sphere's radius on screen in pixels, weighted
/// towards the view's centre (half weight at the edge of the view); nodes the camera is inside
/// come first. 0 for nodes outside the view.
double nodePriority(const OctreeIndex& tree, size_t node, const NodeSelectionParams& params);

/// Whether `node`'s points show farther apart than params.refineSpacingPx on screen.
bool needsRefinement(const OctreeIndex& tree, size_t node, const NodeSelectionParams& params);

/// The nodes to draw, in the order chosen (highest priority first, parents before children): from
/// the roots, the visible node of highest priority whose parent is chosen is taken next while
/// its points fit the budget; the children of a node are candidates when it needs refinement.
/// Empty nodes (no points) are taken freely, to reach their children.
std::vector<uint32_t> selectNodes(const OctreeIndex& tree, const NodeSelectionParams& params);

}  // namespace pcv
