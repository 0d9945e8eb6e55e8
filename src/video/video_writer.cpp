// VideoWriter over the FFmpeg module, loaded with dlopen when the first video is written
// (video_encoder.hpp says why), or the clear error of a build without it.
#include "pcv/video/video_writer.hpp"

#include <dlfcn.h>

#include <mutex>
#include <vector>

#include "pcv/core/error.hpp"
#include "video_encoder.hpp"

namespace pcv {
namespace {

constexpr const char* kInstall =
    "Debian: apt-get install libavcodec-dev libavformat-dev libswscale-dev libavutil-dev, then "
    "configure and build pcv again";

/// The module's entry point, loaded once; null with the reason when it cannot be.
struct Module {
  video::OpenFunction open = nullptr;
  std::string whyNot;
};

/// Where the module may be: $PCV_VIDEO_MODULE, beside the executable (the build tree), and the
/// installed library folder relative to it.
std::vector<std::filesystem::path> modulePlaces() {
  std::vector<std::filesystem::path> places;
  if (const char* given = std::getenv("PCV_VIDEO_MODULE"); given && *given)
    places.emplace_back(given);
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    places.push_back(exe.parent_path() / video::kModuleName);
    places.push_back(exe.parent_path() / ".." / PCV_VIDEO_MODULE_LIBDIR / "pcv" /
                     video::kModuleName);
  }
  return places;
}

const Module& module() {
  static const Module loaded = [] {
    Module m;
#if PCV_VIDEO_MODULE_BUILT
    std::string tried;
    for (const std::filesystem::path& place : modulePlaces()) {
      if (!std::filesystem::exists(place)) {
        tried += (tried.empty() ? "" : ", ") + place.lexically_normal().string();
        continue;
      }
      // Never closed: the module lives as long as the process, as the libraries it loads do.
      void* handle = dlopen(place.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        m.whyNot = "cannot load the video module " + place.string() + ": " + dlerror() +
                   " (FFmpeg's libraries missing?)";
        return m;
      }
      m.open = reinterpret_cast<video::OpenFunction>(dlsym(handle, video::kOpenSymbol));
      if (!m.open) m.whyNot = place.string() + " is not pcv's video module";
      return m;
    }
    m.whyNot = std::string("pcv's video module ") + video::kModuleName + " was not found (tried " +
               tried + ")";
#else
    m.whyNot = std::string("pcv was built without FFmpeg's libraries, so it writes no video (") +
               kInstall + "); write frames instead: --out frame%05d.png";
#endif
    return m;
  }();
  return loaded;
}

}  // namespace

bool videoAvailable(std::string* reason) {
  const Module& m = module();
  if (reason) *reason = m.whyNot;
  return m.open != nullptr;
}

struct VideoWriter::Impl {
  std::unique_ptr<video::VideoEncoder> encoder;
};

VideoWriter::VideoWriter(const std::filesystem::path& path, const VideoOptions& options)
    : impl_(std::make_unique<Impl>()) {
  open(path, options);
}

void VideoWriter::open(const std::filesystem::path& path, const VideoOptions& options) {
  if (!isVideoPath(path)) {
    throw InputError("video '" + path.string() +
                     "': expected the extension .mp4, .mkv, .mov or .webm");
  }
  const Module& m = module();
  if (!m.open) throw UnavailableError("video '" + path.string() + "': " + m.whyNot);
  video::OpenStatus status = video::OpenStatus::Ok;
  char message[1024] = {};
  impl_->encoder.reset(m.open(path.c_str(), &options, &status, message, sizeof message));
  if (impl_->encoder) return;
  switch (status) {
    case video::OpenStatus::InputError:
      throw InputError(message);
    case video::OpenStatus::Unavailable:
      throw UnavailableError(message);
    default:
      throw Error(message);
  }
}

VideoWriter::~VideoWriter() = default;
VideoWriter::VideoWriter(VideoWriter&&) noexcept = default;
VideoWriter& VideoWriter::operator=(VideoWriter&&) noexcept = default;

std::string VideoWriter::codecName() const {
  return impl_->encoder->codecName();
}
void VideoWriter::write(const Image& frame) {
  impl_->encoder->write(frame);
}
void VideoWriter::finish() {
  impl_->encoder->finish();
}
const VideoTimings& VideoWriter::timings() const {
  return impl_->encoder->timings();
}

}  // namespace pcv
