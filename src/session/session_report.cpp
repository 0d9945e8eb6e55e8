#include "pcv/session/session_report.hpp"

#include <cstdio>

namespace pcv {

SessionReport reportOnStderr() {
  SessionReport report;
  report.note = [](const std::string& line) { std::fprintf(stderr, "pcv: %s\n", line.c_str()); };
  report.warning = [](const std::string& line) {
    std::fprintf(stderr, "pcv: warning: %s\n", line.c_str());
  };
  report.error = [](const std::string& line) {
    std::fprintf(stderr, "pcv: error: %s\n", line.c_str());
  };
  return report;
}

}  // namespace pcv
