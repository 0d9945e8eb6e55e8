// Tiles as node sources that open their files only while they decode.
#include "pcv/stream/tile_sources.hpp"

#include <algorithm>
#include <cmath>

#include "pcv/core/error.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/stream/copc_node_source.hpp"

namespace pcv {
namespace {

void requireNode(size_t node, size_t count, const std::string& path) {
  if (node >= count) {
    throw InputError(path + ": node " + std::to_string(node) + " is not in a tile of " +
                     std::to_string(count) + " nodes");
  }
}

/// Points of a tile spread over its ground: their spacing, were they evenly spread.
double evenSpacing(const Box3d& bounds, uint64_t points) {
  if (bounds.empty() || points == 0) return 0.0;
  const glm::dvec3 size = bounds.size();
  const double area = std::max(size.x * size.y, std::max(size.x, size.y) * size.z);
  return area > 0.0 ? std::sqrt(area / double(points)) : 0.0;
}

}  // namespace

PointCloud pointsMovedTo(PointCloud cloud, const glm::dvec3& origin) {
  const glm::dvec3 shift = cloud.origin - origin;
  if (shift == glm::dvec3(0.0)) return cloud;
  for (Point& point : cloud.points) {
    point.x = float(double(point.x) + shift.x);
    point.y = float(double(point.y) + shift.y);
    point.z = float(double(point.z) + shift.z);
  }
  cloud.origin = origin;
  return cloud;
}

std::vector<std::string> attributesRead(const Tile& tile, const ReadOptions& options) {
  std::vector<std::string> names;
  // Tiles are LAS, LAZ or COPC: their readers decode these.
  for (const std::string& name : tile.attributes) {
    if (options.wantsAttribute(name, lasAttributeReadByDefault(name))) names.push_back(name);
  }
  return names;
}

std::shared_ptr<const CopcFile> OpenCopcFiles::get(const std::string& path) {
  double channelScale = -1.0;  // none known: the file's root decides
  {
    const std::lock_guard lock(mutex_);
    if (const auto found = byPath_.find(path); found != byPath_.end()) {
      recent_.splice(recent_.begin(), recent_, found->second);
      return found->second->second;
    }
    if (const auto known = channelScales_.find(path); known != channelScales_.end()) {
      channelScale = known->second;
    }
  }
  // Opened outside the lock: other tiles decode meanwhile. Two threads opening the same file at
  // once both succeed; the second keeps the first's entry.
  auto file = std::make_shared<const CopcFile>(path, options_, channelScale);
  const std::lock_guard lock(mutex_);
  if (const auto found = byPath_.find(path); found != byPath_.end()) return found->second->second;
  recent_.emplace_front(path, file);
  byPath_[path] = recent_.begin();
  while (recent_.size() > std::max<size_t>(capacity_, 1)) {
    // The scale as the file decided it (its root's first decode, usually): kept for its next
    // opening. One not decided yet is decided by that opening.
    if (const auto scale = recent_.back().second->knownChannelScale()) {
      channelScales_.emplace(recent_.back().first, *scale);
    }
    byPath_.erase(recent_.back().first);
    recent_.pop_back();
  }
  return file;
}

size_t OpenCopcFiles::openCount() const {
  const std::lock_guard lock(mutex_);
  return recent_.size();
}

CopcTileSource::CopcTileSource(const Tile& tile, std::shared_ptr<OpenCopcFiles> files,
                               const ReadOptions& options, const CopcHierarchyFetch& fetch)
    : path_(tile.path), files_(std::move(files)) {
  const CopcHierarchy hierarchy = readCopcHierarchy(path_, fetch);
  forest_ = forestOf(hierarchy);
  // The box's centre in whole units, as a plain tile's and as a tile known from a dataset's
  // index (deferred_tile_source.hpp) before it is read: a dataset draws the same offsets
  // whether it opened from its headers or its index. decodeNode moves the file's points here.
  origin_ = tile.bounds.empty() ? glm::round(hierarchy.center) : glm::round(tile.bounds.center());
  hasColor_ = tile.hasColor && options.colors;
  attributes_ = attributesRead(tile, options);
}

PointCloud CopcTileSource::decodeNode(size_t node) const {
  requireNode(node, forest_.nodes.size(), path_);
  if (rootHidden_ && node == rootNode()) {
    PointCloud none;
    none.origin = origin_;
    none.hasColor = hasColor_;
    for (const std::string& name : attributes_)
      none.attributes.push_back({.name = name, .values = {}});
    return none;
  }
  return pointsMovedTo(files_->get(path_)->decodeNode(node), origin_);
}

std::optional<NodeRecords> CopcTileSource::recordsOf(size_t node) const {
  if (isRemoteLocation(path_) || node >= forest_.nodes.size() ||
      (rootHidden_ && node == rootNode())) {
    return std::nullopt;
  }
  const std::optional<uint64_t> first = files_->get(path_)->firstRecordOf(node);
  if (!first) return std::nullopt;
  return NodeRecords{.file = path_, .first = *first, .count = forest_.nodes[node].pointCount};
}

void CopcTileSource::prefetchNodes(const std::vector<size_t>& nodes) const noexcept {
  // Local tiles have nothing to fetch: they are not opened for a hint.
  if (!isRemoteLocation(path_)) return;
  try {
    files_->get(path_)->prefetchNodes(nodes);
  } catch (const std::exception&) {
    // decodeNode meets the fault again and reports it for its node.
  }
}

size_t CopcTileSource::rootNode() const {
  for (size_t node = 0; node < forest_.nodes.size(); ++node) {
    if (forest_.nodes[node].key.level == 0) return node;
  }
  return forest_.nodes.size();
}

void CopcTileSource::hideRoot() {
  const size_t root = rootNode();
  if (root == forest_.nodes.size()) return;
  forest_.nodes[root].pointCount = 0;
  rootHidden_ = true;
}

WholeTileSource::WholeTileSource(const Tile& tile, ReadOptions options,
                                 std::vector<uint64_t> shownElsewhere)
    : path_(tile.path),
      options_(std::move(options)),
      declaredPoints_(tile.pointCount),
      shownElsewhere_(std::move(shownElsewhere)) {
  options_.headerOnly = false;
  const uint64_t points =
      tile.pointCount - std::min<uint64_t>(tile.pointCount, shownElsewhere_.size());
  forest_.trees.push_back({.rootSpacing = evenSpacing(tile.bounds, points)});
  forest_.nodes.push_back({.tree = 0, .key = {}, .bounds = tile.bounds, .pointCount = points});
  // The box's centre in whole units: tiles far from zero keep sub-millimetre offsets.
  origin_ = tile.bounds.empty() ? tile.origin : glm::round(tile.bounds.center());
  hasColor_ = tile.hasColor && options_.colors;
  attributes_ = attributesRead(tile, options_);
}

std::optional<NodeRecords> WholeTileSource::recordsOf(size_t node) const {
  if (node != 0 || !shownElsewhere_.empty() || isRemoteLocation(path_)) return std::nullopt;
  // A decode that dropped records (non-finite positions) has another count, and does not map.
  return NodeRecords{.file = path_, .first = 0, .count = declaredPoints_};
}

PointCloud WholeTileSource::decodeNode(size_t node) const {
  requireNode(node, 1, path_);
  PointCloud cloud = readPointCloud(path_, options_, nullptr, nullptr);
  // The points come in record order unless some were dropped (non-finite): then the indices no
  // longer hold and the overview's few points are drawn twice, which shows the same pixels.
  if (!shownElsewhere_.empty() && cloud.size() == declaredPoints_) {
    // The records between two left out move down as one block (a tile's overview leaves out a
    // few records, so the blocks are long), not value by value.
    uint64_t out = 0;
    const auto keep = [&](uint64_t begin, uint64_t end) {
      if (begin < end && begin != out) {
        std::copy(cloud.points.begin() + std::ptrdiff_t(begin),
                  cloud.points.begin() + std::ptrdiff_t(end),
                  cloud.points.begin() + std::ptrdiff_t(out));
        for (ScalarAttribute& attribute : cloud.attributes) {
          if (attribute.wide()) {
            std::copy(attribute.wideValues.begin() + std::ptrdiff_t(begin),
                      attribute.wideValues.begin() + std::ptrdiff_t(end),
                      attribute.wideValues.begin() + std::ptrdiff_t(out));
          } else {
            std::copy(attribute.values.begin() + std::ptrdiff_t(begin),
                      attribute.values.begin() + std::ptrdiff_t(end),
                      attribute.values.begin() + std::ptrdiff_t(out));
          }
        }
      }
      out += end - begin;
    };
    uint64_t next = 0;  // the first record not yet kept or left out
    for (const uint64_t skipped : shownElsewhere_) {
      if (skipped < next) continue;
      if (skipped >= cloud.size()) break;
      keep(next, skipped);
      next = skipped + 1;
    }
    keep(next, cloud.size());
    cloud.points.resize(out);
    for (auto& attribute : cloud.attributes) attribute.resize(out);
  }
  if (!hasColor_) cloud.hasColor = false;
  return pointsMovedTo(std::move(cloud), origin_);
}

MemoryNodeSource::MemoryNodeSource(PointCloud cloud, const Box3d& bounds)
    : cloud_(std::move(cloud)) {
  forest_.trees.push_back({.rootSpacing = evenSpacing(bounds, cloud_.size())});
  forest_.nodes.push_back({.tree = 0, .key = {}, .bounds = bounds, .pointCount = cloud_.size()});
  for (const ScalarAttribute& attribute : cloud_.attributes) attributes_.push_back(attribute.name);
}

PointCloud MemoryNodeSource::decodeNode(size_t node) const {
  requireNode(node, 1, "points in memory");
  return cloud_;
}

}  // namespace pcv
