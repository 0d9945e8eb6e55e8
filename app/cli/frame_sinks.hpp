/// @brief Where `pcv render --path` puts its frames: numbered PNG or JPEG files (frame%05d.png)
/// or a video file. Both take finished images on worker threads (frame_pipeline.hpp), so the
/// renderer draws the next frame while the last one is compressed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "pcv/core/image.hpp"
#include "pcv/video/video_writer.hpp"

namespace pcv::app {

class FrameSink {
 public:
  virtual ~FrameSink() = default;
  /// Threads that may call write() at once: 1 keeps the frames in order (a video).
  virtual int workers() const = 0;
  /// Writes frame `index`; called on a worker thread. Throws pcv::Error.
  virtual void write(uint64_t index, const Image& frame) = 0;
  /// After the last write: completes the output (a video's trailer).
  virtual void finish() = 0;
  /// Seconds write() spent converting colours (a video's RGBA to YUV), all frames together.
  virtual double convertSeconds() const { return 0.0; }
  /// What writes the frames, for messages: "PNG", "libx264" ...
  virtual std::string what() const = 0;
};

/// `pattern` with its one integer conversion (%d, %5d or %05d; %% is a percent sign) replaced
/// by `frame`. Throws InputError when the pattern has none, more than one, or another.
std::string framePath(const std::string& pattern, uint64_t frame);

/// The sink `out` names: a video by its extension (.mp4, .mkv, .mov, .webm), written with
/// `video`'s settings, else PNG or JPEG files by a pattern with one %d. Checks the pattern, the
/// extension and the folder, and opens the video now, so a bad --out fails before the scene is
/// loaded; throws InputError or UnavailableError (no FFmpeg, no libturbojpeg) naming it.
std::unique_ptr<FrameSink> openFrameSink(const std::string& out, const VideoOptions& video);

}  // namespace pcv::app
