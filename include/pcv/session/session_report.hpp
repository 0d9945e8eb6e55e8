/// @brief How the session tells a front end what it does: notes and warnings as lines, and
/// long steps (reading a file, laying out points, converting) as progress it can show. Every hook
/// may be left empty; the session itself prints nothing.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "pcv/io/point_cloud_reader.hpp"

namespace pcv {

struct SessionReport {
  /// A line for the user: what was read, what was decided and why.
  std::function<void(const std::string& line)> note;
  /// What a reader said without failing (a count that disagrees ...).
  std::function<void(const std::string& line)> warning;
  /// What failed without stopping the session (a streamed node that cannot be decoded).
  std::function<void(const std::string& line)> error;
  /// A long step starts: shows `label` while the returned token lives. `load` is the file
  /// read's progress when the step is one; otherwise `fraction` says how far it is (0..1).
  std::function<std::shared_ptr<void>(const std::string& label, const LoadProgress* load,
                                      std::function<double()> fraction)>
      progress;

  void say(const std::string& line) const {
    if (note) note(line);
  }
  void warn(const std::string& line) const {
    if (warning) warning(line);
  }
  void fail(const std::string& line) const {
    if (error) error(line);
  }
  std::shared_ptr<void> show(const std::string& label, const LoadProgress* load,
                             std::function<double()> fraction) const {
    return progress ? progress(label, load, std::move(fraction)) : nullptr;
  }
};

/// Notes as "pcv: LINE", warnings as "pcv: warning: LINE" and errors as "pcv: error: LINE" on
/// stderr; no progress display.
SessionReport reportOnStderr();

}  // namespace pcv
