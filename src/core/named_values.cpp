#include "pcv/core/named_values.hpp"

namespace pcv {
namespace {

std::string unknownNameMessage(std::string_view what, std::string_view given,
                               const std::vector<std::string>& knownNames) {
  std::string message = "unknown " + std::string(what) + " '" + std::string(given) + "' (known: ";
  for (size_t i = 0; i < knownNames.size(); ++i) {
    message += (i == 0 ? "" : ", ") + knownNames[i];
  }
  return message + ")";
}

}  // namespace

UnknownNameError::UnknownNameError(std::string_view what, std::string_view given,
                                   std::vector<std::string> knownNames)
    : InputError(unknownNameMessage(what, given, knownNames)), knownNames_(std::move(knownNames)) {}

}  // namespace pcv
