#include "options/cli_options.hpp"

#include <cmath>
#include <cstdlib>

#include "pcv/core/error.hpp"

namespace pcv::app {

glm::dvec3 parseVector3(const std::string& text) {
  glm::dvec3 v;
  const char* cursor = text.c_str();
  for (int i = 0; i < 3; ++i) {
    char* end = nullptr;
    v[i] = std::strtod(cursor, &end);
    const char expected = i < 2 ? ',' : '\0';
    if (end == cursor || *end != expected || !std::isfinite(v[i])) {
      throw InputError("bad vector '" + text + "': expected three numbers as x,y,z");
    }
    cursor = end + 1;
  }
  return v;
}

}  // namespace pcv::app
