/// @brief The seam between pcv and its FFmpeg module. Debian's libavcodec and libavutil pull in
/// X11 (through VA-API and VDPAU), which the headless pcv must not need: the encoder lives in a
/// module of its own (libpcv_video_ffmpeg.so) that VideoWriter loads with dlopen only when a
/// video is written, as `--gl egl` loads EGL only when asked.
#pragma once

#include <cstddef>

#include "pcv/video/video_writer.hpp"

namespace pcv::video {

/// An open video file in the module.
class VideoEncoder {
 public:
  virtual ~VideoEncoder() = default;
  virtual std::string codecName() const = 0;
  /// Throws pcv::Error (the module and pcv share the C++ runtime and pcv's error types).
  virtual void write(const Image& frame) = 0;
  virtual void finish() = 0;
  virtual const VideoTimings& timings() const = 0;
};

/// What the module's entry point reports besides the encoder.
enum class OpenStatus : int { Ok = 0, InputError = 1, Unavailable = 2, Failed = 3 };

/// The module's one entry point, looked up by kOpenSymbol: opens `path` with `options`; on
/// failure returns null, the status and the message (cut to `messageSize`).
using OpenFunction = VideoEncoder* (*)(const char* path, const VideoOptions* options,
                                       OpenStatus* status, char* message, size_t messageSize);
constexpr const char* kOpenSymbol = "pcv_video_open";
/// The module's file name, looked for beside the executable and in the library folder.
constexpr const char* kModuleName = "libpcv_video_ffmpeg.so";

}  // namespace pcv::video
