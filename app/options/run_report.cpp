#include "options/run_report.hpp"

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "pcv/core/error.hpp"

namespace pcv::app {
namespace {

/// --report's value; empty when not given. One command runs per process.
std::string& reportPath() {
  static std::string path;
  return path;
}

}  // namespace

nlohmann::json& runReport() {
  static nlohmann::json report = nlohmann::json::object();
  return report;
}

void addReportOption(CLI::App& command) {
  command.add_option("--report", reportPath(),
                     "Also write the run's figures as JSON to this file (-: standard output)");
}

bool reportGoesToStdout() {
  return reportPath() == "-";
}

void discardRunReport() {
  reportPath().clear();
}

void writeRunReport() {
  const std::string& path = reportPath();
  if (path.empty()) return;
  // Paths and messages are not always UTF-8: such bytes become U+FFFD rather than an exception.
  const std::string text =
      runReport().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw Error("cannot write the report " + path);
}

}  // namespace pcv::app
