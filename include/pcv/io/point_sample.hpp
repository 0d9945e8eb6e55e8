/// @brief A sparse sample of a LAS or LAZ file read at almost no cost, for an overview before any
/// point is decoded (as LidarScout, HPG 2025, does): a LAZ file's chunks each store their first
/// point uncompressed, so the sample is those records, found through the chunk table; a LAS
/// file's records are at known offsets, so the sample is every k-th record.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "pcv/core/point_cloud.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv {

struct PointSample {
  /// The sampled points (positions as offsets from cloud.origin, colours, the attributes that
  /// `options` ask for); non-finite points are left out.
  PointCloud cloud;
  /// The index in the file of each point of `cloud`, ascending (a LAZ chunk's first point, or
  /// every stride-th record).
  std::vector<uint64_t> recordIndices;
};

/// Samples the LAS or LAZ file at `path`: a LAZ file's chunk first points (one point for a file
/// without a usable chunk table), or about `lasPoints` evenly spaced records of a LAS file. Colours
/// are scaled by the sample's largest channel value, as a LAS file is by the file's. Throws
/// InputError naming the file and byte for a broken header or chunk table, or for another format.
PointSample readPointSample(const std::filesystem::path& path, uint64_t lasPoints,
                            const ReadOptions& options = {});

}  // namespace pcv
