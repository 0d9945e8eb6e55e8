/// @brief Builds parts of the COPC octree in memory, on all cores: a part's whole subtree from
/// every record in its cube, or a node from what its children, built apart, hold. Each writes
/// the nodes below the part's root and returns what the root holds, for the level above.
#pragma once

#include <cstdint>
#include <limits>
#include <mutex>
#include <vector>

#include "copc_file_writer.hpp"
#include "pcv/octree/octree_keys.hpp"
#include "pcv/octree/octree_lod.hpp"
#include "pcv/core/uninitialized_vector.hpp"
#include "pcv/io/copc_writer.hpp"

namespace pcv::io {

/// The points a part's root holds, in key order, with their keys.
struct HeldPoints {
  int level = 0;     ///< of the part's root
  uint64_t key = 0;  ///< of the part's root (nodeKeyAt)
  UninitializedVector<uint8_t> records;
  UninitializedVector<uint64_t> keys;
  bool nodesBelow = false;  ///< nodes under the root were written (so it is listed even if empty)

  uint64_t count() const { return keys.size(); }
};

/// What every part of one conversion shares.
struct OctreeBuild {
  CopcFileWriter& writer;
  OctreeLodSampler& sampler;  ///< for parts built from records
  OctreeQuantizer quantizer;
  uint32_t recordLength = 0;
  uint32_t maxPointsPerNode = 0;
  uint64_t encodeRoundPoints = 0;  ///< points gathered for one parallel encoding round
  CopcWriteProgress* progress = nullptr;
  CopcPhaseTimes phases;  ///< added to by every part

  /// GPS times seen (point formats 6-8 all have them).
  double gpsTimeMin = std::numeric_limits<double>::infinity();
  double gpsTimeMax = -std::numeric_limits<double>::infinity();
  std::mutex gpsMutex;
};

/// The key of a node for the hierarchy.
CopcNodeKey copcKeyOf(int level, uint64_t key);

/// The subtree of node (`level`, `key`) from all the records in its cube (`records`: whole
/// records, released as soon as they are no longer needed).
HeldPoints buildPart(OctreeBuild& build, int level, uint64_t key,
                     UninitializedVector<uint8_t> records);

/// Node (`level`, `key`) sampled from its children (in key order, each one level below),
/// built apart; writes what the children keep.
HeldPoints sampleAboveParts(OctreeBuild& build, int level, uint64_t key,
                            std::vector<HeldPoints> children);

/// Writes the root of the octree (level 0) from what it holds.
void writeRoot(OctreeBuild& build, HeldPoints root);

/// Throws ConversionCancelled when the progress asks to stop.
void stopIfCancelled(const CopcWriteProgress* progress);

}  // namespace pcv::io
