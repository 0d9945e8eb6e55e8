#include "pcv/stream/streamed_cloud.hpp"

#include <algorithm>
#include <chrono>

#include "node_loader.hpp"
#include "stand_in_cover.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/stream/copc_node_source.hpp"
#include "pcv/stream/node_selection.hpp"

namespace pcv {
namespace {

/// The colouring every node gets: what the root's colouring did, with its range fixed, so the
/// nodes (each a part of the cloud) are coloured alike.
ColoringOptions fixedColoring(const Coloring& used, const ColoringOptions& asked) {
  ColoringOptions fixed = asked;
  fixed.mode = used.mode;
  if (!used.attribute.empty()) {
    fixed.map = used.map;
    fixed.range = used.range;
    if (used.mode == ColorMode::Attribute) fixed.attribute = used.attribute;
  }
  return fixed;
}

/// The colouring of a stream whose first root is read on demand (a dataset opened from its
/// index): chosen from the request and the forest's box alone, so that opening reads no tile.
/// The height range is the box's (a tile without colours, coloured by height, shows it too);
/// other scalars take each node's range unless one is given.
Coloring coloringWithoutPoints(const ColoringOptions& asked, const Box3d& bounds,
                               ColoringOptions& fixed) {
  fixed = asked;
  Coloring used{.mode = asked.mode};
  const bool heights = !bounds.empty() && bounds.max.z > bounds.min.z;
  if (!fixed.range && heights &&
      (asked.mode == ColorMode::Rgb || asked.mode == ColorMode::Elevation)) {
    fixed.range = ValueRange{bounds.min.z, bounds.max.z};
  }
  if (asked.mode == ColorMode::Elevation) {
    used.attribute = "z";
    used.map = asked.map.value_or(ColorMap::Turbo);
    if (fixed.range) used.range = *fixed.range;
  } else if (asked.mode == ColorMode::Intensity) {
    used.attribute = "intensity";
    used.map = asked.map.value_or(ColorMap::Grey);
  } else if (asked.mode == ColorMode::Classification) {
    used.attribute = "classification";
  } else if (asked.mode == ColorMode::Attribute) {
    used.attribute = asked.attribute;
    used.map = asked.map.value_or(ColorMap::Viridis);
  }
  if (asked.range) used.range = *asked.range;
  return used;
}

unsigned decodeThreads(unsigned asked) {
  if (asked > 0) return asked;
  return std::max(1u, usableCores() - 1);
}

}  // namespace

StreamedCloud::StreamedCloud(std::shared_ptr<const CopcFile> file, Renderer& renderer,
                             const StreamingOptions& options)
    : StreamedCloud(std::make_shared<const CopcNodeSource>(std::move(file)), renderer, options) {}

StreamedCloud::StreamedCloud(std::shared_ptr<const NodeSource> source, Renderer& renderer,
                             const StreamingOptions& options)
    : source_(std::move(source)),
      renderer_(renderer),
      options_(options),
      tree_(source_->forest()),
      standIns_(std::make_unique<const StandInCover>(tree_)),
      resident_(tree_.size()),
      wantedNow_(tree_.size(), false) {
  if (options_.gpuMemoryBytes == 0) throw InputError("streaming needs a GPU memory budget");
  for (int32_t root : tree_.roots()) {
    rootPoints_ = std::max(rootPoints_, tree_.node(size_t(root)).pointCount);
  }
  pool_ = renderer_.reservePool(options_.gpuMemoryBytes);
  maxPointBudget_ = pool_.pointCapacity() / 10 * 9;
  if (maxPointBudget_ < rootPoints_) {
    throw InputError("a resident-node budget (--gpu-memory) of " +
                     formatBytes(double(options_.gpuMemoryBytes)) + " holds " +
                     std::to_string(maxPointBudget_) + " points, fewer than the " +
                     std::to_string(rootPoints_) + " of the octree's root node: give more");
  }
  setPointBudget(options_.pointBudget);
  ColoringOptions fixed = options_.coloring;
  if (!tree_.roots().empty() && source_->readsOnDemand(size_t(tree_.roots().front()))) {
    coloring_ = coloringWithoutPoints(options_.coloring, tree_.bounds(), fixed);
  } else if (!tree_.roots().empty()) {
    const auto first = size_t(tree_.roots().front());
    const PointCloud root = source_->decodeNode(first);
    UninitializedVector<Point> colored;
    coloring_ = coloredPoints(root, options_.coloring, colored);
    fixed = fixedColoring(coloring_, options_.coloring);
    if (const auto set = addUnsorted(colored, root.attributes)) {
      makeResident(uint32_t(first), *set, colored.size());
      stats_.uploadedPoints += colored.size();
      stats_.residentPoints += colored.size();
    }
  }
  loader_ = std::make_unique<NodeLoader>(source_, fixed, decodeThreads(options_.decodeThreads),
                                         options_.hostMemoryBytes,
                                         NodeLayout{.spec = renderer_.layoutSpec(),
                                                    .filterData = options_.filterData,
                                                    .rangeAttribute = options_.rangeAttribute,
                                                    .onDevice = nodesLaidOutOnDevice()});
}

StreamedCloud::~StreamedCloud() {
  loader_.reset();  // the threads stop before the sets go
  // pool_ removes the sets and gives its memory back to the renderer.
}

const glm::dvec3& StreamedCloud::origin() const {
  return source_->origin();
}

Box3d StreamedCloud::bounds() const {
  return tree_.bounds();
}

std::vector<std::string> StreamedCloud::takeErrors() {
  takeFailures();
  return std::exchange(errors_, {});
}

std::vector<std::string> StreamedCloud::takeWarnings() {
  return std::exchange(warnings_, {});
}

void StreamedCloud::growTrees() {
  for (const TreeGrowth& growth : source_->growthSince(growthsTaken_)) {
    ++growthsTaken_;
    // The tree's root was a stand-in: it goes, and the root's own points are asked for.
    if (growth.root < resident_.size() && resident_[growth.root] &&
        resident_[growth.root]->standIn) {
      evict(growth.root);
    }
    tree_.grow(growth);
    if (!growth.warning.empty()) warnings_.push_back(growth.warning);
  }
  resident_.resize(tree_.size());
  wantedNow_.resize(tree_.size(), false);
}

void StreamedCloud::takeFailures() {
  for (NodeFailure& failure : loader_->takeFailures()) {
    errors_.push_back(failure.error);
    failed_.emplace(failure.node, std::move(failure.error));
  }
}

NodeState StreamedCloud::nodeState(size_t node) const {
  if (node >= resident_.size()) return NodeState::Idle;
  if (drawnForReal(node)) return NodeState::Resident;
  if (!failed_.empty() && failed_.contains(uint32_t(node))) return NodeState::Failed;
  return wantedNow_[node] && tree_.node(node).pointCount > 0 ? NodeState::Wanted : NodeState::Idle;
}

const std::string* StreamedCloud::nodeError(size_t node) const {
  const auto found = failed_.find(uint32_t(node));
  return found == failed_.end() ? nullptr : &found->second;
}

void StreamedCloud::replaceSource(std::shared_ptr<const NodeSource> source,
                                  const std::function<bool(const Box3d&)>& changed) {
  source_ = std::move(source);
  loader_->setSource(source_);
  decodeAgain(changed);
}

void StreamedCloud::setTint(std::shared_ptr<const NodeTint> tint,
                            const std::function<bool(const Box3d&)>& changed) {
  loader_->setTint(std::move(tint));
  decodeAgain(changed);
}

void StreamedCloud::decodeAgain(const std::function<bool(const Box3d&)>& changed) {
  for (uint32_t node : std::vector<uint32_t>(residentNodes_)) {
    Resident& resident = *resident_[node];
    // A stand-in holds none of the source's points: its tree's growth replaces it anyway.
    if (resident.standIn || !changed(tree_.node(node).bounds)) continue;
    if (resident.lastFrame == frame_) {
      resident.stale = true;  // drawn until its new points come (addDecoded)
    } else {
      evict(node);
    }
  }
}

void StreamedCloud::setPointBudget(uint64_t points) {
  options_.pointBudget = std::clamp(points, rootPoints_, maxPointBudget_);
}

void StreamedCloud::makeResident(uint32_t node, PointSetId set, uint64_t points, bool standIn) {
  resident_[node] = Resident{.set = set, .lastFrame = frame_, .points = points, .standIn = standIn};
  residentNodes_.push_back(node);
}

bool StreamedCloud::evictOneNotIn(const std::vector<bool>& wanted) {
  // The node drawn longest ago; among those, the lowest index (the choice does not depend on
  // the order nodes arrived in).
  size_t oldest = SIZE_MAX;
  for (uint32_t node : residentNodes_) {
    if (wanted[node]) continue;
    if (oldest == SIZE_MAX || resident_[node]->lastFrame < resident_[oldest]->lastFrame ||
        (resident_[node]->lastFrame == resident_[oldest]->lastFrame && node < oldest)) {
      oldest = node;
    }
  }
  if (oldest == SIZE_MAX) return false;
  evict(oldest);
  return true;
}

void StreamedCloud::evict(size_t node) {
  // The renderer orders the removal after every frame already submitted (one CUDA stream), so a
  // frame in flight never loses a node it draws.
  renderer_.removeSet(resident_[node]->set);
  stats_.residentPoints -= resident_[node]->points;
  resident_[node].reset();
  std::erase(residentNodes_, uint32_t(node));
  ++stats_.evictedNodes;
}

void StreamedCloud::repack() {
  for (uint32_t node : std::vector<uint32_t>(residentNodes_)) {
    if (!tree_.isRoot(node)) evict(node);
  }
  ++stats_.repacks;
}

std::optional<PointSetId> StreamedCloud::addUnsorted(std::span<const Point> points,
                                                     std::span<const ScalarAttribute> attributes) {
  // Laid out by the renderer; a set with filter data keeps its order for them.
  const std::optional<PointSetId> set =
      pool_.tryAddSet(HostPoints(points),
                      {.hasColor = source_->hasColor(), .keepSourceOrder = options_.filterData});
  if (set && options_.filterData) {
    renderer_.setFilterData(*set, filterDataOf(attributes, options_.rangeAttribute));
  }
  return set;
}

std::optional<PointSetId> StreamedCloud::addToPool(const DecodedNode& decoded) {
  if (!nodesLaidOutOnDevice()) {
    return pool_.tryAddSet(decoded.set, {.hasColor = source_->hasColor()});
  }
  return addUnsorted(decoded.unsorted.points, decoded.unsorted.attributes);  // as the first root
}

void StreamedCloud::addDecoded() {
  // The loader threads laid the nodes out; adding one here is a copy of its arrays (a kernel-free
  // upload on the GPU), or, where the device lays points out, a copy of the points and the
  // device's sort; it still gets only a slice of the frame: nodes are added one at a time
  // until the time or point budget is spent (at least one a frame, so a slow backend still
  // converges).
  const auto start = std::chrono::steady_clock::now();
  uint64_t added = 0;
  for (;;) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (added > 0 &&
        (added >= options_.uploadPointsPerFrame || seconds >= options_.uploadSecondsPerFrame)) {
      break;
    }
    std::vector<DecodedNode> next = loader_->take(1);  // the oldest decoded node
    if (next.empty()) break;
    DecodedNode& decoded = next.front();
    const uint64_t count = decoded.pointCount();
    added += std::max<uint64_t>(count, 1);
    if (resident_[decoded.node]) {
      if (!resident_[decoded.node]->stale) continue;
      // The node's points from the source as it is now replace the stale ones, in the same
      // frame: never a frame without the node.
      evict(decoded.node);
    }
    // A stand-in whose data was read meanwhile: the node's own points come next.
    if (decoded.standIn && !source_->readsOnDemand(decoded.node)) continue;
    bool repacked = false;
    for (;;) {
      std::optional<PointSetId> set;
      try {
        set = addToPool(decoded);
      } catch (const OutOfMemoryError& error) {
        // A backend that takes the reserved memory as nodes reach it (Vulkan) found none left
        // (another program took it): the node fails with the reason, the stream goes on.
        errors_.push_back(error.what());
        failed_.emplace(decoded.node, error.what());
        break;
      }
      if (set) {
        makeResident(decoded.node, *set, count, decoded.standIn);
        stats_.uploadedPoints += count;
        stats_.residentPoints += count;
        break;
      }
      // Room comes from the nodes drawn longest ago that this frame does not want.
      if (evictOneNotIn(wantedNow_)) continue;
      // Every resident node is wanted. When the pool still has the room in all, the holes that
      // evictions left are too small for this node: the pool is repacked (every node but the
      // roots goes, and comes back in the next frames, placed end to end). Otherwise the budget
      // asks for more than the GPU memory holds, and this node waits to be asked for again.
      if (repacked || stats_.residentPoints + count > pool_.pointCapacity()) break;
      repack();
      repacked = true;
    }
  }
}

