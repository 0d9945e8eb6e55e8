// Where an asset href points. A local VPC names local paths and URLs; a remote one is a web
// document and names web resources only: its hrefs are RFC 3986 references resolved against its
// URL, so "/x" and "//host/x" stay on the web, and any scheme pcv does not read over the network
// (file:, ftp:, data: ...) is refused instead of reaching the local disk.
#include <filesystem>

#include "pcv/core/error.hpp"
#include "pcv/core/text_case.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/io/uri_reference.hpp"
#include "pcv/io/virtual_point_cloud.hpp"

namespace pcv {
namespace {

/// Longer hrefs are refused: no server takes such a URL, and no file system such a path.
constexpr size_t kMaxHrefBytes = 16 << 10;

[[noreturn]] void refuse(const std::string& href, const std::string& why) {
  throw InputError("href \"" + locationForMessages(href) + "\": " + why);
}

bool isWebScheme(const std::string& scheme) {
  return scheme == "http" || scheme == "https" || scheme == "s3";
}

/// The origin a location is fetched from: s3://bucket/key is read from its https host.
std::string requestOrigin(const std::string& location) {
  return uriOrigin(requestUrlOf(location));
}

/// The href of a remote VPC at `base`: a URL on the web, never a local path.
std::string resolveRemoteHref(const std::string& base, const std::string& href,
                              const VpcHrefRules& rules) {
  const std::string encoded = percentEncodeUri(href);
  const UriReference reference = splitUriReference(encoded);
  if (reference.scheme && !isWebScheme(lowerCase(*reference.scheme))) {
    refuse(href,
           "a VPC read over the network may name http://, https:// and s3:// files only, "
           "not " +
               lowerCase(*reference.scheme) + ": ones");
  }
  const std::string resolved = resolveUriReference(base, encoded);
  // "http:x" or "http:/x" (a scheme without "//host") resolves to no web location.
  if (!isUrl(resolved) || splitUriReference(resolved).authority->empty()) {
    refuse(href, "expected a URL with a host, or a path relative to the VPC's URL");
  }
  if (rules.sameOrigin && requestOrigin(resolved) != requestOrigin(base)) {
    refuse(href, "on " + locationForMessages(uriOrigin(resolved)) + ", not on the VPC's origin " +
                     locationForMessages(uriOrigin(base)) +
                     " (--tile-origins any follows a VPC to other servers)");
  }
  return resolved;
}

}  // namespace

bool isUrl(const std::string& location) {
  return startsWithIgnoringCase(location, "http://") ||
         startsWithIgnoringCase(location, "https://") || startsWithIgnoringCase(location, "s3://");
}

std::string resolveVpcHref(const std::string& base, const std::string& href,
                           const VpcHrefRules& rules) {
  if (href.size() > kMaxHrefBytes) {
    refuse(href, "longer than " + std::to_string(kMaxHrefBytes) + " bytes");
  }
  if (isUrl(base)) return resolveRemoteHref(base, href, rules);
  if (isUrl(href)) return percentEncodeUri(href);
  if (startsWithIgnoringCase(href, "file://")) {
    return std::filesystem::path(href.substr(7)).lexically_normal().string();
  }
  // A scheme of two letters or more (one would be a drive letter) that pcv does not read.
  const UriReference reference = splitUriReference(href);
  if (reference.scheme && reference.scheme->size() > 1 && lowerCase(*reference.scheme) != "file") {
    refuse(href, "expected a path or an http://, https://, s3:// or file:// URL");
  }
  if (std::filesystem::path(href).is_absolute()) {
    return std::filesystem::path(href).lexically_normal().string();
  }
  return (std::filesystem::path(base.empty() ? "." : base) / href).lexically_normal().string();
}

}  // namespace pcv
