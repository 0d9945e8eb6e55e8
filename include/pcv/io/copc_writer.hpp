/// @brief Writes a COPC 1.0 file (LAS 1.4 whose LAZ chunks are the nodes of a level-of-detail
/// octree) from point records of any size, in bounded host memory: records that do not fit are
/// partitioned into temporary files by octree cell and each part is built in memory on all cores.
/// Every record appears exactly once, unchanged, in the node whose cube holds it.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include "pcv/core/error.hpp"
#include "pcv/core/partial_file.hpp"
#include "pcv/octree/octree_lod.hpp"
#include "pcv/io/copc_phases.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_records.hpp"

namespace pcv {

/// Opens the records to convert. Called once, or twice when the first pass finds points outside
/// the bounds the stream declared (a LAS header that is wrong): the second pass measures them.
using PointRecordSource = std::function<std::unique_ptr<PointRecordStream>()>;

struct CopcWriteOptions {
  /// Host memory the conversion may use, in bytes; 0: half of the machine's RAM.
  uint64_t memoryBytes = 0;
  /// Where temporary files go (a fresh folder inside, removed at the end); empty: beside the
  /// output.
  std::filesystem::path tempDirectory;
  /// A node whose cube holds more points than this is split (leaves hold at most this many).
  uint32_t maxPointsPerNode = 100000;
  /// Point format of the output (6, 7 or 8); -1: from the records (copcFormatFor).
  int pointFormat = -1;
  /// Sorts and samples the parts; null: the CPU on all cores.
  OctreeLodSampler* sampler = nullptr;
  /// Whether a file at the output may be replaced (front ends write through writePointRecords,
  /// which refuses unless asked); the inputs, never replaced.
  OutputRules output{.existing = ExistingOutput::Replace};
};

/// Shared with a thread that shows progress or cancels.
struct CopcWriteProgress {
  std::atomic<uint64_t> pointsTotal{0};    ///< points the source declares
  std::atomic<uint64_t> pointsRead{0};     ///< of the source, so far
  std::atomic<uint64_t> pointsWritten{0};  ///< into the output's chunks, so far
  std::atomic<uint64_t> nodesWritten{0};
  std::atomic<bool> cancel{false};  ///< set to stop soon with ConversionCancelled
};

/// Thrown when CopcWriteProgress::cancel stopped a conversion.
class ConversionCancelled : public Error {
 public:
  using Error::Error;
};

/// What was written.
struct CopcWriteSummary {
  uint64_t pointCount = 0;
  uint64_t nodeCount = 0;  ///< nodes with points
  std::vector<uint64_t> pointsPerLevel;
  int pointFormat = 0;
  uint64_t partsBuilt = 0;      ///< parts of the octree built in memory one after the other
  uint64_t temporaryBytes = 0;  ///< records written to temporary files (0: all fitted in memory)
  uint64_t memoryBudgetBytes = 0;
  CopcPhaseTimes phases;  ///< where the time went (describeCopcPhases)
};

/// The records' format as COPC stores it: point format 6, 7 or 8 (`pointFormat`, or 8 where the
/// records have near-infrared, 7 where they have colours, else 6), LAS 1.4, extra bytes kept.
LasWriteFormat copcFormatFor(const LasWriteFormat& records, int pointFormat = -1);

/// Writes `output` from `source`'s records (in point format 6, 7 or 8: see copcFormatFor) under
/// a temporary name, renamed to `output` once complete; on any failure or cancellation neither it
/// nor a temporary file is left. Throws InputError, OutOfMemoryError, ConversionCancelled, Error.
CopcWriteSummary writeCopcFile(const PointRecordSource& source, const std::filesystem::path& output,
                               const CopcWriteOptions& options = {},
                               CopcWriteProgress* progress = nullptr);

}  // namespace pcv
