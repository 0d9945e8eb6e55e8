/// @brief A node source made up for tests: `trees` full octrees of `levels` levels side by side
/// along x, far from the world origin (as georeferenced tiles are), each node's points spread
/// over its cube from a seed of its own, each tree in a colour of its own.
#pragma once

#include <random>

#include "pcv/stream/node_source.hpp"

namespace pcv::test {

class SyntheticNodeSource final : public NodeSource {
 public:
  /// Root cubes of edge 100, 150 apart, starting at `corner`; `pointsPerNode` in every node.
  SyntheticNodeSource(int trees, int levels, uint64_t pointsPerNode,
                      glm::dvec3 corner = glm::dvec3(500'000.0, 5'000'000.0, 100.0))
      : origin_(corner + glm::dvec3(50.0)) {
    for (int t = 0; t < trees; ++t) {
      forest_.trees.push_back({.rootSpacing = 100.0 / 16.0});
      const glm::dvec3 treeCorner = corner + glm::dvec3(150.0 * t, 0.0, 0.0);
      for (int level = 0; level < levels; ++level) {
        const int cells = 1 << level;
        const double edge = 100.0 / cells;
        for (int x = 0; x < cells; ++x) {
          for (int y = 0; y < cells; ++y) {
            for (int z = 0; z < cells; ++z) {
              SourceNode node{.tree = uint32_t(t), .key = {level, x, y, z}};
              node.bounds.min = treeCorner + glm::dvec3(x, y, z) * edge;
              node.bounds.max = node.bounds.min + glm::dvec3(edge);
              node.pointCount = pointsPerNode;
              forest_.nodes.push_back(node);
            }
          }
        }
      }
    }
  }

  const NodeForest& forest() const override { return forest_; }
  const glm::dvec3& origin() const override { return origin_; }
  bool hasColor() const override { return true; }
  const std::vector<std::string>& attributeNames() const override { return attributes_; }

  PointCloud decodeNode(size_t index) const override {
    const SourceNode& node = forest_.nodes.at(index);
    std::mt19937_64 random(index + 1);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    PointCloud cloud{.origin = origin_, .hasColor = true};
    cloud.points.resize(node.pointCount);
    const uint32_t rgba = treeColor(node.tree);
    for (Point& point : cloud.points) {
      const glm::dvec3 world =
          node.bounds.min +
          glm::dvec3(unit(random), unit(random), unit(random)) * node.bounds.size();
      const glm::dvec3 offset = world - origin_;
      point = {float(offset.x), float(offset.y), float(offset.z), rgba};
    }
    return cloud;
  }

  static uint32_t treeColor(uint32_t tree) {
    return packRgba(uint8_t(60 + 90 * (tree % 3)), uint8_t(200 - 70 * (tree % 3)), 40);
  }

 private:
  NodeForest forest_;
  glm::dvec3 origin_;
  std::vector<std::string> attributes_;
};

}  // namespace pcv::test
