#include "options/cli_options.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "pcv/core/error.hpp"

namespace pcv::app {

ImageSize parseImageSize(const std::string& text) {
  const auto x = text.find_first_of("xX");
  ImageSize size;
  if (x != std::string::npos) {
    const char* begin = text.data();
    const auto w = std::from_chars(begin, begin + x, size.width);
    const auto h = std::from_chars(begin + x + 1, begin + text.size(), size.height);
    if (w.ec == std::errc() && w.ptr == begin + x && h.ec == std::errc() &&
        h.ptr == begin + text.size() && size.width >= 1 && size.height >= 1 &&
        size.width <= 16384 && size.height <= 16384) {
      return size;
    }
  }
  throw InputError("bad image size '" + text + "': expected WIDTHxHEIGHT, each 1..16384");
}

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
