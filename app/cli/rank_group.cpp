#include "rank_group.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "pcv/core/host_memory.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"

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
                " processes, but this pcv was built without MPI: each would do every tile's work; "
                "run it alone, or build pcv with Open MPI (libopenmpi-dev)");
  }
#endif
  return std::make_unique<SingleRank>();
}

// Ranks sharing a machine share its cores unless PCV_THREADS says: a rank bound to CPUs of its
// own (`mpirun --map-by slot:PE=8`, taskset) takes those; unbound ranks (`--bind-to none`)
// take their part of the machine's. Open MPI binds each of two or fewer ranks to one core by
// default, which leaves a rank one thread: say so, with the remedy, rather than run slowly.
void shareCoresWithLocalRanks(int localRanks, const std::string& who) {
  if (localRanks <= 1 || std::getenv("PCV_THREADS")) return;
  const unsigned machine = std::max(1u, std::thread::hardware_concurrency());
  const unsigned usable = usableCores();
  const unsigned mine = usable < machine ? usable : std::max(1u, machine / unsigned(localRanks));
  if (usable == 1 && machine >= 2 * unsigned(localRanks)) {
    std::fprintf(stderr,
                 "pcv: %sbound to 1 of this machine's %u CPUs, so it works on one thread "
                 "(mpirun binds ranks to cores: --bind-to none, or --map-by slot:PE=N, gives "
                 "each its share)\n",
                 who.c_str(), machine);
  }
  ::setenv("PCV_THREADS", std::to_string(mine).c_str(), 1);
}

// This rank's part of --memory, which is the machine's budget (default: half of its RAM): the
// ranks on one machine split it.
uint64_t memoryOfRank(uint64_t memoryBytes, int localRanks) {
  if (localRanks <= 1) return memoryBytes;
  if (memoryBytes == 0) memoryBytes = machineMemoryBytes() / 2;
  return memoryBytes / uint64_t(localRanks);
}

void agreeThatPlanningWorked(RankGroup& ranks, const std::string& planError,
                             const std::string& who) {
  if (!ranks.anyRank(!planError.empty())) return;
  if (planError.empty()) throw Error(who + "another rank could not plan the tiles");
  throw InputError(who + planError);
}

}  // namespace pcv::app
