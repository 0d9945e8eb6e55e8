/// @brief A node source of any size (a COPC file, a forest of tiles) drawn through a renderer:
/// each frame picks the octree nodes the view needs under a point budget, decodes the missing
/// ones on a pool of threads, adds what is decoded as point sets within an upload budget per
/// frame, and evicts the nodes drawn longest ago when its reserved pool (the GPU memory budget)
/// is full. The frame loop never waits for the disk or a decode; it draws what is resident, and
/// the parents of what is missing are always drawn, so there are no holes. The renderer holds
/// other sets beside it (in-core clouds), outside the reserved pool.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "pcv/core/camera.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/io/copc_file.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/stream/node_source.hpp"
#include "pcv/stream/node_tint.hpp"
#include "pcv/stream/octree_index.hpp"

namespace pcv {

class NodeLoader;
struct DecodedNode;
class StandInCover;

struct StreamingOptions {
  uint64_t pointBudget = 100'000'000;         ///< points drawn per frame, at most
  uint64_t gpuMemoryBytes = 0;                ///< the renderer's point memory reserved (> 0)
  uint64_t hostMemoryBytes = 1ull << 30;      ///< decoded points waiting for upload, at most
  unsigned decodeThreads = 0;                 ///< 0: all cores but one
  uint64_t uploadPointsPerFrame = 8'000'000;  ///< decoded points added per frame, at most
  double uploadSecondsPerFrame = 0.002;       ///< time a frame spends adding nodes, about
  double refineSpacingPx = 1.0;  ///< refine nodes whose points show farther apart (pixels)
  ColoringOptions coloring;      ///< its range is fixed from the first root node for every node
  /// Give every node the data point filters read (classes, returns: Renderer::setFilterData):
  /// 6 bytes per resident point on the host and 2 on the GPU. Off: no cost, and filters draw no
  /// streamed point.
  bool filterData = false;
  /// With filterData, the attribute whose values range filters test (empty: none).
  std::string rangeAttribute;
  /// Hand nodes unsorted to a renderer that lays points out on its device
  /// (Renderer::laysOutOnDevice); false sorts them on the loader threads whatever the renderer
  /// (to compare the two).
  bool layoutOnDevice = true;
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
  uint64_t repacks = 0;         ///< times the pool was emptied but for the roots (see .cpp)
  /// The loader threads' seconds since the start, all threads together: in the source's decodes
  /// (reading, decompressing, converting records to points), in colouring and laying out the
  /// decoded points, and waiting for a node to decode (none wanted, or no room in the host
  /// budget). Their sum is the threads' count times the stream's age: where decodes fall behind
  /// what the cores can do, these say whether setup, layout or waiting takes the rest.
  double decodeSeconds = 0.0;
  double layoutSeconds = 0.0;
  double loaderIdleSeconds = 0.0;
  unsigned loaderThreads = 0;
};

/// Where one node stands, for a list of what streams (the viewer's tiles).
enum class NodeState : uint8_t {
  Idle,      ///< not resident, and the last frame did not want it
  Wanted,    ///< the last frame wanted it and it is not resident yet (queued or decoding)
  Resident,  ///< its points are in the renderer
  Failed,    ///< its decode failed (nodeError() says why); not tried again
};

class StreamedCloud {
 public:
  /// `renderer` must outlive the cloud; the cloud reserves options.gpuMemoryBytes of its point
  /// memory (Renderer::reservePool), and other sets may be added beside. Decodes the first
  /// tree's root at once (the colouring's range comes from it); the other roots stream like any
  /// node. A first root read on demand (NodeSource::readsOnDemand: a dataset opened from its
  /// index) is not decoded: the colouring comes from the request and the forest's box, and
  /// opening reads nothing. Trees the source grows later join at the next update(). Throws
  /// InputError when the GPU budget cannot hold the largest root, OutOfMemoryError when the
  /// renderer cannot reserve it.
  StreamedCloud(std::shared_ptr<const NodeSource> source, Renderer& renderer,
                const StreamingOptions& options);
  /// A COPC file: the source is a CopcNodeSource over it.
  StreamedCloud(std::shared_ptr<const CopcFile> file, Renderer& renderer,
                const StreamingOptions& options);
  ~StreamedCloud();  ///< stops the decoding threads and removes its sets
  StreamedCloud(const StreamedCloud&) = delete;
  StreamedCloud& operator=(const StreamedCloud&) = delete;

