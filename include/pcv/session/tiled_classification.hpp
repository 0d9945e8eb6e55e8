/// @brief `pcv classify` over a dataset larger than memory: each tile classified with its
/// neighbours' points within a buffer, on a grid that the whole dataset fixes, only its own
/// points' classes kept and written; tiles shared among threads and ranks, each tile's classes
/// the same however the work is split.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/process/point_classes.hpp"
#include "pcv/process/point_classifier.hpp"
#include "pcv/session/tile_conversion.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv {

/// The buffer (map units) that gives each tile the classes the whole dataset gives its points
/// on terrain as airborne data has it: the noise filter's radius, and twice the ground filter's
/// window (the largest opening's reach: an erosion then a dilation) plus a few cells for the
/// surface's slope and interpolation. docs/classify.md says where it cannot be exact.
double defaultClassificationBuffer(const ClassifySettings& settings);

/// Throws InputError unless `buffer` is a finite length >= 0 (map units).
void checkClassificationBuffer(double buffer);

/// Whether a tile's header bounds say something: all zeros (some writers leave them so) do not.
bool declaresBounds(const Box3d& bounds);

/// The header bounds of `set`'s tiles that hold points and declare them, together (empty when
/// none does).
Box3d declaredBounds(const TileSet& set);

/// One tile of a dataset to classify.
struct TileClassificationJob {
  TileJob file;             ///< input, output (the input itself in place), weight for the ranks
  Box3d bounds;             ///< the tile's header bounds
  uint64_t pointCount = 0;  ///< the tile's, from its header
  std::vector<size_t> neighbours;  ///< other jobs whose header bounds meet the buffered tile
  uint64_t windowPoints = 0;       ///< estimate of the points of the tile and its buffer
};

struct TiledClassificationPlan {
  std::vector<TileClassificationJob> jobs;  ///< in the order of the inputs
  Box3d datasetBounds;                      ///< around every tile's header bounds
  double buffer = 0.0;                      ///< map units
};

/// The plan for `files` (tiles: expandTilePaths has replaced folders and VPCs), from their
/// headers alone: each tile's neighbours within `buffer`. `outputDir` empty: each tile rewritten
/// in place; else OUTDIR / the tile's file name (same format). Throws InputError for a bad
/// buffer, tiles of different coordinate systems, two tiles with one output name, an output
/// that is an input, and (without `overwrite`) OutputExistsError for outputs already there.
TiledClassificationPlan planTiledClassification(const std::vector<std::string>& files,
                                                const std::filesystem::path& outputDir,
                                                double buffer, bool overwrite);

/// The jobs' TileJobs, for tilesOfRank (weighted by the points each run reads).
std::vector<TileJob> rankWeights(const TiledClassificationPlan& plan);

/// What became of one tile.
struct TileClassificationOutcome {
  size_t job = 0;             ///< index into the plan's jobs
  bool done = false;          ///< false: `error` says why; the tile's output is not written
  std::string error;          ///< the tile named, and the cause
  uint64_t points = 0;        ///< the tile's own points, classified and written
  uint64_t ground = 0;        ///< of them, ground
  uint64_t noise = 0;         ///< of them, noise
  uint64_t bufferPoints = 0;  ///< neighbours' points read into its run
  std::string device;         ///< where its filters ran (PointClassifier::classify's ranOn)
  double seconds = 0.0;
};

struct TiledClassificationOptions {
  /// Host memory the tiles classified at once share, in bytes; 0: half of the machine's RAM.
  uint64_t memoryBytes = 0;
  /// May be null. Set (by a signal handler, say) to stop soon: no further tile starts, a tile
  /// being written stops and leaves no temporary file, and classifyTiles throws
  /// ConversionCancelled. Tiles written before stay written.
  const std::atomic<bool>* cancel = nullptr;
  /// Runs the filters of every tile (null: the CPU's); tiles on a GPU take it one at a time
  /// while the others read and write.
  std::shared_ptr<const PointClassifier> classifier;
};

/// Estimated bytes a run over `points` points spread over `bounds` holds at its peak: positions,
/// the filters' working arrays, and the ground filter's grids over the bounds.
uint64_t classificationBytes(uint64_t points, const Box3d& bounds,
                             const ClassifySettings& settings);

/// The same for one tile's run: its points and its buffer's, over the buffered tile.
uint64_t tileClassificationBytes(const TileClassificationJob& job, const ClassifySettings& settings,
                                 double buffer);

/// The classes of every record of `tile`, one of the plan's tiles (a path naming the same
/// file), in record order, found as classifyTiles finds them (its neighbours' points within the
/// buffer, the dataset's grid) without writing anything; empty when `tile` is none of the
/// plan's. `cancel` (may be null) set stops it with ConversionCancelled. Throws InputError.
std::optional<std::vector<uint8_t>> classifyDatasetTile(const TiledClassificationPlan& plan,
                                                        const std::string& tile,
                                                        const ClassifySettings& settings,
                                                        const PointClassifier& classifier,
                                                        const std::atomic<bool>* cancel = nullptr);

/// Classifies the jobs `which` (indices into plan.jobs) on all cores: as many tiles at once as
/// cores and memory allow, each with its share of the cores. A tile's run holds its own points
/// and the neighbours' within the buffer (of COPC neighbours, only the nodes that meet it are
/// read), finds the classes on the dataset's grid, and writes the tile with each record's class
/// merged (mergedClass) and every other bit unchanged, through a temporary file renamed over the
/// output. A tile that fails is reported in its outcome and the others go on. Outcomes come in
/// the order of `which`. Throws InputError for bad settings, ConversionCancelled (options.cancel).
std::vector<TileClassificationOutcome> classifyTiles(
    const TiledClassificationPlan& plan, std::span<const size_t> which,
    const ClassifySettings& settings, const TiledClassificationOptions& options = {});

}  // namespace pcv
