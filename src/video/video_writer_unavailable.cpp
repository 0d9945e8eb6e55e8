// The video writer of a build without FFmpeg's libraries: every use says what to install.
#include "pcv/core/error.hpp"
#include "pcv/video/video_writer.hpp"

namespace pcv {
namespace {

constexpr const char* kWhy =
    "pcv was built without FFmpeg's libraries, so it writes no video (Debian: apt-get install "
    "libavcodec-dev libavformat-dev libswscale-dev libavutil-dev, then configure again); "
    "write frames instead: --out frame%05d.png";

}  // namespace

bool videoAvailable(std::string* reason) {
  if (reason) *reason = kWhy;
  return false;
}

struct VideoWriter::Impl {
  VideoTimings timings;
};

VideoWriter::VideoWriter(const std::filesystem::path&, const VideoOptions&) {
  throw UnavailableError(kWhy);
}
VideoWriter::~VideoWriter() = default;
VideoWriter::VideoWriter(VideoWriter&&) noexcept = default;
VideoWriter& VideoWriter::operator=(VideoWriter&&) noexcept = default;
std::string VideoWriter::codecName() const { return ""; }
void VideoWriter::write(const Image&) { throw UnavailableError(kWhy); }
void VideoWriter::finish() {}
const VideoTimings& VideoWriter::timings() const { return impl_->timings; }
void VideoWriter::open(const std::filesystem::path&, const VideoOptions&) {}

}  // namespace pcv
