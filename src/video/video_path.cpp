// What both builds of the video writer share: which file names are videos.
#include <algorithm>
#include <cctype>

#include "pcv/core/text_case.hpp"
#include "pcv/video/video_writer.hpp"

namespace pcv {

std::string lowerExtension(const std::filesystem::path& path) {
  return lowerCase(path.extension().string());
}

bool isVideoPath(const std::filesystem::path& path) {
  const std::string extension = lowerExtension(path);
  return extension == ".mp4" || extension == ".mkv" || extension == ".mov" || extension == ".webm";
}

}  // namespace pcv
