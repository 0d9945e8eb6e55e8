/// @brief URI references as RFC 3986 defines them: split into their five parts, resolved against
/// a base URI (section 5.2, with dot segments removed), made valid by percent-encoding, compared
/// by origin, and shown in messages without credentials, control characters or unbounded length.
/// What a remote VPC's hrefs are resolved with, so that a web document names only web resources.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace pcv {

/// The five parts of a URI reference (RFC 3986 appendix B); an absent part is not the same as an
/// empty one ("http://h/x?" has an empty query, "http://h/x" none).
struct UriReference {
  std::optional<std::string> scheme;     ///< as written, without its ':'
  std::optional<std::string> authority;  ///< after "//": [userinfo@]host[:port]
  std::string path;
  std::optional<std::string> query;     ///< without its '?'
  std::optional<std::string> fragment;  ///< without its '#'

  /// The reference written back (RFC 3986 5.3).
  std::string text() const;
};

/// Splits `text` into its parts. A scheme is recognised only when it is spelled as RFC 3986
/// allows (a letter, then letters, digits, '+', '-' or '.', then ':' before any '/', '?' or
/// '#'); otherwise the text is a relative reference. Never fails: every text has a split.
UriReference splitUriReference(std::string_view text);

/// RFC 3986 5.2.4: "." and ".." segments removed from `path` ("/a/b/../c/./d" is "/a/c/d"; ".."
/// above the root stays at the root).
std::string removeDotSegments(std::string_view path);

/// RFC 3986 5.2.2 (strict): the target URI of `reference` against the absolute URI `base`.
/// Relative paths merge with the base's path, "/x" keeps the base's scheme and authority,
/// "//host/x" its scheme only, "?q" replaces the query and "#f" only the fragment. The base's
/// query is kept only for an empty or fragment-only reference: a relative path drops it, as the
/// RFC says (a signed URL's token does not pass to the files it names).
std::string resolveUriReference(std::string_view base, std::string_view reference);

/// `text` with every byte that a URI cannot hold percent-encoded (RFC 3986 2.1): controls,
/// space, bytes above 0x7e, and '"', '<', '>', '\\', '^', '`', '{', '|', '}'; a '%' that does not
/// start a "%XX" escape becomes "%25". Reserved characters and existing escapes are kept, so
/// encoding twice changes nothing.
std::string percentEncodeUri(std::string_view text);

/// "scheme://host[:port]" of an absolute URI with an authority, in lower case, without userinfo,
/// and without the scheme's default port (80 for http, 443 for https); empty when `uri` has no
/// scheme or no authority. Two URIs of one origin are served by the same party.
std::string uriOrigin(std::string_view uri);

/// `location` (a path, a URL, any text from a document) fit to print in one line of a message:
/// "user:password@" removed from a URL's authority, control characters and DEL written as
/// "\r", "\n", "\t" or "\xNN", and cut to `maxBytes` with "... (N bytes)" after.
std::string locationForMessages(std::string_view location, size_t maxBytes = 200);

}  // namespace pcv
