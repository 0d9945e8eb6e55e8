#include "session_terminal.hpp"

#include <cstdio>

#include "convert_command.hpp"
#include "progress_bar.hpp"

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
  // Its own default memory (half of RAM, out of core beyond that), not the streaming budget.
  convertToCopc(inputs, output, 0, quiet);
}

}  // namespace pcv::app
