// libFuzzer target for the point filter's parsers (--classes, --returns, --range): any text must
// parse or throw pcv::InputError, never crash or hang; and what parses must print back as
// flags (filterArguments) that parse to the same filter. The first byte picks the parser.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "pcv/core/error.hpp"
#include "pcv/core/point_filter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  pcv::PointFilter filter;
  try {
    switch (data[0] % 3) {
      case 0: filter.classes = pcv::parseClassList(text, "--classes"); break;
      case 1: pcv::parseReturnChoice(text, filter); break;
      default: filter.ranges.push_back(pcv::parseAttributeRange(text)); break;
    }
  } catch (const pcv::InputError&) {
    return 0;
  }
  // The printed flags of a range name the attribute as given: only plain names print back.
  if (!filter.ranges.empty() &&
      filter.ranges[0].attribute.find_first_of(" =:") != std::string::npos) {
    return 0;
  }
  const std::string words = pcv::filterArguments(filter);
  pcv::PointFilter back;
  size_t at = 0;
  while ((at = words.find(" --", at)) != std::string::npos) {
    const size_t nameEnd = words.find(' ', at + 1);
    const size_t valueEnd = words.find(" --", nameEnd);
    const std::string name = words.substr(at + 1, nameEnd - at - 1);
    const std::string value = words.substr(nameEnd + 1, valueEnd == std::string::npos
                                                            ? std::string::npos
                                                            : valueEnd - nameEnd - 1);
    if (name == "--classes") back.classes = pcv::parseClassList(value, name);
    if (name == "--exclude-classes") back.classes = pcv::ClassSet::none();
    if (name == "--returns") pcv::parseReturnChoice(value, back);
    if (name == "--range") back.ranges.push_back(pcv::parseAttributeRange(value));
    at = nameEnd;
  }
  if (!(back == filter)) std::abort();
  return 0;
}
