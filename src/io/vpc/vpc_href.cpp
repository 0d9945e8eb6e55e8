// Where an asset href points: URLs stay URLs, relative paths are relative to the VPC.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "pcv/io/virtual_point_cloud.hpp"

namespace pcv {
namespace {

bool startsWithNoCase(const std::string& text, const std::string& prefix) {
  return text.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), text.begin(), [](char lower, char c) {
           return std::tolower(static_cast<unsigned char>(c)) == lower;
         });
}

}  // namespace

bool isUrl(const std::string& location) {
  return startsWithNoCase(location, "http://") || startsWithNoCase(location, "https://") ||
         startsWithNoCase(location, "s3://");
}

std::string resolveVpcHref(const std::string& base, const std::string& href) {
  if (isUrl(href)) return href;
  if (startsWithNoCase(href, "file://")) {
    return std::filesystem::path(href.substr(7)).lexically_normal().string();
  }
  if (std::filesystem::path(href).is_absolute()) {
    return std::filesystem::path(href).lexically_normal().string();
  }
  if (isUrl(base)) {
    std::string relative = href;
    while (relative.rfind("./", 0) == 0) relative.erase(0, 2);
    return base + (base.ends_with('/') ? "" : "/") + relative;
  }
  return (std::filesystem::path(base.empty() ? "." : base) / href).lexically_normal().string();
}

}  // namespace pcv
