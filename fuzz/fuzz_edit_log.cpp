// libFuzzer target for the edit log (pcv edit --apply): any text must parse or throw
// pcv::InputError, never crash or hang; and what parses must print back (editLogText) to a log
// that parses to the same text again.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "pcv/core/error.hpp"
#include "pcv/session/edit_log.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<pcv::PointEdit> edits;
  try {
    edits = pcv::parseEditLog(text, "fuzz");
  } catch (const pcv::InputError&) {
    return 0;
  }
  const std::string printed = pcv::editLogText(edits);
  const std::vector<pcv::PointEdit> back = pcv::parseEditLog(printed, "printed");
  if (back.size() != edits.size() || pcv::editLogText(back) != printed) std::abort();
  return 0;
}
