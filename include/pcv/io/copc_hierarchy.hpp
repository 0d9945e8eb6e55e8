/// @brief The octree of a COPC file (cloud-optimized point cloud: LAZ 1.4 whose chunks are octree
/// nodes), read from its info VLR and hierarchy pages only, never its points: what a streaming
/// renderer needs to pick nodes and fetch their chunks.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"

namespace pcv {

/// A node's place in the octree: level 0 is the root cube; at level L the cube is cut into 2^L
/// cells per axis and x, y, z (0 .. 2^L - 1) name one.
struct CopcNodeKey {
  int32_t level = 0;
  int32_t x = 0, y = 0, z = 0;

  bool operator==(const CopcNodeKey&) const = default;
};

struct CopcNode {
  CopcNodeKey key;
  Box3d bounds;             ///< the node's cube in world coordinates
  uint64_t pointCount = 0;  ///< points in its chunk (0: an empty node whose children may hold some)
  uint64_t chunkOffset = 0;  ///< file offset of its LAZ chunk (0 for empty nodes)
  uint64_t chunkBytes = 0;   ///< compressed size of the chunk
};

struct CopcHierarchy {
  glm::dvec3 center{0.0};  ///< of the root cube, world coordinates
  double halfSize = 0.0;   ///< from the center to each face of the root cube
  double spacing = 0.0;    ///< between points at the root; halves at each level
  double gpsTimeMin = 0.0, gpsTimeMax = 0.0;
  std::vector<CopcNode> nodes;  ///< every node the hierarchy lists, pages flattened in file order
  uint32_t pageCount = 0;       ///< hierarchy pages read

  /// Levels 0 .. levelCount() - 1 hold nodes.
  uint32_t levelCount() const;
  /// Points held at each level.
  std::vector<uint64_t> pointsPerLevel() const;
  /// The cube of `key`.
  Box3d boundsOf(const CopcNodeKey& key) const;
};

/// True when `path` is a regular file in LAS form with a COPC info VLR; false for anything else
/// (missing, a folder, another format, a header too broken to tell), which its reader explains.
/// A URL is asked by range requests (its header and its end in one round trip,
/// openRemotePointFile); one that cannot be read throws its RemoteError.
bool isCopcFile(const std::filesystem::path& path);

/// What readCopcHierarchy fetches of a remote file besides its header, VLRs and pages.
struct CopcHierarchyFetch {
  /// The root node's chunk, in the round trip of the pages below the root page (or alone right
  /// after it): a reader that decodes the root next finds it in the cache instead of asking
  /// once more. Nothing is read ahead of a local file.
  bool rootChunk = false;
};

/// Reads the hierarchy of a COPC file: the header, the VLRs and the hierarchy pages. Throws
/// InputError (file, byte, what was expected) when it is not COPC or its hierarchy is broken.
CopcHierarchy readCopcHierarchy(const std::filesystem::path& path,
                                const CopcHierarchyFetch& fetch = {});

}  // namespace pcv
