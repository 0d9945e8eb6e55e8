/// @brief `pcv convert --tiles`: one COPC file per input tile, converted several at a time so that
/// small tiles keep every core busy, under one memory budget that the running conversions share,
/// and a QGIS virtual point cloud over the results. The tiles can be shared among processes
/// (ranks) by a deterministic assignment; each tile's file does not depend on which process, how
/// many threads or how much memory converted it.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "pcv/io/copc_writer.hpp"
#include "pcv/io/virtual_point_cloud.hpp"

namespace pcv {

/// One tile to convert.
struct TileJob {
  std::string input;
  std::filesystem::path output;  ///< OUTDIR / copcTileName(input)
  uint64_t inputBytes = 0;       ///< the input's size: its weight when tiles are shared out
};

/// The COPC name of a tile: its file name without .copc.laz, .las, .laz or any other extension,
/// then ".copc.laz" ("a.laz" and "a.copc.laz" both give "a.copc.laz").
std::string copcTileName(const std::string& input);

/// The jobs of `inputs` (files; expandTilePaths has replaced folders and VPCs) into `outputDir`,
/// in the order given. Throws InputError naming both inputs when two would write the same output
/// (same-named tiles of different folders), and for an input that is its own output.
std::vector<TileJob> planTileJobs(const std::vector<std::string>& inputs,
                                  const std::filesystem::path& outputDir);

/// The indices into `jobs` that rank `rank` of `rankCount` converts: the largest tiles first,
/// each to the rank with the fewest bytes so far (ties to the lower rank), so ranks balance; the
/// same on every rank, as it depends on the jobs alone. Returned largest first.
std::vector<size_t> tilesOfRank(std::span<const TileJob> jobs, int rank, int rankCount);

struct TileConversionOptions {
  /// Host memory all running conversions share, in bytes; 0: half of the machine's RAM.
  uint64_t memoryBytes = 0;
  std::filesystem::path tempDirectory;  ///< empty: beside the outputs
  uint32_t maxPointsPerNode = 100000;
  int pointFormat = -1;  ///< 6, 7 or 8; -1: from each tile's records
};

/// What became of one tile.
struct TileOutcome {
  size_t job = 0;      ///< index into the jobs
  bool done = false;   ///< false: `error` says why; no file under the output's name
  std::string error;   ///< the input named, and the cause
  double seconds = 0;  ///< of this tile's conversion
  CopcWriteSummary summary;
  /// The written tile as a VPC lists it (from its header); valid when done.
  VpcTileDescription description;
};

/// Shared with a thread that shows progress or cancels. Counters cover the tiles of this process.
struct TileConversionProgress {
  std::atomic<uint64_t> tilesTotal{0};
  std::atomic<uint64_t> tilesDone{0};
  std::atomic<uint64_t> tilesFailed{0};
  std::atomic<uint64_t> bytesTotal{0};  ///< inputs' sizes
  std::atomic<uint64_t> bytesDone{0};   ///< of the inputs of finished tiles
  std::atomic<uint64_t> pointsDone{0};  ///< written, of finished tiles
  std::atomic<bool> cancel{false};      ///< set to stop soon (ConversionCancelled)
  std::atomic<unsigned> lanes{0};       ///< tiles converted at once (set by convertTiles)
};

/// Converts the jobs `which` (indices into `jobs`, in the order to start them) on all cores
/// (workerCount): up to one tile per core at once while tiles remain, each with its share of the
/// cores and of `options.memoryBytes`; a tile that fails is reported in its outcome and the
/// others go on. Outcomes come in the order of `which`. Throws ConversionCancelled when
/// `progress->cancel` was set (no partial file left), InputError for a budget too small for one
/// conversion.
std::vector<TileOutcome> convertTiles(std::span<const TileJob> jobs, std::span<const size_t> which,
                                      const TileConversionOptions& options = {},
                                      TileConversionProgress* progress = nullptr);

/// Writes the VPC at `path` over the tiles done, in the order of their jobs (relative "./" hrefs
/// when the tiles are in its folder). Throws as writeVirtualPointCloud, and InputError naming two
/// tiles of different coordinate systems.
void writeTileDatasetVpc(const std::filesystem::path& path, std::vector<TileOutcome> outcomes);

}  // namespace pcv
