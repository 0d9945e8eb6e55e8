// A tile from a dataset's index, read when the stream first wants it.
#include "pcv/stream/deferred_tile_source.hpp"

#include <algorithm>
#include <cmath>

#include "pcv/core/error.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/io/uri_reference.hpp"

namespace pcv {
namespace {

/// Bytes a COPC point takes, as LAZ of point formats 6 to 8 with colours typically compresses
/// (5 to 10): a tile whose count times this is within the first request's 64 KiB is taken to
/// fit in it, and its end is not asked for with it. A guess too high costs a request more in
/// the same round trip; too low, a round trip more.
constexpr uint64_t kTypicalBytesPerPoint = 8;

/// Whether two boxes differ by more than rounding: a VPC writes its boxes from the headers,
/// perhaps in fewer digits.
bool differ(const Box3d& a, const Box3d& b) {
  const double tolerance = 1e-6 * std::max(1.0, glm::length(a.size())) + 1e-3;
  for (int axis = 0; axis < 3; ++axis) {
    // A 2D box (z at [0, 0]) says nothing of heights.
    if (axis == 2 && a.min.z == 0.0 && a.max.z == 0.0) continue;
    if (std::abs(a.min[axis] - b.min[axis]) > tolerance ||
        std::abs(a.max[axis] - b.max[axis]) > tolerance) {
      return true;
    }
  }
  return false;
}

/// What the index said that the header does not: empty where they agree.
std::string disagreement(uint64_t points, const Box3d& bounds, TileFormat format,
                         const Tile& header) {
  std::vector<std::string> what;
  if (points != header.pointCount) {
    what.push_back("pc:count " + std::to_string(points) + ", the header " +
                   std::to_string(header.pointCount) + " points");
  }
  if (differ(bounds, header.bounds)) what.push_back("its box differs from the header's");
  // A ".laz" name says nothing of COPC or not: either is what it names.
  const bool lazEither = format == TileFormat::Laz && header.format == TileFormat::Copc;
  if (format != header.format && !lazEither) {
    what.push_back(std::string("named as ") + tileFormatName(format) + ", the file is " +
                   tileFormatName(header.format));
  }
  if (what.empty()) return {};
  std::string text = locationForMessages(header.path) + ": the dataset's index says ";
  for (size_t i = 0; i < what.size(); ++i) text += (i > 0 ? "; " : "") + what[i];
  return text + "; the tile is drawn as its header says";
}

}  // namespace

DeferredTileSource::DeferredTileSource(const Tile& tile,
                                       std::shared_ptr<const DeferredTiles> shared, size_t member)
    : path_(tile.path),
      indexPoints_(tile.pointCount),
      indexBounds_(tile.bounds),
      indexFormat_(tile.format),
      shared_(std::move(shared)),
      member_(member) {
  const uint64_t rootPoints = std::min(tile.pointCount, kAssumedRootPoints);
  double spacing = 0.0;
  if (!tile.bounds.empty() && rootPoints > 0) {
    const glm::dvec3 size = tile.bounds.size();
    spacing = std::sqrt(std::max(size.x * size.y, 1e-12) / double(rootPoints));
  }
  forest_.trees.push_back({.rootSpacing = spacing});
  forest_.nodes.push_back({.tree = 0, .key = {}, .bounds = tile.bounds, .pointCount = rootPoints});
  // As a read tile's (CopcTileSource): the points come in the same offsets either way.
  origin_ = glm::round(tile.bounds.center());
  hasColor_ = tile.hasColor && shared_->read.colors;
}

bool DeferredTileSource::isRead() const {
  return state_.load(std::memory_order_acquire) == ReadState::Read;
}

const NodeSource* DeferredTileSource::read() const {
  const std::lock_guard lock(mutex_);
  if (state_.load(std::memory_order_relaxed) == ReadState::Read) {
    if (!failure_.empty()) throw InputError(failure_);
    return tile_.get();
  }
  // Read under the lock: the loader threads that want this tile's nodes wait for the one read.
  std::shared_ptr<const NodeSource> tile;
  Tile header;
  try {
    if (isRemoteLocation(path_)) {
      // The first round trip brings the header and VLRs and, unless the index says the file is
      // small enough for the first block to hold it all, the file's end: its chunk table and
      // hierarchy pages (every COPC writer puts them there).
      const uint64_t likelyBytes = indexPoints_ > UINT64_MAX / kTypicalBytesPerPoint
                                       ? 0  // unknown: any size
                                       : indexPoints_ * kTypicalBytesPerPoint;
      openRemotePointFile(path_, likelyBytes);
    }
    header = describeTile(path_);
    if (header.format == TileFormat::Copc) {
      // The root's chunk comes with the pages below the root page: the stream decodes the root
      // next, from the cache.
      tile = std::make_shared<const CopcTileSource>(header, shared_->files, shared_->read,
                                                    CopcHierarchyFetch{.rootChunk = true});
    } else {
      tile = std::make_shared<const WholeTileSource>(header, shared_->read);
    }
  } catch (const Error& error) {
    state_.store(ReadState::Read, std::memory_order_release);
    if (!shared_->skipWhenBroken) {
      failure_ = error.what();
      // A growth that changes nothing: the stream lets go of the stand-in and asks for the
      // root again, whose decode then fails with this error.
      growth_.push_back({.rootNode = forest_.nodes.front()});
      if (const auto members = shared_->members.lock()) members->grew(member_);
      throw InputError(failure_);
    }
    // Left out: the stand-in root holds nothing, and the warning says why.
    TreeGrowth growth{.rootNode = forest_.nodes.front(),
                      .warning = std::string("tile skipped (--skip-bad-tiles): ") + error.what()};
    growth.rootNode.pointCount = 0;
    growth_.push_back(std::move(growth));
    tileNode_ = {0};
    if (const auto members = shared_->members.lock()) members->grew(member_);
    return nullptr;
  }
  const NodeForest& forest = tile->forest();
  TreeGrowth growth{.rootSpacing = forest.trees.empty() ? 0.0 : forest.trees.front().rootSpacing,
                    .warning = disagreement(indexPoints_, indexBounds_, indexFormat_, header)};
  // The tile's root takes the stand-in's place (index 0); the others follow in the tile's order.
  const auto root = std::find_if(forest.nodes.begin(), forest.nodes.end(),
                                 [](const SourceNode& node) { return node.key.level == 0; });
  std::vector<size_t> tileNode;
  if (root != forest.nodes.end()) {
    tileNode.push_back(size_t(root - forest.nodes.begin()));
    growth.rootNode = *root;
  } else {
    // No node at all (an empty hierarchy): the root stays, holding nothing.
    tileNode.push_back(forest.nodes.size());
    growth.rootNode = forest_.nodes.front();
    growth.rootNode.pointCount = 0;
  }
  growth.rootNode.tree = 0;
  for (size_t node = 0; node < forest.nodes.size(); ++node) {
    if (node == tileNode.front() || forest.nodes[node].tree != 0) continue;
    tileNode.push_back(node);
    growth.nodes.push_back(forest.nodes[node]);
  }
  tile_ = std::move(tile);
  tileNode_ = std::move(tileNode);
  growth_.push_back(std::move(growth));
  state_.store(ReadState::Read, std::memory_order_release);
  if (const auto members = shared_->members.lock()) members->grew(member_);
  return tile_.get();
}

void DeferredTileSource::readAhead() const {
  ReadState unread = ReadState::Unread;
  if (!state_.compare_exchange_strong(unread, ReadState::Reading)) return;
  const auto members = shared_->members.lock();
  if (!members) return;
  members->readAhead([tile = weak_from_this()] {
    const auto source = tile.lock();
    if (!source) return;
    try {
      source->read();
    } catch (const std::exception&) {
      // Its decode meets the fault again and reports it for its node.
    }
  });
}

PointCloud DeferredTileSource::standIn() const {
  PointCloud cloud;
  cloud.origin = origin_;
  cloud.hasColor = false;
  const uint64_t wanted =
      std::clamp<uint64_t>(uint64_t(std::llround(double(indexPoints_) * shared_->standInShare)), 1,
                           kStandInPointsPerTile);
  const auto across = uint64_t(std::max(1.0, std::floor(std::sqrt(double(wanted)))));
  const glm::dvec3 low = indexBounds_.min - origin_, size = indexBounds_.size();
  const double z = 0.5 * (indexBounds_.min.z + indexBounds_.max.z) - origin_.z;
  for (uint64_t i = 0; i < across; ++i) {
    for (uint64_t j = 0; j < across; ++j) {
      cloud.points.push_back({float(low.x + size.x * (double(i) + 0.5) / double(across)),
                              float(low.y + size.y * (double(j) + 0.5) / double(across)), float(z),
                              0u});
    }
  }
  for (const std::string& name : shared_->attributes) {
    ScalarAttribute attribute{.name = name, .values = {}};
    attribute.resize(cloud.points.size());
    for (uint64_t i = 0; i < attribute.size(); ++i) attribute.setValue(i, 0.0);
    cloud.attributes.push_back(std::move(attribute));
  }
  return cloud;
}

std::optional<NodeRecords> DeferredTileSource::recordsOf(size_t node) const {
  if (state_.load(std::memory_order_acquire) != ReadState::Read) return std::nullopt;
  const std::lock_guard lock(mutex_);
  if (!tile_ || node >= tileNode_.size()) return std::nullopt;  // skipped, failed
  const size_t tileNode = tileNode_[node];
  if (tileNode >= tile_->forest().nodes.size()) return std::nullopt;
  return tile_->recordsOf(tileNode);
}

PointCloud DeferredTileSource::decodeNode(size_t node) const {
  if (node == 0 && state_.load(std::memory_order_acquire) != ReadState::Read) {
    readAhead();
    return standIn();
  }
  const NodeSource* tile = read();
  size_t tileNode = 0;
  {
    const std::lock_guard lock(mutex_);
    if (node >= tileNode_.size()) {
      throw InputError(locationForMessages(path_) + ": node " + std::to_string(node) +
                       " is not in a tile of " + std::to_string(tileNode_.size()) + " nodes");
    }
    tileNode = tileNode_[node];
  }
  if (!tile || tileNode >= tile->forest().nodes.size()) {  // skipped, or an empty hierarchy
    PointCloud none;
    none.origin = origin_;
    none.hasColor = hasColor_;
    for (const std::string& name : shared_->attributes) {
      none.attributes.push_back({.name = name, .values = {}});
    }
    return none;
  }
  return pointsMovedTo(tile->decodeNode(tileNode), origin_);
}

void DeferredTileSource::prefetchNodes(const std::vector<size_t>& nodes) const noexcept {
  if (state_.load(std::memory_order_acquire) != ReadState::Read) {
    // Read ahead, once, while the loader threads decode what is ready (a remote tile's read is
    // round trips); its stand-in is what node 0 decodes to meanwhile.
    readAhead();
    return;
  }
  std::shared_ptr<const NodeSource> tile;
  std::vector<size_t> tileNodes;
  {
    const std::lock_guard lock(mutex_);
    if (!tile_) return;  // skipped
    tile = tile_;
    for (size_t node : nodes) {
      if (node < tileNode_.size()) tileNodes.push_back(tileNode_[node]);
    }
  }
  tile->prefetchNodes(tileNodes);
}

std::vector<TreeGrowth> DeferredTileSource::growthSince(size_t known) const {
  const std::lock_guard lock(mutex_);
  if (known >= growth_.size()) return {};
  return {growth_.begin() + std::ptrdiff_t(known), growth_.end()};
}

}  // namespace pcv
