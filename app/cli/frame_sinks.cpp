#include "frame_sinks.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/core/partial_file.hpp"
#include "pcv/io/image_file.hpp"
#include "pcv/video/video_writer.hpp"

namespace pcv::app {
namespace {

/// The one integer conversion of a frame pattern: where it starts and ends, its width and fill.
struct Conversion {
  size_t begin = 0, end = 0;
  int width = 0;
  bool zeroFill = false;
};

/// Finds the pattern's conversion; `%%` is a literal percent sign. Parsed here rather than
/// handed to printf, so a pattern is never a format string.
Conversion findConversion(const std::string& pattern) {
  const auto bad = [&](const std::string& why) {
    return InputError("--out '" + pattern + "': " + why +
                      "; expected a video (.mp4, .mkv, .mov, .webm) or a PNG file pattern with "
                      "one frame number, such as frame%05d.png");
  };
  std::optional<Conversion> found;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') continue;
    if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
      ++i;
      continue;
    }
    Conversion c{.begin = i};
    size_t j = i + 1;
    if (j < pattern.size() && pattern[j] == '0') {
      c.zeroFill = true;
      ++j;
    }
    while (j < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[j]))) {
      c.width = c.width * 10 + (pattern[j] - '0');
      if (c.width > 20) throw bad("a frame number wider than 20 digits");
      ++j;
    }
    if (j >= pattern.size() || pattern[j] != 'd') throw bad("only %d, %Nd or %0Nd may follow %");
    if (found) throw bad("more than one frame number");
    c.end = j + 1;
    found = c;
    i = j;
  }
  if (!found) throw bad("no frame number (%d) in it");
  return *found;
}

std::string literal(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '%' && i + 1 < text.size() && text[i + 1] == '%') ++i;
  }
  return out;
}

class ImageSink final : public FrameSink {
 public:
  ImageSink(std::string pattern, ImageFileKind kind) : pattern_(std::move(pattern)), kind_(kind) {}
  // PNG compression takes tens of milliseconds for a 1080p frame: all cores compress.
  int workers() const override { return int(std::max(1u, workerCount())); }
  void write(uint64_t index, const Image& frame) override {
    writeImageFile(framePath(pattern_, index), frame, kind_);
  }
  void finish() override {}
  std::string what() const override { return kind_ == ImageFileKind::Jpeg ? "JPEG" : "PNG"; }

 private:
  std::string pattern_;
  ImageFileKind kind_;
};

class VideoSink final : public FrameSink {
 public:
  VideoSink(const std::string& path, const VideoOptions& options) : writer_(path, options) {}
  // Frames go into the encoder in order; the encoder uses every core itself.
  int workers() const override { return 1; }
  void write(uint64_t, const Image& frame) override { writer_.write(frame); }
  void finish() override { writer_.finish(); }
  double convertSeconds() const override { return writer_.timings().convertSeconds; }
  std::string what() const override { return writer_.codecName(); }

 private:
  VideoWriter writer_;
};

}  // namespace

std::string framePath(const std::string& pattern, uint64_t frame) {
  const Conversion c = findConversion(pattern);
  std::string number = std::to_string(frame);
  if (number.size() < size_t(c.width)) {
    number.insert(0, size_t(c.width) - number.size(), c.zeroFill ? '0' : ' ');
  }
  return literal(pattern.substr(0, c.begin)) + number + literal(pattern.substr(c.end));
}

std::unique_ptr<FrameSink> openFrameSink(const std::string& out, const VideoOptions& video) {
  if (isVideoPath(out)) {
    checkInPlaceOutput(out);
    return std::make_unique<VideoSink>(out, video);
  }
  findConversion(out);  // throws for a pattern without its one frame number
  // The first frame's name stands for all: same folder, same extension.
  const std::string first = framePath(out, 0);
  const ImageFileKind kind = imageFileKindFor(first);
  checkInPlaceOutput(first);
  return std::make_unique<ImageSink>(out, kind);
}

}  // namespace pcv::app