std::vector<PointSetId> StreamedCloud::update(const Camera& camera, int widthPx, int heightPx) {
  ++frame_;
  growTrees();  // before the choice: a tile read since the last frame is ranked as its tree
  const NodeSelectionParams params{.camera = camera,
                                   .widthPx = widthPx,
                                   .heightPx = heightPx,
                                   .pointBudget = options_.pointBudget,
                                   .refineSpacingPx = options_.refineSpacingPx};
  wanted_ = selectNodes(tree_, params);
  std::fill(wantedNow_.begin(), wantedNow_.end(), false);  // bits: fast even for millions
  for (uint32_t node : wanted_) wantedNow_[node] = true;
  addDecoded();  // what the loader threads finished since the last frame
  takeFailures();
  // A dataset's overview steps aside where the tiles it stands in for are drawn; after the new
  // nodes are in, so the frame that completes the tiles draws them alone.
  for (uint32_t node :
       standIns_->dropCovered(wanted_, params, [&](uint32_t root) { return drawnForReal(root); })) {
    wantedNow_[node] = false;
  }
  std::vector<WantedNode> missing;
  for (uint32_t node : wanted_) {
    const uint64_t points = tree_.node(node).pointCount;
    // A stand-in stays until its tree grows in (which lets it go): it is not asked for again.
    // A stale node is asked for again while it is drawn; a failed one is not (a decode that
    // failed is known to the loader too, a node that found no memory only here).
    if ((!resident_[node] || resident_[node]->stale) && points > 0 &&
        (failed_.empty() || !failed_.contains(node))) {
      missing.push_back({.node = node, .points = points});
    }
  }
  loader_->want(missing);
  std::vector<PointSetId> sets;
  stats_.pointsDrawn = 0;
  stats_.nodesResident = 0;
  for (uint32_t node : wanted_) {
    if (!resident_[node]) continue;
    resident_[node]->lastFrame = frame_;
    sets.push_back(resident_[node]->set);
    stats_.pointsDrawn += resident_[node]->points;
    ++stats_.nodesResident;
  }
  stats_.nodesWanted = wanted_.size();
  stats_.nodesPending = loader_->pendingCount();
  stats_.nodesCached = residentNodes_.size();
  stats_.decodedPoints = loader_->decodedPoints();
  const NodeLoader::Seconds seconds = loader_->seconds();
  stats_.decodeSeconds = seconds.decode;
  stats_.layoutSeconds = seconds.layout;
  stats_.loaderIdleSeconds = seconds.idle;
  stats_.loaderThreads = loader_->threadCount();
  return sets;
}

void StreamedCloud::keepOnlyWanted() {
  for (uint32_t node : std::vector<uint32_t>(residentNodes_)) {
    if (!wantedNow_[node]) evict(node);
  }
  stats_.nodesCached = stats_.nodesResident;
}

bool StreamedCloud::converged() const {
  if (frame_ == 0) return false;  // no view has chosen its nodes yet
  return std::all_of(wanted_.begin(), wanted_.end(), [&](uint32_t node) {
    // A node that failed is done too: nothing more will come of it (its error is reported).
    return drawnForReal(node) || tree_.node(node).pointCount == 0 || failed_.contains(node);
  });
}

}  // namespace pcv
