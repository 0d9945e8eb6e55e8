// The phases in the order a conversion meets them; a phase that did not run (0 s: the in-memory
// path has no partitioning) is left out so the line stays readable.
#include "pcv/io/copc_phases.hpp"

#include <cstdio>

namespace pcv {

std::vector<CopcPhase> copcPhases(const CopcPhaseTimes& t) {
  return {{"reading", "reading", t.reading, nullptr},
          {"bounds", "bounds", t.bounds, nullptr},
          {"partitioning", "partitioning", t.partitioning, nullptr},
          {"loading", "loading", t.loading, nullptr},
          {"keys", "keys", t.keys, nullptr},
          {"sort", "sort", t.sort, nullptr},
          {"ties", "ties", t.ties, nullptr},
          {"tree", "tree", t.tree, nullptr},
          {"sampling", "sampling", t.sampling, nullptr},
          {"merging", "merging", t.merging, nullptr},
          {"grouping", "grouping", t.grouping, nullptr},
          {"gathering", "gathering", t.gathering, nullptr},
          {"encoding", "encoding", t.encoding, nullptr},
          {"waitingForWrites", "waiting for writes", t.waitingForWrites, nullptr},
          {"finishing", "finishing", t.finishing, nullptr},
          {"writing", "writing", t.writing,
           " on its own thread, overlapping gathering and encoding"},
          {"gatheringAhead", "gathering ahead", t.gatheringAhead, ", overlapping encoding"}};
}

std::string describeCopcPhases(const CopcPhaseTimes& t) {
  const std::vector<CopcPhase> phases = copcPhases(t);
  char text[96];
  std::snprintf(text, sizeof text, "COPC in %.1f s:", t.totalSeconds);
  std::string line = text;
  double accounted = 0.0;
  const char* separator = " ";
  for (const CopcPhase& phase : phases) {
    if (phase.overlapping || !(phase.seconds > 0.0)) continue;
    const char* name = phase.name;
    const double seconds = phase.seconds;
    accounted += seconds;
    std::snprintf(text, sizeof text, "%s%s %.1f s", separator, name, seconds);
    line += text;
    separator = ", ";
  }
  // Releasing buffers, opening streams and the like: small unless something was missed.
  std::snprintf(text, sizeof text, "%sother %.1f s", separator,
                t.totalSeconds > accounted ? t.totalSeconds - accounted : 0.0);
  line += text;
  // Then the work that ran beside those phases, on other threads.
  for (const CopcPhase& phase : phases) {
    if (!phase.overlapping || !(phase.seconds > 0.0)) continue;
    std::snprintf(text, sizeof text, "; %s %.1f s%s", phase.name, phase.seconds,
                  phase.overlapping);
    line += text;
  }
  return line;
}

}  // namespace pcv
