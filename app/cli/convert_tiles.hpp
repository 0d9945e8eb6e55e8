/// @brief `pcv convert --tiles IN... OUTDIR`: one COPC file per input tile and a VPC over them,
/// the tiles shared among MPI ranks when mpirun started pcv (rank 0 writes the VPC and the report).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pcv::app {

struct ConvertTilesOptions {
  std::vector<std::string> paths;       ///< inputs (files, folders, .vpc), then the output folder
  std::string vpcName = "dataset.vpc";  ///< written in the output folder
  bool overwrite = false;               ///< replace tiles and the VPC already in the output folder
  uint64_t memoryBytes = 0;             ///< shared by this process's conversions; 0: half of RAM
  std::string temporaryDirectory;
  uint32_t nodePoints = 100000;
  int pointFormat = -1;
  bool quiet = false;
};

void runConvertTiles(const ConvertTilesOptions& options);

}  // namespace pcv::app