  /// One frame's work for a width x height view through `camera`; returns the sets to draw,
  /// parents before children.
  std::vector<PointSetId> update(const Camera& camera, int widthPx, int heightPx);
  /// Decodes from `source` from now on: the same forest with other points (edits made, as
  /// EditedNodeSource gives them). The resident nodes whose cube `changed` says the change may
  /// reach are decoded again: those the last frame drew stay drawn until their new points
  /// replace them (no frame shows a hole or the stream collapsing to its roots), the others
  /// go. Nodes it does not reach stay as they are.
  void replaceSource(std::shared_ptr<const NodeSource> source,
                     const std::function<bool(const Box3d&)>& changed);
  /// Recolours the points of every node decoded from now on with `tint` (null: none), after
  /// the stream's colouring (a selection drawn highlighted); the resident nodes whose cube
  /// `changed` says the change may reach are decoded again as replaceSource does.
  void setTint(std::shared_ptr<const NodeTint> tint,
               const std::function<bool(const Box3d&)>& changed);
  /// Every node the last frame wanted is resident (or failed), and none is pending.
  bool converged() const;
  /// Removes the resident nodes the last frame did not want, so the renderer holds exactly the
  /// sets it drew (for drawing every resident set, as the GL path does).
  void keepOnlyWanted();
  const StreamingStats& stats() const { return stats_; }
  /// The origin the renderer's points are offsets from.
  const glm::dvec3& origin() const;
  /// The box around every root's cube.
  Box3d bounds() const;
  const NodeSource& source() const { return *source_; }
  /// The renderer's point slots reserved for this cloud.
  uint64_t reservedPoints() const { return pool_.pointCapacity(); }
  const Coloring& coloring() const { return coloring_; }
  /// Points drawn per frame at most; at least the largest root's (a frame draws a node whole),
  /// at most maxPointBudget().
  void setPointBudget(uint64_t points);
  uint64_t pointBudget() const { return options_.pointBudget; }
  /// The most points a frame can ask for: what the GPU budget's pool holds, less room for the
  /// slots that nodes of uneven sizes leave free, so every wanted node finds a place.
  uint64_t maxPointBudget() const { return maxPointBudget_; }
  /// Nodes that could not be decoded (each reported once).
  std::vector<std::string> takeErrors();
  /// Where a tile read on demand disagreed with what the dataset's index said of it (each said
  /// once; the tile's own header is what is drawn).
  std::vector<std::string> takeWarnings();
  /// Where `node` stands after the last update() (cheap: no lock, for lists of thousands).
  NodeState nodeState(size_t node) const;
  /// The points of `node` as the stream knows it (a tile read on demand: as its header says
  /// once its tree has grown in); 0 for a node it does not know yet.
  uint64_t nodePoints(size_t node) const {
    return node < tree_.size() ? tree_.node(node).pointCount : 0;
  }
  /// Why `node` failed; null unless nodeState(node) is Failed.
  const std::string* nodeError(size_t node) const;

 private:
  struct Resident {
    PointSetId set = 0;
    uint64_t lastFrame = 0;  ///< the frame that last drew it
    uint64_t points = 0;     ///< in its set
    /// A stand-in for data not read yet (a tile's density from a dataset's index): drawn, but
    /// the node is not done, and its tree's growth replaces it.
    bool standIn = false;
    /// Points of a source replaced since (replaceSource): drawn until the node's new points
    /// replace them, but the node is not done.
    bool stale = false;
  };
  /// Takes in the trees the source grew since the last frame (tiles read on demand).
  void growTrees();
  void addDecoded();
  /// Adds a decoded node to the pool: its laid-out arrays copied in, or its points laid out on
  /// the device (NodeLayout::onDevice). Empty when the pool has no room.
  std::optional<PointSetId> addToPool(const DecodedNode& decoded);
  /// Adds coloured points for the renderer to lay out (the first root, and nodes where the
  /// device lays points out), with the data filters read from `attributes` when the stream
  /// carries it. Empty when the pool has no room.
  std::optional<PointSetId> addUnsorted(std::span<const Point> points,
                                        std::span<const ScalarAttribute> attributes);
  /// Whether nodes come unsorted, for the renderer to lay out on its device.
  bool nodesLaidOutOnDevice() const {
    return options_.layoutOnDevice && renderer_.laysOutOnDevice();
  }
  /// Moves the loader's failures into errors_ and failed_.
  void takeFailures();
  void makeResident(uint32_t node, PointSetId set, uint64_t points, bool standIn = false);
  /// Decodes again the resident nodes whose cube `changed` may reach: those the last frame drew
  /// stay drawn (stale) until their new points come, the others go.
  void decodeAgain(const std::function<bool(const Box3d&)>& changed);
  /// Resident with its own points, not a stand-in, from the source as it is now.
  bool drawnForReal(size_t node) const {
    return resident_[node] && !resident_[node]->standIn && !resident_[node]->stale;
  }
  bool evictOneNotIn(const std::vector<bool>& wanted);
  void evict(size_t node);
  void repack();

  std::shared_ptr<const NodeSource> source_;
  Renderer& renderer_;
  StreamingOptions options_;
  ReservedPool pool_;  // before the loader: its threads stop before the sets go
  OctreeIndex tree_;
  std::unique_ptr<const StandInCover> standIns_;  // a dataset's overview steps aside (after tree_)
  Coloring coloring_;
  std::vector<std::optional<Resident>> resident_;  // by node
  // The nodes resident_ holds, in any order: what eviction scans (a forest of many tiles has
  // millions of nodes, of which a few thousand fit the GPU budget).
  std::vector<uint32_t> residentNodes_;
  std::vector<uint32_t> wanted_;  // the last frame's choice
  std::vector<bool> wantedNow_;   // by node
  uint64_t frame_ = 0;
  uint64_t maxPointBudget_ = 0;
  uint64_t rootPoints_ = 0;
  StreamingStats stats_;
  std::vector<std::string> errors_;                   // not yet taken
  std::vector<std::string> warnings_;                 // not yet taken
  size_t growthsTaken_ = 0;                           // of the source's growthSince()
  std::unordered_map<uint32_t, std::string> failed_;  // every node that failed, and why
  std::unique_ptr<NodeLoader> loader_;                // last: its threads stop first
};

}  // namespace pcv
