/// @brief Where the wall time of a COPC conversion went, phase by phase, so that a slow
/// conversion says which phase to work on. Coarse clocks around whole phases, never per point.
#pragma once

#include <string>
#include <vector>

namespace pcv {

/// Wall seconds of each phase of writeCopcFile, summed over the parts built one after the other.
/// The phases follow each other on the calling thread (most of them on all cores inside), except
/// `writing`, which runs on a thread of its own while the next round of nodes is gathered and
/// encoded, and `gatheringAhead`, each round's records gathered while the round before is
/// encoded; only `waitingForWrites` and `gathering` of them hold the conversion up.
struct CopcPhaseTimes {
  double totalSeconds = 0.0;      ///< writeCopcFile from start to end
  double reading = 0.0;           ///< the source's records into memory
  double bounds = 0.0;            ///< the records' integer bounds (a pass over them or the source)
  double partitioning = 0.0;      ///< larger inputs: the source read and scattered into cell files
  double loading = 0.0;           ///< larger inputs: cell files read back, a part at a time
  double keys = 0.0;              ///< octree keys (and the GPS time range) of every record
  double sort = 0.0;              ///< keys sorted, by the OctreeLodSampler (CPU or GPU)
  double ties = 0.0;              ///< runs of equal keys ordered by their records' bytes
  double tree = 0.0;              ///< the node tree from the sorted keys
  double sampling = 0.0;          ///< which node holds each point, by the OctreeLodSampler
  double merging = 0.0;           ///< larger inputs: what finished parts hold, copied together
  double grouping = 0.0;          ///< the points grouped by the node holding them
  double gathering = 0.0;         ///< the first round's records gathered, then waits for the next
  double gatheringAhead = 0.0;    ///< each node's records copied together, overlapping encoding
  double encoding = 0.0;          ///< LAZ chunks encoded, on all cores
  double waitingForWrites = 0.0;  ///< the calling thread waited for the writing thread
  double writing = 0.0;           ///< on the writing thread, overlapping the phases above
  double finishing = 0.0;         ///< the chunk table, the hierarchy, the header, the rename
};

/// One phase of CopcPhaseTimes: its key in reports (camelCase), its name in messages, its time,
/// and for the phases that ran beside the others (writing, gathering ahead) instead of in turn,
/// how they overlapped them (else null).
struct CopcPhase {
  const char* key;
  const char* name;
  double seconds;
  const char* overlapping;
};

/// Every phase but the total, in the order a conversion meets them, then the overlapping ones:
/// the one list that messages and reports are made from.
std::vector<CopcPhase> copcPhases(const CopcPhaseTimes& times);

/// "COPC in 76.0 s: reading 9.1 s, keys 3.2 s, ...; writing 7.3 s on its own thread, overlapping
/// gathering and encoding; gathering ahead 2.6 s, overlapping encoding": the phases that ran, in
/// order, then the time no phase accounts for, then what overlapped them.
std::string describeCopcPhases(const CopcPhaseTimes& times);

}  // namespace pcv
