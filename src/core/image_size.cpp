#include "pcv/core/image_size.hpp"

#include <charconv>
#include <string>

#include "pcv/core/error.hpp"

namespace pcv {

void checkImageSize(const ImageSize& size) {
  if (size.width < 1 || size.height < 1 || size.width > kMaxImageSidePx ||
      size.height > kMaxImageSidePx) {
    throw InputError("image size " + std::to_string(size.width) + "x" +
                     std::to_string(size.height) + " is outside 1.." +
                     std::to_string(kMaxImageSidePx) + " pixels per side");
  }
}

ImageSize parseImageSize(std::string_view text) {
  const size_t x = text.find_first_of("xX");
  ImageSize size;
  if (x != std::string_view::npos) {
    const char* begin = text.data();
    const char* end = begin + text.size();
    const auto w = std::from_chars(begin, begin + x, size.width);
    const auto h = std::from_chars(begin + x + 1, end, size.height);
    if (w.ec == std::errc() && w.ptr == begin + x && h.ec == std::errc() && h.ptr == end) {
      checkImageSize(size);
      return size;
    }
  }
  throw InputError("bad image size '" + std::string(text) + "': expected WIDTHxHEIGHT");
}

}  // namespace pcv
