/// @brief Splits records too many for memory by octree cell: one pass over a stream appends each
/// record to the temporary file of its cell, a few levels below the region being split, in the
/// order they are read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "pcv/octree/octree_keys.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/point_records.hpp"

namespace pcv::io {

struct CellFile {
  int level = 0;
  uint64_t key = 0;  ///< nodeKeyAt of its records' keys
  std::filesystem::path path;
  uint64_t count = 0;  ///< records in the file
};

/// A record lay outside the octree's cube: the bounds the stream declared were wrong.
class RecordOutsideCube : public Error {
 public:
  using Error::Error;
};

struct CellPartition {
  int regionLevel = 0;  ///< the node whose records are split
  uint64_t regionKey = 0;
  int cellLevel = 0;  ///< regionLevel + 1 .. regionLevel + 3
  OctreeQuantizer quantizer;
  std::filesystem::path directory;  ///< where the cell files go
  uint64_t batchPoints = 1 << 20;   ///< records read and scattered at a time
  CopcWriteProgress* progress = nullptr;
  bool countAsRead = false;  ///< the stream is the input: advance progress->pointsRead
};

/// Reads `stream` to its end; returns the non-empty cells in key order. Throws
/// RecordOutsideCube, Error (temporary files), ConversionCancelled, and what the stream throws.
std::vector<CellFile> partitionIntoCells(PointRecordStream& stream, const CellPartition& partition);

}  // namespace pcv::io
