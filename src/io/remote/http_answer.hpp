/// @brief The head of an HTTP answer as pcv needs it for range reads: status, Content-Range,
/// Content-Length, ETag, Last-Modified, Accept-Ranges. A pure function of the header text (no
/// libcurl), so it is tested and fuzzed on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pcv::io {

/// "Content-Range: bytes FIRST-LAST/TOTAL" (TOTAL may be "*"), or "bytes */TOTAL" in a 416.
struct ContentRange {
  bool satisfied = true;  ///< false for "bytes */TOTAL": first and last are meaningless
  uint64_t first = 0, last = 0;  ///< inclusive, as HTTP writes them
  std::optional<uint64_t> total;  ///< the whole file's size, when the server states it
};

struct HttpHead {
  int status = 0;  ///< 100-599
  std::optional<uint64_t> contentLength;
  std::optional<ContentRange> contentRange;
  std::string etag;          ///< as sent, quotes and W/ included; empty when absent
  std::string lastModified;  ///< as sent; empty when absent
  bool acceptsRanges = false;  ///< "Accept-Ranges: bytes"
};

/// Parses header text as received (CRLF or LF lines). Where redirects or 100 Continue sent
/// several heads, the last one counts. nullopt when there is no valid status line; unknown or
/// malformed header lines are ignored (a malformed Content-Range or Content-Length is left
/// unset, which the caller refuses).
std::optional<HttpHead> parseHttpHead(std::string_view text);

/// The value of a Content-Range header; nullopt when malformed (last < first, numbers that do
/// not fit 64 bits, a unit other than bytes, a range past the stated total).
std::optional<ContentRange> parseContentRange(std::string_view value);

}  // namespace pcv::io
