/// @brief A COPC cloud of any size drawn through a renderer: each frame picks the octree nodes
/// the view needs under a point budget, decodes the missing ones on a pool of threads, adds
/// what is decoded as point sets within an upload budget per frame, and evicts the nodes drawn
/// longest ago when the renderer's fixed pool (the GPU memory budget) is full. The frame loop
/// never waits for the disk or a decode; it draws what is resident, and the parents of what is
/// missing are always drawn, so there are no holes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pcv/core/camera.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/io/copc_file.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/stream/octree_index.hpp"

namespace pcv {

class NodeLoader;

struct StreamingOptions {
  uint64_t pointBudget = 100'000'000;         ///< points drawn per frame, at most
  uint64_t gpuMemoryBytes = 0;                ///< the renderer's point memory for this cloud (> 0)
  uint64_t hostMemoryBytes = 1ull << 30;      ///< decoded points waiting for upload, at most
  unsigned decodeThreads = 0;                 ///< 0: all cores but one
  uint64_t uploadPointsPerFrame = 8'000'000;  ///< decoded points added per frame, at most
  double uploadSecondsPerFrame = 0.002;       ///< time a frame spends adding nodes, about
  double refineSpacingPx = 1.0;  ///< refine nodes whose points show farther apart (pixels)
  ColoringOptions coloring;      ///< its range is fixed from the root node for every node
};

/// What the panel shows.
struct StreamingStats {
  size_t nodesWanted = 0;    ///< chosen for the last frame
  size_t nodesResident = 0;  ///< of those, drawn
  size_t nodesPending = 0;   ///< queued, decoding or decoded but not yet added
  size_t nodesCached = 0;    ///< resident in all (wanted or kept for later)
  uint64_t pointsDrawn = 0;  ///< by the last frame
  uint64_t residentPoints = 0;
  uint64_t decodedPoints = 0;   ///< since the start
  uint64_t uploadedPoints = 0;  ///< since the start
  uint64_t evictedNodes = 0;    ///< since the start
  uint64_t repacks = 0;         ///< times the pool was emptied but for the root (see .cpp)
};

class StreamedCloud {
 public:
  /// `renderer` must outlive the cloud, and draws nothing else while it streams (its pool is
  /// fixed at the GPU budget). Decodes the root at once (the colouring's range comes from it).
  /// Throws InputError when the GPU budget cannot hold the root.
  StreamedCloud(std::shared_ptr<const CopcFile> file, Renderer& renderer,
                const StreamingOptions& options);
  ~StreamedCloud();  ///< stops the decoding threads and removes its sets
  StreamedCloud(const StreamedCloud&) = delete;
  StreamedCloud& operator=(const StreamedCloud&) = delete;

  /// One frame's work for a width x height view through `camera`; returns the sets to draw,
  /// parents before children.
  std::vector<PointSetId> update(const Camera& camera, int widthPx, int heightPx);
  /// Every node the last frame wanted is resident, and none is pending.
  bool converged() const;
  /// Removes the resident nodes the last frame did not want, so the renderer holds exactly the
  /// sets it drew (for drawing every resident set, as the GL path does).
  void keepOnlyWanted();
  const StreamingStats& stats() const { return stats_; }
  /// The origin the renderer's points are offsets from.
  const glm::dvec3& origin() const;
  /// The cloud's cube.
  Box3d bounds() const;
  const Coloring& coloring() const { return coloring_; }
  /// Points drawn per frame at most; at least the root's (a frame draws it whole), at most
  /// maxPointBudget().
  void setPointBudget(uint64_t points);
  uint64_t pointBudget() const { return options_.pointBudget; }
  /// The most points a frame can ask for: what the GPU budget's pool holds, less room for the
  /// slots that nodes of uneven sizes leave free, so every wanted node finds a place.
  uint64_t maxPointBudget() const { return maxPointBudget_; }
  /// Nodes that could not be decoded (each reported once).
  std::vector<std::string> takeErrors();

 private:
  struct Resident {
    PointSetId set = 0;
    uint64_t lastFrame = 0;  ///< the frame that last drew it
  };
  void addDecoded();
  bool evictOneNotIn(const std::vector<bool>& wanted);
  void evict(size_t node);
  void repack();

  std::shared_ptr<const CopcFile> file_;
  Renderer& renderer_;
  StreamingOptions options_;
  OctreeIndex tree_;
  Coloring coloring_;
  std::vector<std::optional<Resident>> resident_;  // by node
  std::vector<uint32_t> wanted_;                   // the last frame's choice
  std::vector<bool> wantedNow_;                    // by node
  uint64_t frame_ = 0;
  uint64_t maxPointBudget_ = 0;
  uint64_t rootPoints_ = 0;
  StreamingStats stats_;
  std::vector<std::string> errors_;
  std::unique_ptr<NodeLoader> loader_;  // last: its threads stop first
};

}  // namespace pcv
