// HTTP/1.1 heads (RFC 9110, 9112): "HTTP/1.1 206 Partial Content", then "Name: value" lines; names
// are case-insensitive and values may carry spaces around them.
#include "http_answer.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "pcv/core/text_case.hpp"

namespace pcv::io {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

/// A whole decimal number of at most 64 bits, nothing else.
std::optional<uint64_t> number(std::string_view text) {
  text = trim(text);
  if (text.empty() || text.size() > 20) return std::nullopt;
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

/// "HTTP/1.1 206 Partial Content" or "HTTP/2 200": the status, 100-599.
std::optional<int> statusOf(std::string_view line) {
  if (line.substr(0, 5) != "HTTP/") return std::nullopt;
  const size_t space = line.find(' ');
  if (space == std::string_view::npos || line.size() < space + 4) return std::nullopt;
  const std::string_view code = line.substr(space + 1, 3);
  if (!std::all_of(code.begin(), code.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  if (line.size() > space + 4 && line[space + 4] != ' ' && line[space + 4] != '\r') {
    return std::nullopt;
  }
  const int status = (code[0] - '0') * 100 + (code[1] - '0') * 10 + (code[2] - '0');
  if (status < 100 || status > 599) return std::nullopt;
  return status;
}

}  // namespace

std::optional<ContentRange> parseContentRange(std::string_view value) {
  value = trim(value);
  if (value.size() < 6 || !equalsIgnoringCase(value.substr(0, 6), "bytes ")) return std::nullopt;
  value = trim(value.substr(6));
  const size_t slash = value.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::string_view range = trim(value.substr(0, slash));
  const std::string_view total = trim(value.substr(slash + 1));
  ContentRange result;
  if (total != "*") {
    result.total = number(total);
    if (!result.total) return std::nullopt;
  }
  if (range == "*") {
    if (!result.total) return std::nullopt;  // "bytes */*" says nothing
    result.satisfied = false;
    return result;
  }
  const size_t dash = range.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const auto first = number(range.substr(0, dash));
  const auto last = number(range.substr(dash + 1));
  if (!first || !last || *last < *first) return std::nullopt;
  if (result.total && *last >= *result.total) return std::nullopt;
  result.first = *first;
  result.last = *last;
  return result;
}

std::optional<HttpHead> parseHttpHead(std::string_view text) {
  std::optional<HttpHead> head;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    std::string_view line =
        newline == std::string_view::npos ? text : text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (const auto status = statusOf(line)) {
      head = HttpHead{.status = *status};  // a new head: what came before was an interim one
      continue;
    }
    if (!head) continue;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) continue;
    const std::string_view name = trim(line.substr(0, colon));
    const std::string_view value = trim(line.substr(colon + 1));
    if (equalsIgnoringCase(name, "content-length")) {
      head->contentLength = number(value);
    } else if (equalsIgnoringCase(name, "content-range")) {
      head->contentRange = parseContentRange(value);
    } else if (equalsIgnoringCase(name, "etag")) {
      head->etag = std::string(value);
    } else if (equalsIgnoringCase(name, "last-modified")) {
      head->lastModified = std::string(value);
    } else if (equalsIgnoringCase(name, "accept-ranges")) {
      head->acceptsRanges = equalsIgnoringCase(value, "bytes");
    }
  }
  return head;
}

}  // namespace pcv::io
