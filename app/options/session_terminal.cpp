#include "options/session_terminal.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "options/conversion_progress.hpp"
#include "options/interrupt_signals.hpp"
#include "options/octree_sampler_choice.hpp"
#include "options/progress_bar.hpp"
#include "options/run_report.hpp"
#include "pcv/io/copc_phases.hpp"
#include "pcv/session/copc_conversion.hpp"

namespace pcv::app {

SessionReport terminalReport() {
  SessionReport report = reportOnStderr();
  report.progress = [](const std::string& label, const LoadProgress* load,
                       std::function<double()> fraction) -> std::shared_ptr<void> {
    if (load) return std::make_shared<ProgressBar>(*load, label);
    return std::make_shared<ProgressBar>(
        [fraction = std::move(fraction)](double) { return ProgressState{.fraction = fraction()}; },
        label);
  };
  return report;
}

void convertToCopcCache(const std::vector<std::string>& inputs, const std::string& output,
                        bool quiet) {
  std::string samplerNote;
  const std::unique_ptr<OctreeLodSampler> sampler = chooseOctreeSampler("auto", &samplerNote);
  if (!quiet) std::fprintf(stderr, "pcv: %s\n", samplerNote.c_str());
  CopcWriteProgress progress;
  InterruptSignals signals(progress.cancel);
  std::unique_ptr<ProgressBar> bar;
  if (!quiet) bar = copcConversionBar(progress);
  CopcWriteSummary summary;
  try {
    // Its own default memory (half of RAM, out of core beyond that), not the streaming budget.
    summary = convertFilesToCopc(inputs, output, {.sampler = sampler.get()}, &progress);
  } catch (const ConversionCancelled&) {
    // Everything temporary is gone by now; end as the signal asks.
    bar.reset();
    signals.endAsSignalled();
    throw;
  }
  bar.reset();
  runReport()["convert"] = {{"output", output},           {"points", summary.pointCount},
                            {"format", "COPC"},           {"pointFormat", summary.pointFormat},
                            {"nodes", summary.nodeCount}, {"sampler", sampler->name()}};
  if (!quiet) {
    std::fprintf(stderr, "pcv: %s: %llu points, COPC, point format %d, %llu nodes\n",
                 output.c_str(), static_cast<unsigned long long>(summary.pointCount),
                 summary.pointFormat, static_cast<unsigned long long>(summary.nodeCount));
  }
  std::fprintf(stderr, "pcv: %s\n", describeCopcPhases(summary.phases).c_str());
}

}  // namespace pcv::app
