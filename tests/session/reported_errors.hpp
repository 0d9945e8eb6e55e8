/// @brief The errors a SceneModel says through its SessionReport, kept for a test to take, as the
/// viewer's Error window shows them.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pcv/session/session_report.hpp"

namespace pcv::test {

class ReportedErrors {
 public:
  /// A report whose errors are kept here (it may outlive this).
  SessionReport report() const {
    return {.error = [errors = errors_](const std::string& line) { errors->push_back(line); }};
  }
  /// The errors said since the last call.
  std::vector<std::string> take() { return std::exchange(*errors_, {}); }

 private:
  std::shared_ptr<std::vector<std::string>> errors_ = std::make_shared<std::vector<std::string>>();
};

}  // namespace pcv::test
