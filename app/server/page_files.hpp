/// @brief The page pcv serve sends browsers: the files of app/server/page, built into the
/// executable (cmake/embed_page.cmake), so that nothing is read from disk to answer a request
/// and no request can name a path of the disk.
#pragma once

#include <span>
#include <string_view>

namespace pcv::app {

struct PageFile {
  std::string_view path;         ///< "/index.html", "/pcv.js" ...
  std::string_view contentType;  ///< "text/html; charset=utf-8" ...
  std::string_view body;
};

/// Every file of the page.
std::span<const PageFile> pageFiles();

/// The file a request path names ("/" is "/index.html"); null for anything else.
const PageFile* findPageFile(std::string_view path);

}  // namespace pcv::app
