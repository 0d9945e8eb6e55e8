// writeCopcFile: records that fit the memory budget are read once and built as one part. Larger
// inputs are split into the files of their level-3 cells (one pass), and the octree is built
// depth first over those cells: a node whose cells fit in memory together is one part, a node
// above that is sampled from its children, and a single cell too large is split again, three
// levels further down, from its file. Only the part being built, and what the roots of finished
// parts hold (a node's worth of points each), are in memory at a time.
#include "pcv/core/host_memory.hpp"
#include "pcv/io/copc_writer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <mutex>
#include <string>

#include "cell_partitioner.hpp"
#include "copc_file_writer.hpp"
#include "octree_parts.hpp"
#include "pcv/core/parallel.hpp"
#include "phase_timer.hpp"
#include "temporary_files.hpp"

namespace pcv {
namespace {

constexpr uint16_t kFormatBytes[11] = {20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67};
/// Levels between the region being split and its cells (8^3 = 512 files at most).
constexpr int kPartitionLevels = 3;
/// Bytes of working memory per point of a part built in memory, beyond its record: the keys
/// before and after sorting and the order (then the holder level and grouping by node instead of
/// the unsorted keys).
constexpr uint64_t kPartBytesPerPoint = 21;

bool hasRgb(int format) {
  return format == 2 || format == 3 || format == 5 || format == 7 || format == 8 || format == 10;
}

/// How the memory budget is spent.
struct MemoryPlan {
  uint64_t budgetBytes = 0;
  uint64_t wholePoints = 0;  ///< most points of an input built in memory in one part
  uint64_t partPoints = 0;   ///< most points of a part of a larger input
  uint64_t roundPoints = 0;  ///< points gathered per encoding round
  uint64_t batchPoints = 0;  ///< points read and scattered at a time
};

MemoryPlan planMemory(uint64_t budgetBytes, uint32_t recordLength, uint32_t maxPointsPerNode) {
  MemoryPlan plan{.budgetBytes = budgetBytes};
  // A sixteenth each for the encoding rounds (two sets of records gathered: one being encoded
  // while the next is gathered; and two sets of their chunks: one being written while the next is
  // encoded) and for the batches read (the stream's buffer and the scattered copy); of a larger
  // input, an eighth for what the roots of finished parts hold; the rest for the part being built.
  plan.roundPoints = std::clamp<uint64_t>(budgetBytes / 16 / (4 * recordLength), 1 << 14, 1 << 22);
  plan.batchPoints = std::clamp<uint64_t>(budgetBytes / 16 / (3 * recordLength), 1 << 12, 1 << 22);
  plan.wholePoints = budgetBytes / 8 * 7 / (recordLength + kPartBytesPerPoint);
  plan.partPoints = budgetBytes / 4 * 3 / (recordLength + kPartBytesPerPoint);
  if (plan.partPoints < 4 * uint64_t(maxPointsPerNode)) {
    throw InputError("--memory " + formatBytes(double(budgetBytes)) +
                     " is too little for nodes of up to " + std::to_string(maxPointsPerNode) +
                     " points: give at least " +
                     formatBytes(double(4 * uint64_t(maxPointsPerNode) *
                                        (recordLength + kPartBytesPerPoint) * 4 / 3)));
  }
  return plan;
}

/// The octree's cube around records from `minSteps` to `maxSteps` (integer coordinates).
struct OctreeGeometry {
  OctreeQuantizer quantizer;
  io::CopcCube cube;
  double spacing = 0.0;
};

OctreeGeometry geometryFor(const int64_t minSteps[3], const int64_t maxSteps[3],
                           const LasWriteFormat& format) {
  double extent = 0.0;
  for (int a = 0; a < 3; ++a)
    extent = std::max(extent, double(maxSteps[a] - minSteps[a]) * format.scale[a]);
  if (!(extent > 0.0)) extent = std::max({format.scale.x, format.scale.y, format.scale.z});
  // A little larger than the records' extent, so the farthest record is inside, not on a face.
  const double edge = extent * (1.0 + 1e-9);
  OctreeGeometry g;
  for (int a = 0; a < 3; ++a) {
    g.quantizer.cornerSteps[a] = minSteps[a];
    g.quantizer.coordinatesPerStep[a] =
        format.scale[a] * double(1u << kOctreeCoordinateBits) / edge;
    g.cube.center[a] = format.offset[a] + double(minSteps[a]) * format.scale[a] + edge / 2.0;
  }
  g.cube.halfSize = edge / 2.0;
  g.spacing = edge / double(kSampleGridCells);
  return g;
}

/// The integer bounds of records.
struct StepBounds {
  int64_t min[3] = {INT64_MAX, INT64_MAX, INT64_MAX};
  int64_t max[3] = {INT64_MIN, INT64_MIN, INT64_MIN};

