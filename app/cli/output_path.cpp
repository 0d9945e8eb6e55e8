#include "output_path.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "pcv/core/error.hpp"

namespace pcv::app {

void requireWritableOutput(const std::string& path) {
  namespace fs = std::filesystem;
  const auto refuse = [&](const std::string& why) {
    throw InputError("cannot write '" + path + "': " + why);
  };
  if (path.empty()) refuse("no file name");
  std::error_code error;
  const fs::path file(path);
  if (fs::is_directory(file, error)) refuse("it is a folder; expected a file name");
  const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
  const fs::file_status status = fs::status(folder, error);
  if (!fs::exists(status)) refuse("the folder '" + folder.string() + "' does not exist");
  if (!fs::is_directory(status)) refuse("'" + folder.string() + "' is not a folder");
  // access() answers for this process's user (root passes any mode bits, as open() would).
  if (fs::exists(file, error)) {
    if (::access(file.c_str(), W_OK) != 0) refuse(std::strerror(errno));
  } else if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    refuse(std::string(std::strerror(errno)) + " in the folder '" + folder.string() + "'");
  }
}

}  // namespace pcv::app
