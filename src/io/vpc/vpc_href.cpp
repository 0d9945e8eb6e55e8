// Where an asset href points: URLs stay URLs, relative paths are relative to the VPC.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "pcv/core/text_case.hpp"
#include "pcv/io/virtual_point_cloud.hpp"

namespace pcv {

bool isUrl(const std::string& location) {
  return startsWithIgnoringCase(location, "http://") ||
         startsWithIgnoringCase(location, "https://") || startsWithIgnoringCase(location, "s3://");
}

std::string resolveVpcHref(const std::string& base, const std::string& href) {
  if (isUrl(href)) return href;
  if (startsWithIgnoringCase(href, "file://")) {
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
