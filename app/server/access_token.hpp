/// @brief The secret a browser must show when pcv serves beyond loopback: made from the
/// system's random source, read from a file, and found in a request (the `token` query
/// parameter or the cookie the page's first answer sets), compared in constant time.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pcv::app {

/// The cookie that carries the token after the first request.
constexpr std::string_view kTokenCookie = "pcv_token";

/// 32 hex digits (128 bits) from std::random_device (the kernel's random source).
std::string makeAccessToken();
/// The first line of `path`, trimmed; throws InputError when the file cannot be read or the
/// token is shorter than 16 characters or holds anything but letters, digits, '-' and '_'.
std::string readAccessToken(const std::string& path);

/// The value of query parameter `name` in a request target ("/ws?token=abc&x=1"), undecoded.
std::optional<std::string> queryParameter(std::string_view target, std::string_view name);
/// The value of cookie `name` in a Cookie header ("a=1; pcv_token=abc").
std::optional<std::string> cookieValue(std::string_view header, std::string_view name);
/// The request target without its query.
std::string_view targetPath(std::string_view target);

/// Compares without stopping at the first difference, so its time tells nothing of the token.
bool tokensEqual(std::string_view given, std::string_view expected);

}  // namespace pcv::app