  bool empty() const { return min[0] > max[0]; }
  bool contains(const StepBounds& other) const {
    for (int a = 0; a < 3; ++a) {
      if (other.min[a] < min[a] || other.max[a] > max[a]) return false;
    }
    return true;
  }
  void add(const uint8_t* records, uint64_t count, uint32_t length) {
    std::mutex mutex;
    parallelFor(count, [&](uint64_t begin, uint64_t end) {
      StepBounds local;
      for (uint64_t i = begin; i < end; ++i) {
        int32_t xyz[3];
        std::memcpy(xyz, records + i * length, 12);
        for (int a = 0; a < 3; ++a) {
          local.min[a] = std::min<int64_t>(local.min[a], xyz[a]);
          local.max[a] = std::max<int64_t>(local.max[a], xyz[a]);
        }
      }
      std::lock_guard lock(mutex);
      for (int a = 0; a < 3; ++a) {
        min[a] = std::min(min[a], local.min[a]);
        max[a] = std::max(max[a], local.max[a]);
      }
    });
  }
};

/// The steps of the bounds a stream declares, a step wider each way for rounding.
StepBounds declaredSteps(const PointRecordStream& stream) {
  StepBounds steps;
  const Box3d& bounds = stream.bounds();
  if (bounds.empty()) return steps;
  const LasWriteFormat& f = stream.format();
  for (int a = 0; a < 3; ++a) {
    steps.min[a] = int64_t(std::floor((bounds.min[a] - f.offset[a]) / f.scale[a])) - 1;
    steps.max[a] = int64_t(std::ceil((bounds.max[a] - f.offset[a]) / f.scale[a])) + 1;
    steps.min[a] = std::max<int64_t>(steps.min[a], INT32_MIN);
    steps.max[a] = std::min<int64_t>(steps.max[a], INT32_MAX);
  }
  return steps;
}

/// Builds the octree over temporary cell files, depth first.
struct RegionBuilder {
  io::OctreeBuild& build;
  const MemoryPlan& plan;
  const LasWriteFormat& format;
  const std::filesystem::path& directory;
  uint64_t partsBuilt = 0;
  uint64_t temporaryBytes = 0;

  io::HeldPoints region(int level, uint64_t key, std::vector<io::CellFile> cells) {
    uint64_t total = 0;
    for (const io::CellFile& cell : cells) total += cell.count;
    if (total <= plan.partPoints || level >= kMaxOctreeLevel) return fromFiles(level, key, cells);
    if (cells.size() == 1 && cells.front().level == level) return split(level, key, cells.front());
    std::vector<io::HeldPoints> children;
    size_t first = 0;
    for (uint64_t octant = 0; octant < 8; ++octant) {
      const uint64_t childKey = (key << 3) | octant;
      size_t last = first;
      while (last < cells.size() &&
             cells[last].key >> (3 * (cells[last].level - level - 1)) == childKey) {
        ++last;
      }
      if (last > first) {
        children.push_back(region(
            level + 1, childKey,
            std::vector<io::CellFile>(cells.begin() + long(first), cells.begin() + long(last))));
      }
      first = last;
    }
    return io::sampleAboveParts(build, level, key, std::move(children));
  }

  /// One part from the files of its cells, which are removed once read.
  io::HeldPoints fromFiles(int level, uint64_t key, const std::vector<io::CellFile>& cells) {
    const uint32_t length = format.recordLength;
    uint64_t total = 0;
    for (const io::CellFile& cell : cells) total += cell.count;
    if (total > plan.partPoints) {
      throw OutOfMemoryError(std::to_string(total) + " points lie in one octree node of level " +
                             std::to_string(level) + " (the deepest): building it needs " +
                             formatBytes(double(total * (length + kPartBytesPerPoint))) +
                             ", more than --memory " + formatBytes(double(plan.budgetBytes)) +
                             " allows");
    }
    UninitializedVector<uint8_t> records(total * length);
    {
      io::PhaseTimer timer(build.phases.loading);
      uint64_t at = 0;
      for (const io::CellFile& cell : cells) {
        io::readRecordFile(cell.path, records.data() + at * length, cell.count * length);
        std::filesystem::remove(cell.path);
        at += cell.count;
      }
    }
    ++partsBuilt;
    return io::buildPart(build, level, key, std::move(records));
  }

