// LZF through Debian's liblzf, whose lzf_decompress checks every back reference and run
// against both buffers (CHECK_INPUT) and returns 0 on corrupt input or a full output.
#include "lzf.hpp"

#include <climits>

#include <lzf.h>

namespace pcv::io {

bool lzfDecompress(std::span<const uint8_t> input, std::span<uint8_t> output) {
  // liblzf counts bytes in unsigned ints; PCD states its sizes in 32 bits anyway.
  if (input.size() > UINT_MAX || output.size() > UINT_MAX) return false;
  // 0 is liblzf's error value, so nothing can be told apart from an empty output.
  if (output.empty()) return input.empty();
  const unsigned written =
      lzf_decompress(input.data(), unsigned(input.size()), output.data(), unsigned(output.size()));
  return written == output.size();
}

}  // namespace pcv::io
