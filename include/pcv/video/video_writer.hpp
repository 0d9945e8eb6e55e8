/// @brief A video file written frame by frame through FFmpeg's libraries (libavformat,
/// libavcodec, libswscale), for `pcv render --path ... --out movie.mp4`. An optional part of
/// the headless side: built when CMake finds the libraries, otherwise every call says so.
/// No FFmpeg type appears here, so its users need none of its headers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "pcv/core/image.hpp"

namespace pcv {

/// True when this build writes videos; otherwise `reason` says why not (and what to install).
bool videoAvailable(std::string* reason = nullptr);

/// True for the file names written as videos: .mp4, .mkv, .mov and .webm (case-insensitive).
bool isVideoPath(const std::filesystem::path& path);
/// The extension of `path` in lower case (".mp4").
std::string lowerExtension(const std::filesystem::path& path);

struct VideoOptions {
  int width = 0;   ///< pixels; even (4:2:0 chroma halves it)
  int height = 0;  ///< pixels; even
  double framesPerSecond = 30.0;
  /// x264's speed/size trade-off (ultrafast ... veryslow); veryfast keeps 1080p encoding well
  /// above 60 frames/s on a machine of 16 cores at a size close to the slower presets'.
  std::string x264Preset = "veryfast";
  int quality = 20;  ///< x264's CRF (lower: better, larger); other codecs map it to a bitrate
};

/// Encoding times, summed over the frames written so far.
struct VideoTimings {
  uint64_t frames = 0;
  double convertSeconds = 0.0;  ///< RGBA (bottom row first) to the codec's YUV 4:2:0
  double encodeSeconds = 0.0;   ///< the codec and the container, flushing included
};

/// One video file. The container follows the extension (.mp4, .mov and .mkv: H.264 through
/// libx264 when FFmpeg has it, else MPEG-4 part 2; .webm: VP9, else VP8). Move-only; the
/// destructor of a writer that was not finished removes the partial file.
class VideoWriter {
 public:
  /// Opens `path` and the encoder. Throws UnavailableError without FFmpeg's libraries or a
  /// codec for the container, InputError for an odd or empty size or a bad frame rate, Error
  /// naming the path when the file cannot be written.
  VideoWriter(const std::filesystem::path& path, const VideoOptions& options);
  ~VideoWriter();
  VideoWriter(VideoWriter&&) noexcept;
  VideoWriter& operator=(VideoWriter&&) noexcept;
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  /// The codec FFmpeg encodes with ("libx264", "mpeg4", "libvpx-vp9" ...).
  std::string codecName() const;
  /// Appends a frame (the options' size; row 0 at the bottom, as renderers write it).
  /// Throws InputError for another size, Error when encoding or writing fails.
  void write(const Image& frame);
  /// Flushes the encoder and writes the container's trailer; the file is complete after.
  void finish();
  const VideoTimings& timings() const;

 private:
  void open(const std::filesystem::path& path, const VideoOptions& options);
  struct Impl;  // FFmpeg's contexts
  std::unique_ptr<Impl> impl_;
};

}  // namespace pcv