  /// A cell too large for memory, split three levels further from its file.
  io::HeldPoints split(int level, uint64_t key, const io::CellFile& cell) {
    std::vector<io::CellFile> cells;
    {
      io::PhaseTimer timer(build.phases.partitioning);
      auto stream = io::recordFileStream(cell.path, format, cell.count);
      cells = io::partitionIntoCells(
          *stream, {.regionLevel = level,
                    .regionKey = key,
                    .cellLevel = std::min(level + kPartitionLevels, kMaxOctreeLevel),
                    .quantizer = build.quantizer,
                    .directory = directory,
                    .batchPoints = plan.batchPoints,
                    .progress = build.progress});
    }
    std::filesystem::remove(cell.path);
    for (const io::CellFile& c : cells) temporaryBytes += c.count * format.recordLength;
    return region(level, key, std::move(cells));
  }
};

/// Every record of `stream`, in one buffer.
UninitializedVector<uint8_t> readAll(PointRecordStream& stream, uint64_t batchPoints,
                                     CopcWriteProgress* progress) {
  const uint32_t length = stream.format().recordLength;
  UninitializedVector<uint8_t> records(stream.pointCount() * length);
  uint64_t done = 0;
  for (;;) {
    const uint64_t room = records.size() / length - done;
    uint64_t count = 0;
    if (room > 0) {
      count = stream.read(std::min(batchPoints, room), records.data() + done * length);
    } else {
      // More records than the stream declared: the buffer grows as they come.
      const uint8_t* batch = nullptr;
      count = stream.next(batchPoints, batch);
      records.resize((done + count) * length);
      std::memcpy(records.data() + done * length, batch, count * length);
    }
    if (count == 0) break;
    done += count;
    if (progress) progress->pointsRead += count;
    io::stopIfCancelled(progress);
  }
  records.resize(done * length);
  return records;
}

/// The bounds of every record of `stream`, read to its end.
StepBounds measureSteps(PointRecordStream& stream, uint64_t batchPoints,
                        CopcWriteProgress* progress) {
  StepBounds steps;
  const uint8_t* batch = nullptr;
  while (const uint64_t count = stream.next(batchPoints, batch)) {
    steps.add(batch, count, stream.format().recordLength);
    io::stopIfCancelled(progress);
  }
  return steps;
}

}  // namespace

LasWriteFormat copcFormatFor(const LasWriteFormat& records, int pointFormat) {
  const bool nir = records.pointFormat == 8 || records.pointFormat == 10;
  const int target =
      pointFormat >= 0 ? pointFormat : (nir ? 8 : (hasRgb(records.pointFormat) ? 7 : 6));
  if (target < 6 || target > 8) {
    throw InputError("COPC stores point formats 6, 7 and 8, not " + std::to_string(target));
  }
  LasWriteFormat format = records;
  const uint32_t extra = records.recordLength - kFormatBytes[records.pointFormat];
  format.pointFormat = target;
  format.recordLength = uint16_t(kFormatBytes[target] + extra);
  format.versionMinor = 4;
  // LAS 1.4 asks formats 6-10 to describe their coordinate system in WKT (bit 4).
  format.globalEncoding |= 1u << 4;
  return format;
}

CopcWriteSummary writeCopcFile(const PointRecordSource& source, const std::filesystem::path& output,
                               const CopcWriteOptions& options, CopcWriteProgress* progress) {
  const auto start = std::chrono::steady_clock::now();
  auto open = [&] {
    std::unique_ptr<PointRecordStream> stream = source();
    const LasWriteFormat format = copcFormatFor(stream->format(), options.pointFormat);
    return reformatRecords(std::move(stream), format);
  };
  // The output is checked before the first record is read.
  PartialFile partial(output, options.output);
  std::unique_ptr<PointRecordStream> stream = open();
  const LasWriteFormat format = stream->format();
  const uint32_t length = format.recordLength;
  const uint64_t budget = options.memoryBytes ? options.memoryBytes : machineMemoryBytes() / 2;
  const MemoryPlan plan = planMemory(budget, length, options.maxPointsPerNode);
  if (progress) progress->pointsTotal = stream->pointCount();

  io::CopcFileWriter writer(partial.path(), format);
  std::unique_ptr<OctreeLodSampler> cpuSampler;
  OctreeLodSampler* sampler = options.sampler;
  if (!sampler) {
    cpuSampler = makeCpuOctreeLodSampler();
    sampler = cpuSampler.get();
  }
  io::OctreeBuild build{.writer = writer,
                        .sampler = *sampler,
                        .recordLength = length,
                        .maxPointsPerNode = std::max<uint32_t>(1, options.maxPointsPerNode),
                        .encodeRoundPoints = plan.roundPoints,
                        .progress = progress};
  CopcWriteSummary summary{.pointFormat = format.pointFormat, .memoryBudgetBytes = budget};
  OctreeGeometry geometry;
  io::HeldPoints root;
  if (stream->pointCount() <= plan.wholePoints) {
    const StepBounds declared = declaredSteps(*stream);
    UninitializedVector<uint8_t> records = io::timed(
        build.phases.reading, [&] { return readAll(*stream, plan.batchPoints, progress); });
    stream.reset();
    StepBounds steps;
    io::timed(build.phases.bounds,
              [&] { steps.add(records.data(), records.size() / length, length); });
    // The declared bounds when they hold every point, as when the records do not fit in memory,
    // so that the octree does not depend on --memory.
    if (!declared.empty() && declared.contains(steps)) steps = declared;
    if (!steps.empty()) {
      geometry = geometryFor(steps.min, steps.max, format);
      build.quantizer = geometry.quantizer;
    }
    summary.partsBuilt = 1;
    root = io::buildPart(build, 0, 0, std::move(records));
  } else {
    const std::filesystem::path tempParent =
        options.tempDirectory.empty() ? output.parent_path() : options.tempDirectory;
    io::TemporaryDirectory temporary(tempParent);
    StepBounds steps = declaredSteps(*stream);
    if (steps.empty()) {
      steps = io::timed(build.phases.bounds,
                        [&] { return measureSteps(*stream, plan.batchPoints, progress); });
      stream = open();
    }
    auto partitionInput = [&] {
      io::PhaseTimer timer(build.phases.partitioning);
      geometry = geometryFor(steps.min, steps.max, format);
      build.quantizer = geometry.quantizer;
      return io::partitionIntoCells(*stream, {.regionLevel = 0,
                                              .regionKey = 0,
                                              .cellLevel = kPartitionLevels,
                                              .quantizer = build.quantizer,
                                              .directory = temporary.path(),
                                              .batchPoints = plan.batchPoints,
                                              .progress = progress,
                                              .countAsRead = true});
    };
    std::vector<io::CellFile> cells;
    try {
      cells = partitionInput();
    } catch (const io::RecordOutsideCube&) {
      // The header's bounds were wrong: measure the records, then start again.
      if (progress) progress->pointsRead = 0;
      for (const auto& entry : std::filesystem::directory_iterator(temporary.path()))
        std::filesystem::remove(entry.path());
      stream = open();
      steps = io::timed(build.phases.bounds,
                        [&] { return measureSteps(*stream, plan.batchPoints, progress); });
      stream = open();
      cells = partitionInput();
    }
    stream.reset();
    RegionBuilder regions{
        .build = build, .plan = plan, .format = format, .directory = temporary.path()};
    for (const io::CellFile& cell : cells) regions.temporaryBytes += cell.count * length;
    root = regions.region(0, 0, std::move(cells));
    summary.partsBuilt = regions.partsBuilt;
    summary.temporaryBytes = regions.temporaryBytes;
  }
  io::writeRoot(build, std::move(root));
  // The writer's own clocks exclude the final wait, which belongs to finishing.
  const LasWriteTimes chunkTimes = writer.times();
  {
    io::PhaseTimer timer(build.phases.finishing);
    const bool anyPoints = writer.pointsWritten() > 0;
    if (!anyPoints) geometry.cube.halfSize = 0.5;
    writer.finish(geometry.cube, anyPoints ? geometry.spacing : 1.0 / kSampleGridCells,
                  anyPoints ? build.gpsTimeMin : 0.0, anyPoints ? build.gpsTimeMax : 0.0);
    partial.commit();
  }
  summary.pointCount = writer.pointsWritten();
  for (const io::CopcHierarchyEntry& entry : writer.entries()) {
    if (entry.pointCount == 0) continue;
    ++summary.nodeCount;
    if (summary.pointsPerLevel.size() <= size_t(entry.key.level))
      summary.pointsPerLevel.resize(size_t(entry.key.level) + 1, 0);
    summary.pointsPerLevel[size_t(entry.key.level)] += entry.pointCount;
  }
  summary.phases = build.phases;
  summary.phases.encoding = chunkTimes.encodingSeconds;
  summary.phases.waitingForWrites = chunkTimes.waitingSeconds;
  summary.phases.writing = writer.times().writingSeconds;
  summary.phases.totalSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace pcv
