// Each batch is scattered by cell with per-thread histograms (a stable counting sort), then every
// cell's run is appended to its file in one write; files are opened when their first record
// comes, at most 512 of them (three levels) per split.
#include "cell_partitioner.hpp"

#include <atomic>
#include <cstring>
#include <memory>
#include <string>

#include "octree_parts.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/core/scatter_offsets.hpp"
#include "pcv/core/uninitialized_vector.hpp"
#include "temporary_files.hpp"

namespace pcv::io {

std::vector<CellFile> partitionIntoCells(PointRecordStream& stream,
                                         const CellPartition& partition) {
  const int depth = partition.cellLevel - partition.regionLevel;
  if (depth < 1 || depth > 3) {
    throw Error("partitionIntoCells: cells " + std::to_string(depth) +
                " levels below the region, expected 1 to 3");
  }
  const size_t cellCount = size_t(1) << (3 * depth);
  const uint64_t firstCell = partition.regionKey << (3 * depth);
  const uint32_t length = stream.format().recordLength;
  std::vector<std::unique_ptr<RecordFileWriter>> files(cellCount);
  std::vector<CellFile> cells(cellCount);
  UninitializedVector<uint16_t> cellOf;
  UninitializedVector<uint8_t> scattered;
  const unsigned threads = workerCount();
  std::vector<uint64_t> slots(size_t(threads) * cellCount);
  const uint8_t* records = nullptr;
  while (const uint64_t count = stream.next(partition.batchPoints, records)) {
    cellOf.resize(count);
    std::fill(slots.begin(), slots.end(), 0);
    std::atomic<bool> outsideCube{false}, outsideRegion{false};
    auto rangeOf = [&](uint64_t t) {
      return std::pair{count * t / threads, count * (t + 1) / threads};
    };
    parallelFor(
        threads,
        [&](uint64_t first, uint64_t last) {
          for (uint64_t t = first; t < last; ++t) {
            const auto [begin, end] = rangeOf(t);
            uint64_t* histogram = slots.data() + t * cellCount;
            for (uint64_t i = begin; i < end; ++i) {
              int32_t xyz[3];
              std::memcpy(xyz, records + i * length, 12);
              if (!partition.quantizer.contains(xyz)) {
                outsideCube = true;
                cellOf[i] = 0;
                continue;
              }
              const uint64_t cell =
                  nodeKeyAt(partition.quantizer.keyOf(xyz), partition.cellLevel) - firstCell;
              if (cell >= cellCount) {
                outsideRegion = true;
                cellOf[i] = 0;
                continue;
              }
              cellOf[i] = uint16_t(cell);
              ++histogram[cell];
            }
          }
        },
        1);
    if (outsideCube) {
      throw RecordOutsideCube("a point lies outside the bounds its file declares");
    }
    if (outsideRegion) {
      throw Error("partitionIntoCells: a record lies outside the node being split");
    }
    // Each thread's slots in every cell, threads in order: the scatter keeps the stream's order.
    const std::vector<uint64_t> cellStart = scatterOffsets(slots, cellCount, threads);
    scattered.resize(count * length);
    parallelFor(
        threads,
        [&](uint64_t first, uint64_t last) {
          for (uint64_t t = first; t < last; ++t) {
            const auto [begin, end] = rangeOf(t);
            uint64_t* slot = slots.data() + t * cellCount;
            for (uint64_t i = begin; i < end; ++i) {
              std::memcpy(scattered.data() + slot[cellOf[i]]++ * length, records + i * length,
                          length);
            }
          }
        },
        1);
    for (size_t c = 0; c < cellCount; ++c) {
      const uint64_t n = cellStart[c + 1] - cellStart[c];
      if (n == 0) continue;
      if (!files[c]) {
        cells[c] = {
            .level = partition.cellLevel,
            .key = firstCell + c,
            .path = partition.directory / ("cell-" + std::to_string(partition.cellLevel) + "-" +
                                           std::to_string(firstCell + c) + ".records")};
        files[c] = std::make_unique<RecordFileWriter>(cells[c].path);
      }
      files[c]->append(scattered.data() + cellStart[c] * length, n * length);
      cells[c].count += n;
    }
    if (partition.progress && partition.countAsRead) partition.progress->pointsRead += count;
    stopIfCancelled(partition.progress);
  }
  std::vector<CellFile> written;
  for (size_t c = 0; c < cellCount; ++c) {
    if (!files[c]) continue;
    files[c]->close();
    written.push_back(std::move(cells[c]));
  }
  return written;
}

}  // namespace pcv::io
