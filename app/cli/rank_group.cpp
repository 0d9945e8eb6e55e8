#include "rank_group.hpp"

#include <cstdlib>
#include <string>

#include "pcv/core/error.hpp"

namespace pcv::app {

#ifdef PCV_WITH_MPI
std::unique_ptr<RankGroup> joinMpiRanks();  // mpi_rank_group.cpp
#endif

namespace {

/// This process alone.
class SingleRank final : public RankGroup {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int localSize() const override { return 1; }
  std::vector<std::string> gatherToRoot(const std::string& text) override { return {text}; }
  bool anyRank(bool value) override { return value; }
  [[noreturn]] void abortAll(int status) override { std::exit(status); }
};

/// The number of processes the launcher says it started, 0 when none did (a plain start).
int launchedProcesses() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"}) {
    if (const char* text = std::getenv(name)) return std::atoi(text);
  }
  return std::getenv("PMIX_RANK") || std::getenv("PMI_RANK") ? 1 : 0;
}

}  // namespace

bool builtWithMpi() {
#ifdef PCV_WITH_MPI
  return true;
#else
  return false;
#endif
}

std::unique_ptr<RankGroup> joinRankGroup() {
  const int launched = launchedProcesses();
#ifdef PCV_WITH_MPI
  if (launched > 0) return joinMpiRanks();
#else
  if (launched > 1) {
    throw Error("started as one of " + std::to_string(launched) +
                " processes, but this pcv was built without MPI: each would convert every tile; "
                "run it alone, or build pcv with Open MPI (libopenmpi-dev)");
  }
#endif
  return std::make_unique<SingleRank>();
}

}  // namespace pcv::app
