/// @brief The one error every reader throws for a malformed file: which file, where in it (a byte
/// offset or a line) and what was expected there, as text for the user and as fields for callers
/// and tests that need to know where a file went wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pcv/core/error.hpp"

namespace pcv {

class MalformedFileError : public InputError {
 public:
  /// Where in the file; neither set for faults of the file as a whole.
  struct Place {
    std::optional<uint64_t> byteOffset;  ///< file offset (physical, for E57) of the fault
    std::optional<uint64_t> line;        ///< 1-based line, for text formats
  };

  /// what(): "<file>: byte <offset>: <what>", "<file>: line <line>: <what>" or "<file>: <what>".
  MalformedFileError(std::string file, Place place, const std::string& what);

  const std::string& file() const { return file_; }
  std::optional<uint64_t> byteOffset() const { return place_.byteOffset; }
  std::optional<uint64_t> line() const { return place_.line; }

 private:
  std::string file_;
  Place place_;
};

}  // namespace pcv
