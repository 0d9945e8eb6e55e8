#include "viewer_launcher.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace pcv::app {

std::filesystem::path viewerExecutablePath() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  // Without /proc the viewer is looked for on the PATH, as a shell would.
  if (error) return "pcv-view";
  return self.parent_path() / "pcv-view";
}

int runViewerExecutable(const std::string& programName, const std::vector<std::string>& arguments) {
  const std::filesystem::path viewer = viewerExecutablePath();
  if (viewer.has_parent_path() && !std::filesystem::exists(viewer)) {
    std::fprintf(stderr,
                 "pcv: error: the viewer is not installed: %s is missing (build with "
                 "-DPCV_VIEWER=ON); the headless commands are in pcv --help\n",
                 viewer.c_str());
    return kViewerMissingStatus;
  }
  std::vector<std::string> words{programName, "view"};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  ::execvp(viewer.c_str(), argv.data());
  const int why = errno;
  std::fprintf(stderr, "pcv: error: cannot start the viewer %s: %s\n", viewer.c_str(),
               std::strerror(why));
  return why == ENOENT ? kViewerMissingStatus : kViewerNotExecutableStatus;
}

}  // namespace pcv::app
