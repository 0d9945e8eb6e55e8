/// @brief A COPC file being written: LAS 1.4 with the COPC info VLR first, one variable-size LAZ
/// chunk per octree node in whatever order the nodes are finished, then the chunk table, the
/// hierarchy pages in an EVLR, and the info VLR's cube, spacing, hierarchy and GPS time range.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "hierarchy_pages.hpp"
#include "pcv/io/las_writer.hpp"

namespace pcv::io {

/// The root cube of the octree in world coordinates.
struct CopcCube {
  glm::dvec3 center{0.0};
  double halfSize = 0.0;
};

/// A node's records (count * recordLength bytes), to be one chunk.
struct CopcNodeRecords {
  CopcNodeKey key;
  const uint8_t* records = nullptr;
  uint64_t count = 0;
};

class CopcFileWriter {
 public:
  /// Creates `path` for records of `format` (point format 6, 7 or 8, LAS 1.4); throws Error.
  /// Unfinished, the file is removed when the writer goes.
  CopcFileWriter(const std::filesystem::path& path, const LasWriteFormat& format);

  /// Encodes each node's records as one chunk, on all cores, and appends them.
  void writeNodes(std::span<const CopcNodeRecords> nodes);
  /// Lists a node without points (its descendants have some).
  void addEmptyNode(const CopcNodeKey& key);

  uint64_t nodesWritten() const { return nodesWritten_; }
  uint64_t pointsWritten() const { return pointsWritten_; }
  const std::vector<CopcHierarchyEntry>& entries() const { return entries_; }
  /// Encoding and writing times of the chunks so far.
  LasWriteTimes times() const { return las_.times(); }

  /// Writes the chunk table, the hierarchy and the info VLR; `spacing` is the root's distance
  /// between points. Without it the file is incomplete.
  void finish(const CopcCube& cube, double spacing, double gpsTimeMin, double gpsTimeMax);

 private:
  LasFileWriter las_;
  std::vector<LasVariableRecord> evlrs_;  ///< the records' own EVLRs, kept
  std::vector<CopcHierarchyEntry> entries_;
  uint64_t nodesWritten_ = 0;
  uint64_t pointsWritten_ = 0;
};

/// User id and record ids of the COPC VLRs.
inline constexpr char kCopcUserId[] = "copc";
inline constexpr uint16_t kCopcInfoRecordId = 1;
inline constexpr uint16_t kCopcHierarchyRecordId = 1000;
inline constexpr size_t kCopcInfoBytes = 160;

}  // namespace pcv::io
