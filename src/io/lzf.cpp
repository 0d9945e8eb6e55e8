// LZF stream format (as written by liblzf's lzf_compress, used by PCL):
//   control byte c < 32:  a literal run of c + 1 bytes follows.
//   otherwise:            a back reference. length = c >> 5 (7 means: add the next byte),
//                         offset = ((c & 0x1f) << 8 | next byte) + 1 bytes back;
//                         copy length + 2 bytes, byte by byte (the source may overlap the output).
#include "lzf.hpp"

namespace pcv::io {

bool lzfDecompress(std::span<const uint8_t> input, std::span<uint8_t> output) {
  size_t in = 0, out = 0;
  const size_t inSize = input.size(), outSize = output.size();
  while (in < inSize) {
    const uint32_t control = input[in++];
    if (control < 32) {
      const size_t length = control + 1;
      if (inSize - in < length || outSize - out < length) return false;
      for (size_t i = 0; i < length; ++i) output[out++] = input[in++];
      continue;
    }
    size_t length = control >> 5;
    if (length == 7) {
      if (in >= inSize) return false;
      length += input[in++];
    }
    if (in >= inSize) return false;
    const size_t back = (size_t(control & 0x1f) << 8 | input[in++]) + 1;
    length += 2;
    if (back > out || outSize - out < length) return false;
    for (size_t i = 0; i < length; ++i, ++out) output[out] = output[out - back];
  }
  return out == outSize;
}

}  // namespace pcv::io
