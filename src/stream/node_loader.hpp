/// @brief Decodes octree nodes on a pool of threads, most wanted first, and lays each out for
/// drawing there (laid_out_set.hpp), so the frame loop never waits for a disk read or a decode
/// and never sorts on the CPU: the loop says each frame which nodes it wants, and takes the ones
/// that are done as sets to copy in. Where the renderer sorts on its device (CUDA), the loader
/// hands the coloured points over unsorted instead, and the device lays them out: the host's
/// sort would only repeat work the GPU does in microseconds. Decoded nodes wait for the loop
/// within a host memory budget.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "pcv/core/point.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/core/uninitialized_vector.hpp"
#include "pcv/raster/laid_out_set.hpp"
#include "pcv/stream/node_source.hpp"
#include "pcv/stream/node_tint.hpp"

namespace pcv {

/// A node that could not be decoded, and why.
struct NodeFailure {
  uint32_t node = 0;
  std::string error;
};

/// A node's points, coloured, as offsets from the source's origin: laid out for the renderer,
/// or (NodeLayout::onDevice) as decoded, for the renderer to lay out on its device.
struct DecodedNode {
  uint32_t node = 0;
  LaidOutSet set;
  /// Instead of `set`: the coloured points, with the attributes filters read where the layout
  /// asks for filter data (none otherwise).
  PointCloud unsorted;
  /// The node read on demand when its decode began (NodeSource::readsOnDemand): its points
  /// may be a stand-in for data not read yet.
  bool standIn = false;

  uint64_t pointCount() const { return set.pointCount() + unsorted.size(); }
  /// Host memory the node holds while it waits.
  uint64_t hostBytes() const;
};

/// A node to decode and its point count (what it will hold in memory), as the caller's forest
/// says: a source's forest may have grown past what forest() lists.
struct WantedNode {
  uint32_t node = 0;
  uint64_t points = 0;
};

/// How the loader lays out each node: the renderer's layout, and whether the sets carry the data
/// filters read (then they keep their source order too).
struct NodeLayout {
  LayoutSpec spec;
  bool filterData = false;
  std::string rangeAttribute;  ///< with filterData, the attribute range filters test (or none)
  /// The renderer lays points out on its device (Renderer::laysOutOnDevice): nodes are handed
  /// over unsorted (DecodedNode::unsorted).
  bool onDevice = false;
};

class NodeLoader {
 public:
  /// `coloring` is applied to every node (its range fixed, so nodes agree); `hostBudgetBytes`
  /// bounds the laid-out nodes waiting to be taken, and those being decoded.
  NodeLoader(std::shared_ptr<const NodeSource> source, const ColoringOptions& coloring,
             unsigned threads, uint64_t hostBudgetBytes, NodeLayout layout);
  ~NodeLoader();  ///< stops the threads; decodes in progress finish first
  NodeLoader(const NodeLoader&) = delete;
  NodeLoader& operator=(const NodeLoader&) = delete;

  /// The nodes to decode next, most wanted first; replaces the previous list (nodes being
  /// decoded finish anyway). Nodes already decoded or failed are skipped.
  void want(const std::vector<WantedNode>& nodes);
  /// Laid-out nodes, at most `maxPoints` points of them (at least one node when any is ready).
  std::vector<DecodedNode> take(uint64_t maxPoints);
  /// Decodes from `source` from now on (the same forest, other points: edits made): nodes
  /// decoded from the old source and not yet taken are dropped, and those being decoded are
  /// dropped when they finish, so take() never gives a node of the old source after this.
  void setSource(std::shared_ptr<const NodeSource> source);
  /// Recolours every node decoded from now on with `tint` (none: null), dropping what was
  /// decoded before as setSource does.
  void setTint(std::shared_ptr<const NodeTint> tint);
  /// Whether `node` is queued, being decoded or waiting to be taken.
  bool pending(uint32_t node) const;
  /// Nodes queued, being decoded or waiting.
  size_t pendingCount() const;
  /// Nodes that could not be decoded, with their errors (each reported once); those nodes are
  /// not tried again.
  std::vector<NodeFailure> takeFailures();
  /// Points decoded since the start, and the threads' seconds spent on them.
  uint64_t decodedPoints() const;
  /// The threads' seconds since the start, all threads together (StreamingStats says which).
  struct Seconds {
    double decode = 0.0;
    double layout = 0.0;
    double idle = 0.0;
  };
  Seconds seconds() const;
  unsigned threadCount() const { return unsigned(threads_.size()); }

 private:
  void run();
  /// Makes `change` (to the source or the tint) under the lock, and drops what was decoded
  /// before it: nodes ready now, and those being decoded when they finish.
  void restart(const std::function<void()>& change);

  std::shared_ptr<const NodeSource> source_;  // guarded
  std::shared_ptr<const NodeTint> tint_;      // guarded
  uint64_t sourceGeneration_ = 0;             // guarded: sources and tints set so far
  const ColoringOptions coloring_;
  const NodeLayout layout_;
  const uint64_t hostBudgetBytes_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<WantedNode> queue_;             // guarded: wanted, not started
  std::unordered_set<uint32_t> inFlight_;    // guarded: being decoded
  std::vector<DecodedNode> ready_;           // guarded: decoded, not taken
  std::unordered_set<uint32_t> readyNodes_;  // guarded: the nodes of ready_
  std::unordered_set<uint32_t> failed_;      // guarded
  std::vector<NodeFailure> failures_;        // guarded
  uint64_t bytesHeld_ = 0;                   // guarded: ready and in flight
  uint64_t decodedPoints_ = 0;               // guarded
  Seconds seconds_;                          // guarded: of waits and decodes done
  unsigned waiting_ = 0;                     // guarded: threads waiting for a node now
  double waitStartsSum_ = 0.0;               // guarded: their waits' starts, seconds
  bool stopping_ = false;                    // guarded
  std::vector<std::thread> threads_;         // last: start once everything above exists
};

}  // namespace pcv
