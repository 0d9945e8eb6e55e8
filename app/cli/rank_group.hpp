/// @brief The processes that share a `pcv convert --tiles` or tiled `pcv classify` run: Open MPI
/// ranks when pcv was built with MPI and mpirun started it, else this process alone. Only these
/// commands join a group, so MPI is never initialised for the other commands (and the viewer does
/// not link it).
#pragma once

#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "options/interrupt_signals.hpp"
#include "pcv/io/copc_writer.hpp"  // ConversionCancelled

namespace pcv::app {

class RankGroup {
 public:
  virtual ~RankGroup() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Ranks of this group on this machine (they share its cores).
  virtual int localSize() const = 0;
  /// Every rank's `text`, in rank order, on rank 0; empty on the others. Collective.
  virtual std::vector<std::string> gatherToRoot(const std::string& text) = 0;
  /// Whether any rank passed true. Collective.
  virtual bool anyRank(bool value) = 0;
  /// Ends every rank at once (after an error one rank cannot report to the others).
  [[noreturn]] virtual void abortAll(int status) = 0;
};

/// Open MPI's ranks when this process was started by mpirun (and pcv built with MPI), else a group
/// of one. Throws Error when mpirun started several processes of a pcv built without MPI, which
/// would each convert every tile.
std::unique_ptr<RankGroup> joinRankGroup();

/// Sets PCV_THREADS (unless it is set) to this rank's share of the machine's cores when
/// `localRanks` ranks run on it, and says on stderr when mpirun bound the rank to one core;
/// `who` prefixes the message ("rank 1: ").
void shareCoresWithLocalRanks(int localRanks, const std::string& who);

/// This rank's part of a machine's memory budget (`memoryBytes`; 0: half of its RAM), which the
/// `localRanks` ranks on it split; `memoryBytes` itself for one rank.
uint64_t memoryOfRank(uint64_t memoryBytes, int localRanks);

/// Whether pcv was built with MPI.
bool builtWithMpi();

/// Every rank learns whether planning worked everywhere (collective): throws InputError with
/// this rank's `planError`, or Error when another rank's planning failed; returns when none did.
void agreeThatPlanningWorked(RankGroup& ranks, const std::string& planError,
                             const std::string& who);

/// Runs this rank's share of a tiled run (`work`) and returns what it returns. Ctrl+C
/// (ConversionCancelled) ends the process as the signal would, after `onCancel` (may be empty),
/// and the launcher ends the other ranks; any other error is not a tile's (those are outcomes)
/// and the ranks cannot meet again: with several, every rank is ended after it is said.
template <typename Work>
auto runRankShare(RankGroup& ranks, const InterruptSignals& signals, const std::string& who,
                  Work&& work, const std::function<void()>& onCancel = {}) -> decltype(work()) {
  try {
    return work();
  } catch (const ConversionCancelled&) {
    if (onCancel) onCancel();
    signals.endAsSignalled();
    throw;
  } catch (const std::exception& error) {
    if (ranks.size() > 1) {
      std::fprintf(stderr, "pcv: %serror: %s\n", who.c_str(), error.what());
      ranks.abortAll(1);
    }
    throw;
  }
}

}  // namespace pcv::app
