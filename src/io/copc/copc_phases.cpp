// The phases in the order a conversion meets them; a phase that did not run (0 s: the in-memory
// path has no partitioning) is left out so the line stays readable.
#include "pcv/io/copc_phases.hpp"

#include <cstdio>
#include <tuple>
#include <utility>

namespace pcv {

std::string describeCopcPhases(const CopcPhaseTimes& t) {
  const std::pair<const char*, double> phases[] = {{"reading", t.reading},
                                                   {"bounds", t.bounds},
                                                   {"partitioning", t.partitioning},
                                                   {"loading", t.loading},
                                                   {"keys", t.keys},
                                                   {"sort", t.sort},
                                                   {"ties", t.ties},
                                                   {"tree", t.tree},
                                                   {"sampling", t.sampling},
                                                   {"merging", t.merging},
                                                   {"grouping", t.grouping},
                                                   {"gathering", t.gathering},
                                                   {"encoding", t.encoding},
                                                   {"waiting for writes", t.waitingForWrites},
                                                   {"finishing", t.finishing}};
  char text[96];
  std::snprintf(text, sizeof text, "COPC in %.1f s:", t.totalSeconds);
  std::string line = text;
  double accounted = 0.0;
  const char* separator = " ";
  for (const auto& [name, seconds] : phases) {
    if (!(seconds > 0.0)) continue;
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
  const std::tuple<const char*, double, const char*> overlapping[] = {
      {"writing", t.writing, " on its own thread, overlapping gathering and encoding"},
      {"gathering ahead", t.gatheringAhead, ", overlapping encoding"}};
  for (const auto& [name, seconds, how] : overlapping) {
    if (!(seconds > 0.0)) continue;
    std::snprintf(text, sizeof text, "; %s %.1f s%s", name, seconds, how);
    line += text;
  }
  return line;
}

}  // namespace pcv
