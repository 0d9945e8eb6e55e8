// libFuzzer target for the HTTP answer heads a remote read parses (io/remote/http_answer): any
// bytes a server sends must parse or be refused, never crash or read out of bounds; and what
// parses must hold together (a Content-Range's last byte not before its first, inside the total).
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "remote/http_answer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto head = pcv::io::parseHttpHead(text);
  if (head) {
    if (head->status < 100 || head->status > 599) std::abort();
    if (const auto& range = head->contentRange; range && range->satisfied) {
      if (range->last < range->first) std::abort();
      if (range->total && range->last >= *range->total) std::abort();
    }
  }
  (void)pcv::io::parseContentRange(text);
  return 0;
}
