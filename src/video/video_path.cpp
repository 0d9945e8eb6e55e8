// What both builds of the video writer share: which file names are videos.
#include <algorithm>
#include <cctype>

#include "pcv/video/video_writer.hpp"

namespace pcv {

std::string lowerExtension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return extension;
}

bool isVideoPath(const std::filesystem::path& path) {
  const std::string extension = lowerExtension(path);
  return extension == ".mp4" || extension == ".mkv" || extension == ".mov" || extension == ".webm";
}

}  // namespace pcv
