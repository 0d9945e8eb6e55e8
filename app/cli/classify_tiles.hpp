/// @brief `pcv classify` over a dataset, tile by tile with a buffer of the neighbours' points:
/// the tiles shared among MPI ranks when mpirun started pcv (as `convert --tiles` shares them),
/// rank 0 gathering the outcomes for the report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pcv/process/point_classes.hpp"

namespace pcv::app {

struct ClassifyTilesRun {
  std::vector<std::string> tiles;  ///< files (folders and VPCs expanded)
  std::string outputDir;           ///< empty: each tile rewritten in place
  bool overwrite = false;          ///< replace tiles already in the output folder
  double buffer = 0.0;             ///< map units
  uint64_t memoryBytes = 0;        ///< this machine's budget; 0: half of RAM
  ClassifySettings settings;
  std::string device = "cpu";  ///< where each rank's filters run (--device)
};

/// What rank 0 reports.
struct ClassifyTilesSummary {
  uint64_t points = 0, ground = 0, noise = 0, bufferPoints = 0;
  std::vector<std::string> outputs;  ///< the tiles written, in the order of the inputs
  size_t tiles = 0;
  int ranks = 1;
  std::string perTile;  ///< JSON array: each tile's input, output, figures and rank
};

/// Runs every rank's share; returns the summary on rank 0 (nothing on the others). Throws
/// InputError when planning fails (on every rank), Error naming the tiles that failed (after
/// the others were written).
std::optional<ClassifyTilesSummary> runClassifyTiles(const ClassifyTilesRun& run);

}  // namespace pcv::app
