/// @brief An open COPC file for streaming: its octree, and any node's points decoded on demand,
/// from several threads at once, without reading the rest of the file. Every node's points are
/// offsets from one origin, so nodes drawn together line up.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/point_cloud.hpp"
#include "pcv/io/copc_hierarchy.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv {

class CopcFile {
 public:
  /// Opens the file (mapped; a URL is read by HTTP range requests, pcv/io/remote_source.hpp) and
  /// reads its header, LASzip VLR, chunk table and hierarchy (not its points).
  /// `options` chooses the attributes and colours decoded (and so the layers of each chunk).
  /// Throws InputError naming the file and the byte when it is not a readable COPC file.
  explicit CopcFile(const std::filesystem::path& path, const ReadOptions& options = {});
  /// The same, with the colour scale known from an earlier opening (channelScale()): the root
  /// node is not decoded again to find it, which a cache of open files that reopens a file
  /// would otherwise pay each time. A negative scale: none known.
  CopcFile(const std::filesystem::path& path, const ReadOptions& options, double channelScale);
  ~CopcFile();
  CopcFile(const CopcFile&) = delete;
  CopcFile& operator=(const CopcFile&) = delete;

  const std::filesystem::path& path() const;
  const CopcHierarchy& hierarchy() const;
  /// The origin of every decoded node's points (the octree's centre, rounded).
  const glm::dvec3& origin() const;
  /// Whether the records carry colours of their own.
  bool hasColor() const;
  /// The attributes each decoded node carries, in order.
  const std::vector<std::string>& attributeNames() const;
  /// Points in the file (the header's count).
  uint64_t pointCount() const;
  /// The points' world bounds as the header states them, or the octree's root cube where the
  /// header's make no box (for framing a view before any point is decoded).
  Box3d statedBounds() const;
  /// What 16-bit colour channels are multiplied by to make 8-bit ones, decided once from the
  /// root node's largest channel value: by the root's first decode (which then decodes its chunk
  /// once, not once for the scale and again for the points), or here, or by the first decode of
  /// another node, whichever comes first (those two decode the root's chunk for it).
  double channelScale() const;
  /// channelScale() when it is decided already (given at the opening, or decided since), else
  /// none: for a cache of open files to keep it without deciding it.
  std::optional<double> knownChannelScale() const;
  /// LAZ chunks decoded so far (points or a colour scale), all threads together: what a node
  /// costs to decode, for tests and benchmarks.
  uint64_t chunksDecoded() const;

  /// The points of hierarchy().nodes[node]: positions as offsets from origin(), the file's
  /// colours (16-bit colours scaled as the root node's maximum says, like a LAS file's), and
  /// the attributes. Safe to call from several threads. Throws InputError naming the file, the
  /// node and the byte when its chunk is broken.
  PointCloud decodeNode(size_t node) const;
  /// The index in the file of the first record of hierarchy().nodes[node]'s chunk: the node's
  /// decoded point i is record firstRecordOf(node) + i. Empty for a node without a chunk.
  std::optional<uint64_t> firstRecordOf(size_t node) const;

  /// Hint: these nodes are decoded soon. A remote file fetches their chunks together (merged
  /// where adjacent, several requests in flight); a local one does nothing. Throws as decodeNode.
  void prefetchNodes(const std::vector<size_t>& nodes) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pcv
