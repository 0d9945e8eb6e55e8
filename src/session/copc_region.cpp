#include "pcv/session/copc_region.hpp"

#include <cmath>
#include <vector>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/copc_file.hpp"

namespace pcv {
namespace {

bool inside(const glm::dvec3& p, const Box3d& box) {
  return p.x >= box.min.x && p.x <= box.max.x && p.y >= box.min.y && p.y <= box.max.y &&
         p.z >= box.min.z && p.z <= box.max.z;
}

/// The deepest level read: the first whose spacing is at most `resolution` (every level for 0).
int32_t deepestLevel(const CopcHierarchy& hierarchy, double resolution) {
  if (!(resolution > 0.0) || !(hierarchy.spacing > 0.0)) return INT32_MAX;
  int32_t level = 0;
  for (double spacing = hierarchy.spacing; spacing > resolution && level < 64; spacing /= 2.0) {
    ++level;
  }
  return level;
}

/// Appends the points of `node` inside `bounds` (all of them without) to `into`, whose
/// attributes are the file's, in the same order.
void appendInside(PointCloud& into, const PointCloud& node, const std::optional<Box3d>& bounds) {
  for (uint64_t i = 0; i < node.size(); ++i) {
    const Point& point = node.points[i];
    if (bounds && !inside(node.origin + glm::dvec3(point.x, point.y, point.z), *bounds)) continue;
    into.points.push_back(point);
    for (size_t a = 0; a < into.attributes.size(); ++a) {
      into.attributes[a].push_back(node.attributes[a].value(i));
    }
  }
}

}  // namespace

CopcRegionRead readCopcRegion(const std::filesystem::path& path, const CopcRegion& region,
                              const ReadOptions& options) {
  if (region.bounds && region.bounds->empty()) {
    throw InputError("the bounds to read are empty: each minimum must be at most its maximum");
  }
  if (!(region.resolution >= 0.0) || !std::isfinite(region.resolution)) {
    throw InputError("the resolution must be a finite number >= 0");
  }
  const CopcFile file(path, options);
  const CopcHierarchy& hierarchy = file.hierarchy();
  const int32_t deepest = deepestLevel(hierarchy, region.resolution);
  std::vector<size_t> wanted;
  CopcRegionRead read;
  for (size_t n = 0; n < hierarchy.nodes.size(); ++n) {
    const CopcNode& node = hierarchy.nodes[n];
    if (node.pointCount == 0) continue;
    ++read.nodesTotal;
    if (node.key.level > deepest) continue;
    if (region.bounds && !node.bounds.overlaps(*region.bounds)) continue;
    wanted.push_back(n);
  }
  std::vector<PointCloud> decoded(wanted.size());
  parallelForEachDynamic(wanted.size(), [&](size_t i) { decoded[i] = file.decodeNode(wanted[i]); });
  read.nodesRead = wanted.size();

  PointCloud& cloud = read.cloud;
  cloud.origin = file.origin();
  cloud.hasColor = file.hasColor();
  for (const std::string& name : file.attributeNames()) cloud.attributes.push_back({name, {}});
  // The attributes' types are the nodes' (all decoded alike).
  if (!decoded.empty() && decoded[0].attributes.size() == cloud.attributes.size()) {
    for (size_t a = 0; a < cloud.attributes.size(); ++a) {
      cloud.attributes[a].type = decoded[0].attributes[a].type;
    }
    cloud.lasPointFormat = decoded[0].lasPointFormat;
  }
  for (const PointCloud& node : decoded) appendInside(cloud, node, region.bounds);
  return read;
}

}  // namespace pcv
