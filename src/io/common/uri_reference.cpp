// RFC 3986 section by section: the split of appendix B with the scheme's grammar checked, the
// resolution of 5.2.2 and 5.2.4, the recomposition of 5.3.
#include "pcv/io/uri_reference.hpp"

#include <cctype>
#include <cstdio>

namespace pcv {
namespace {

bool isSchemeStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}

bool isSchemeCharacter(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
}

bool isHexDigit(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// The length of the scheme at the start of `text` (its ':' not counted), 0 when there is none.
size_t schemeLength(std::string_view text) {
  if (text.empty() || !isSchemeStart(text[0])) return 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (text[i] == ':') return i;
    if (!isSchemeCharacter(text[i])) return 0;
  }
  return 0;
}

/// RFC 3986 5.2.3: the reference's path appended to the base's folder.
std::string mergePaths(const UriReference& base, const std::string& path) {
  if (base.authority && base.path.empty()) return "/" + path;
  const size_t slash = base.path.rfind('/');
  if (slash == std::string::npos) return path;
  return base.path.substr(0, slash + 1) + path;
}

/// The authority without "userinfo@" (the last '@' ends it: a password may hold an '@').
std::string_view withoutUserinfo(std::string_view authority) {
  const size_t at = authority.rfind('@');
  return at == std::string_view::npos ? authority : authority.substr(at + 1);
}

}  // namespace

std::string UriReference::text() const {
  std::string out;
  if (scheme) out += *scheme + ":";
  if (authority) out += "//" + *authority;
  out += path;
  if (query) out += "?" + *query;
  if (fragment) out += "#" + *fragment;
  return out;
}

UriReference splitUriReference(std::string_view text) {
  UriReference parts;
  if (const size_t length = schemeLength(text)) {
    parts.scheme = std::string(text.substr(0, length));
    text.remove_prefix(length + 1);
  }
  if (const size_t hash = text.find('#'); hash != std::string_view::npos) {
    parts.fragment = std::string(text.substr(hash + 1));
    text = text.substr(0, hash);
  }
  if (const size_t question = text.find('?'); question != std::string_view::npos) {
    parts.query = std::string(text.substr(question + 1));
    text = text.substr(0, question);
  }
  if (text.starts_with("//")) {
    const size_t end = text.find('/', 2);
    parts.authority =
        std::string(text.substr(2, end == std::string_view::npos ? text.npos : end - 2));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end);
  }
  parts.path = std::string(text);
  return parts;
}

std::string removeDotSegments(std::string_view path) {
  // The input is consumed from the front as a view (RFC 3986's "replace with /" is dropping
  // the characters before that '/'), so a long path costs linear time.
  std::string_view input = path;
  std::string output;
  while (!input.empty()) {
    if (input.starts_with("../")) {
      input.remove_prefix(3);
    } else if (input.starts_with("./") || input.starts_with("/./")) {
      input.remove_prefix(2);
    } else if (input == "/.") {
      input = "/";
    } else if (input.starts_with("/../") || input == "/..") {
      input = input.size() == 3 ? std::string_view("/") : input.substr(3);
      const size_t slash = output.rfind('/');
      output.erase(slash == std::string::npos ? 0 : slash);
    } else if (input == "." || input == "..") {
      input = {};
    } else {
      const size_t end = input.find('/', input[0] == '/' ? 1 : 0);
      const size_t length = end == std::string_view::npos ? input.size() : end;
      output += input.substr(0, length);
      input.remove_prefix(length);
    }
  }
  return output;
}

std::string resolveUriReference(std::string_view baseText, std::string_view referenceText) {
  const UriReference base = splitUriReference(baseText);
  const UriReference reference = splitUriReference(referenceText);
  UriReference target;
  if (reference.scheme) {
    target.scheme = reference.scheme;
    target.authority = reference.authority;
    target.path = removeDotSegments(reference.path);
    target.query = reference.query;
  } else {
    if (reference.authority) {
      target.authority = reference.authority;
      target.path = removeDotSegments(reference.path);
      target.query = reference.query;
    } else {
      if (reference.path.empty()) {
        target.path = base.path;
        target.query = reference.query ? reference.query : base.query;
      } else {
        target.path = removeDotSegments(
            reference.path.starts_with('/') ? reference.path : mergePaths(base, reference.path));
        target.query = reference.query;
      }
      target.authority = base.authority;
    }
    target.scheme = base.scheme;
  }
  target.fragment = reference.fragment;
  return target.text();
}

std::string percentEncodeUri(std::string_view text) {
  static constexpr std::string_view kNotInUris = "\"<>\\^`{|}";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const bool escape =
        c == '%' && i + 2 < text.size() && isHexDigit(text[i + 1]) && isHexDigit(text[i + 2]);
    if (c > 0x20 && c < 0x7f && (c != '%' || escape) &&
        kNotInUris.find(char(c)) == kNotInUris.npos) {
      out += char(c);
      continue;
    }
    char code[4];
    std::snprintf(code, sizeof code, "%%%02X", c);
    out += code;
  }
  return out;
}

std::string uriOrigin(std::string_view uri) {
  const UriReference parts = splitUriReference(uri);
  if (!parts.scheme || !parts.authority) return "";
  const std::string scheme = lower(*parts.scheme);
  std::string host = lower(withoutUserinfo(*parts.authority));
  // The port follows the last ':' after an IPv6 literal's ']' (or anywhere in a name).
  const size_t bracket = host.rfind(']');
  const size_t colon = host.rfind(':');
  if (colon != std::string::npos && (bracket == std::string::npos || colon > bracket)) {
    const std::string port = host.substr(colon + 1);
    if (port.empty() || (scheme == "http" && port == "80") ||
        (scheme == "https" && port == "443")) {
      host.erase(colon);
    }
  }
  return scheme + "://" + host;
}

std::string locationForMessages(std::string_view location, size_t maxBytes) {
  std::string shown(location);
  const UriReference parts = splitUriReference(location);
  if (parts.scheme && parts.authority && parts.authority->find('@') != std::string::npos) {
    UriReference withoutCredentials = parts;
    withoutCredentials.authority = std::string(withoutUserinfo(*parts.authority));
    shown = withoutCredentials.text();
  }
  std::string out;
  for (const char ch : shown) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '\r')
      out += "\\r";
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20 || c == 0x7f) {
      char code[5];
      std::snprintf(code, sizeof code, "\\x%02X", c);
      out += code;
    } else {
      out += ch;
    }
    if (out.size() > maxBytes) break;
  }
  if (out.size() <= maxBytes) return out;
  size_t cut = maxBytes;
  // Not inside a UTF-8 sequence: back to the byte that starts it.
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
  out.erase(cut);
  return out + "... (" + std::to_string(location.size()) + " bytes)";
}

}  // namespace pcv
