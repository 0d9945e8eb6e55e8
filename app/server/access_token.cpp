#include "server/access_token.hpp"

#include <fstream>
#include <random>

#include "pcv/core/error.hpp"

namespace pcv::app {

std::string makeAccessToken() {
  std::random_device random;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (int i = 0; i < 8; ++i) {
    uint32_t word = random();
    for (int nibble = 0; nibble < 4; ++nibble, word >>= 4) token.push_back(kHex[word & 15]);
  }
  return token;
}

std::string readAccessToken(const std::string& path) {
  std::ifstream in(path);
  std::string token;
  if (!in || !std::getline(in, token)) {
    throw InputError("--token-file '" + path + "': cannot read a token from it");
  }
  while (!token.empty() && (token.back() == '\r' || token.back() == ' ')) token.pop_back();
  if (token.size() < 16) {
    throw InputError("--token-file '" + path +
                     "': its first line must hold a token of 16 "
                     "characters or more");
  }
  for (const char c : token) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_';
    if (!plain) {
      throw InputError("--token-file '" + path +
                       "': a token holds letters, digits, '-' and '_' "
                       "only");
    }
  }
  return token;
}

std::string_view targetPath(std::string_view target) {
  return target.substr(0, target.find('?'));
}

std::optional<std::string> queryParameter(std::string_view target, std::string_view name) {
  const size_t question = target.find('?');
  if (question == std::string_view::npos) return std::nullopt;
  std::string_view query = target.substr(question + 1);
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const size_t equals = pair.find('=');
    if (pair.substr(0, equals) == name) {
      return std::string(equals == std::string_view::npos ? "" : pair.substr(equals + 1));
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return std::nullopt;
}

std::optional<std::string> cookieValue(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    const size_t semicolon = header.find(';');
    std::string_view pair = header.substr(0, semicolon);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    const size_t equals = pair.find('=');
    if (equals != std::string_view::npos && pair.substr(0, equals) == name) {
      return std::string(pair.substr(equals + 1));
    }
    if (semicolon == std::string_view::npos) break;
    header.remove_prefix(semicolon + 1);
  }
  return std::nullopt;
}

bool tokensEqual(std::string_view given, std::string_view expected) {
  unsigned difference = given.size() == expected.size() ? 0u : 1u;
  for (size_t i = 0; i < expected.size(); ++i) {
    difference |= unsigned(uint8_t(expected[i]) ^ uint8_t(i < given.size() ? given[i] : 0));
  }
  return difference == 0;
}

}  // namespace pcv::app
