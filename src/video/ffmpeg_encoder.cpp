// The video encoder over FFmpeg's libraries: the module libpcv_video_ffmpeg.so, which
// VideoWriter loads when a video is written (video_encoder.hpp says why).
#include "video_encoder.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/core/stopwatch.hpp"

namespace pcv {
namespace {

using Clock = SteadyClock;

std::string averror(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

/// The encoders to try for a container, best first.
std::vector<const char*> encodersFor(const std::string& extension) {
  if (extension == ".webm") return {"libvpx-vp9", "libvpx"};
  return {"libx264", "mpeg4"};
}

// RAII for FFmpeg's contexts: each freed by its own function.
struct FormatContextFree {
  void operator()(AVFormatContext* format) const {
    if (format && !(format->oformat->flags & AVFMT_NOFILE)) avio_closep(&format->pb);
    avformat_free_context(format);
  }
};
struct CodecContextFree {
  void operator()(AVCodecContext* codec) const { avcodec_free_context(&codec); }
};
struct FrameFree {
  void operator()(AVFrame* frame) const { av_frame_free(&frame); }
};
struct PacketFree {
  void operator()(AVPacket* packet) const { av_packet_free(&packet); }
};
struct ScaleFree {
  void operator()(SwsContext* scale) const { sws_freeContext(scale); }
};

}  // namespace

struct Impl {
  std::filesystem::path path;
  VideoOptions options;
  std::unique_ptr<AVFormatContext, FormatContextFree> format;
  std::unique_ptr<AVCodecContext, CodecContextFree> codec;
  std::unique_ptr<AVFrame, FrameFree> frame;
  std::unique_ptr<AVPacket, PacketFree> packet;
  /// One conversion per band of rows: bands convert on all cores at once (a 1080p frame takes
  /// several milliseconds on one). Each band is an image of its own to libswscale.
  std::vector<std::unique_ptr<SwsContext, ScaleFree>> bands;
  std::vector<int> bandFirstRow;  ///< top row of each band (even: 4:2:0 halves rows), then height
  AVStream* stream = nullptr;     // owned by `format`
  int64_t nextPts = 0;
  bool finished = false;
  bool fileCreated = false;
  VideoTimings timings;

  void fail(const std::string& what, int code) const {
    throw Error("video '" + path.string() + "': " + what + ": " + averror(code));
  }

  /// Sends `input` (null: flush) to the encoder and writes every packet it gives back.
  void encode(const AVFrame* input) {
    int status = avcodec_send_frame(codec.get(), input);
    if (status < 0) fail("encoding a frame", status);
    while (true) {
      status = avcodec_receive_packet(codec.get(), packet.get());
      if (status == AVERROR(EAGAIN) || status == AVERROR_EOF) return;
      if (status < 0) fail("encoding a frame", status);
      av_packet_rescale_ts(packet.get(), codec->time_base, stream->time_base);
      packet->stream_index = stream->index;
      status = av_interleaved_write_frame(format.get(), packet.get());  // takes the packet
      if (status < 0) fail("writing a packet", status);
    }
  }
};

class FfmpegEncoder final : public video::VideoEncoder {
 public:
  FfmpegEncoder(const std::filesystem::path& path, const VideoOptions& options)
      : impl_(std::make_unique<Impl>()) {
    try {
      open(path, options);
    } catch (...) {
      // Nothing half-made stays behind: the contexts go, and the file if it was created.
      const bool created = impl_->fileCreated;
      impl_.reset();
      std::error_code error;
      if (created) std::filesystem::remove(path, error);
      throw;
    }
  }
  ~FfmpegEncoder() override;
  std::string codecName() const override { return impl_->codec->codec->name; }
  void write(const Image& frame) override;
  void finish() override;
  const VideoTimings& timings() const override { return impl_->timings; }

 private:
  void open(const std::filesystem::path& path, const VideoOptions& options);
  std::unique_ptr<Impl> impl_;
};

void FfmpegEncoder::open(const std::filesystem::path& path, const VideoOptions& options) {
  Impl& v = *impl_;
  // FFmpeg's encoders report their settings and statistics on stderr; pcv says what matters
  // itself, and errors still come through.
  av_log_set_level(AV_LOG_ERROR);
  v.path = path;
  v.options = options;
  if (options.width <= 0 || options.height <= 0 || options.width % 2 || options.height % 2) {
    throw InputError("video '" + path.string() +
                     "': the size must be even in both directions "
                     "(YUV 4:2:0 halves it for colour), got " +
                     std::to_string(options.width) + "x" + std::to_string(options.height));
  }
  if (!(options.framesPerSecond > 0.0 && options.framesPerSecond <= 1000.0)) {
    throw InputError("video '" + path.string() + "': frames per second must be in (0, 1000], got " +
                     std::to_string(options.framesPerSecond));
  }
  const std::string extension = lowerExtension(path);
  if (!isVideoPath(path)) {
    throw InputError("video '" + path.string() +
                     "': expected the extension .mp4, .mkv, .mov or .webm");
  }
  AVFormatContext* format = nullptr;
  int status = avformat_alloc_output_context2(&format, nullptr, nullptr, path.c_str());
  if (status < 0 || !format) v.fail("no container for the extension " + extension, status);
  v.format.reset(format);

  const AVCodec* encoder = nullptr;
  for (const char* name : encodersFor(extension)) {
    encoder = avcodec_find_encoder_by_name(name);
    if (encoder) break;
  }
  if (!encoder) {
    throw UnavailableError("video '" + path.string() + "': this FFmpeg has no encoder for " +
                           extension + " (tried " + encodersFor(extension).front() + " and " +
                           encodersFor(extension).back() + ")");
  }
  v.stream = avformat_new_stream(format, nullptr);
  if (!v.stream) throw OutOfMemoryError("video: cannot add a stream");
  v.codec.reset(avcodec_alloc_context3(encoder));
  if (!v.codec) throw OutOfMemoryError("video: cannot allocate the encoder");
  AVCodecContext& c = *v.codec;
  c.width = options.width;
  c.height = options.height;
  c.pix_fmt = AV_PIX_FMT_YUV420P;
  c.framerate = av_d2q(options.framesPerSecond, 100000);
  c.time_base = av_inv_q(c.framerate);
  c.gop_size = std::max(1, int(std::lround(options.framesPerSecond)) * 2);  // a key frame each 2 s
  c.thread_count = 0;                                                       // as many as cores
  // The colours of an HD picture: BT.709, limited range, which players assume for H.264.
  c.colorspace = AVCOL_SPC_BT709;
  c.color_primaries = AVCOL_PRI_BT709;
  c.color_trc = AVCOL_TRC_BT709;
  c.color_range = AVCOL_RANGE_MPEG;
  if (format->oformat->flags & AVFMT_GLOBALHEADER) c.flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  AVDictionary* settings = nullptr;
  const std::string name = encoder->name;
  if (name == "libx264") {
    av_dict_set(&settings, "preset", options.x264Preset.c_str(), 0);
    av_dict_set(&settings, "crf", std::to_string(options.quality).c_str(), 0);
  } else if (name == "mpeg4") {
    // A fixed quantizer (2 best .. 31): CRF 20 maps to about 4.
    c.flags |= AV_CODEC_FLAG_QSCALE;
    c.global_quality = FF_QP2LAMBDA * std::clamp(options.quality / 5, 2, 31);
  } else {  // VP9 / VP8: constant quality, as fast as the encoder goes
    c.bit_rate = 0;
    av_dict_set(&settings, "crf", std::to_string(std::clamp(options.quality + 12, 4, 63)).c_str(),
                0);
    av_dict_set(&settings, "deadline", "realtime", 0);
    av_dict_set(&settings, "cpu-used", "8", 0);
    av_dict_set(&settings, "row-mt", "1", 0);
  }
  status = avcodec_open2(&c, encoder, &settings);
  av_dict_free(&settings);
  if (status < 0) v.fail("opening the " + name + " encoder", status);
  status = avcodec_parameters_from_context(v.stream->codecpar, &c);
  if (status < 0) v.fail("setting the stream's parameters", status);
  v.stream->time_base = c.time_base;
  v.stream->avg_frame_rate = c.framerate;

  if (!(format->oformat->flags & AVFMT_NOFILE)) {
    status = avio_open(&format->pb, path.c_str(), AVIO_FLAG_WRITE);
    if (status < 0) v.fail("cannot open the file for writing", status);
    v.fileCreated = true;
  }
  status = avformat_write_header(format, nullptr);
  if (status < 0) v.fail("writing the header", status);

  v.frame.reset(av_frame_alloc());
  v.packet.reset(av_packet_alloc());
  if (!v.frame || !v.packet) throw OutOfMemoryError("video: cannot allocate a frame");
  v.frame->format = c.pix_fmt;
  v.frame->width = c.width;
  v.frame->height = c.height;
  status = av_frame_get_buffer(v.frame.get(), 0);
  if (status < 0) v.fail("allocating a frame", status);
  // Bands of at least 64 rows, as many as there are cores, up to 16.
  const int bandCount = std::clamp(c.height / 64, 1, std::clamp(int(workerCount()), 1, 16));
  for (int band = 0; band <= bandCount; ++band) {
    v.bandFirstRow.push_back(band == bandCount ? c.height : (c.height * band / bandCount) & ~1);
  }
  for (int band = 0; band < bandCount; ++band) {
    const int rows = v.bandFirstRow[band + 1] - v.bandFirstRow[band];
    SwsContext* scale = sws_getContext(c.width, rows, AV_PIX_FMT_RGBA, c.width, rows,
                                       AV_PIX_FMT_YUV420P, SWS_BILINEAR, nullptr, nullptr, nullptr);
    if (!scale) throw Error("video: no RGBA to YUV 4:2:0 conversion in this libswscale");
    v.bands.emplace_back(scale);
    // Full-range RGB in, BT.709 limited-range YUV out, as the stream says.
    sws_setColorspaceDetails(scale, sws_getCoefficients(SWS_CS_ITU709), 1,
                             sws_getCoefficients(SWS_CS_ITU709), 0, 0, 1 << 16, 1 << 16);
  }
}

FfmpegEncoder::~FfmpegEncoder() {
  if (!impl_ || impl_->finished) return;
  // An unfinished file is not a video: remove it rather than leave a broken one.
  const std::filesystem::path path = impl_->path;
  impl_.reset();
  std::error_code error;
  std::filesystem::remove(path, error);
}

void FfmpegEncoder::write(const Image& image) {
  Impl& v = *impl_;
  if (v.finished) throw Error("video '" + v.path.string() + "': written after it was finished");
  if (image.width != v.options.width || image.height != v.options.height ||
      image.pixels.size() != size_t(image.width) * image.height) {
    throw InputError("video '" + v.path.string() + "': a frame of " + std::to_string(image.width) +
                     "x" + std::to_string(image.height) + ", expected " +
                     std::to_string(v.options.width) + "x" + std::to_string(v.options.height));
  }
  const Clock::time_point start = Clock::now();
  int status = av_frame_make_writable(v.frame.get());
  if (status < 0) v.fail("preparing a frame", status);
  // Row 0 of the image is the bottom one: each band starts at its top row and steps backwards.
  const int stride = image.width * 4;
  const auto* pixels = reinterpret_cast<const uint8_t*>(image.pixels.data());
  AVFrame& yuv = *v.frame;
  parallelFor(
      v.bands.size(),
      [&](uint64_t begin, uint64_t end) {
        for (uint64_t band = begin; band < end; ++band) {
          const int top = v.bandFirstRow[band], rows = v.bandFirstRow[band + 1] - top;
          const uint8_t* source[1] = {pixels + size_t(image.height - 1 - top) * stride};
          const int sourceStride[1] = {-stride};
          uint8_t* target[3] = {yuv.data[0] + size_t(top) * yuv.linesize[0],
                                yuv.data[1] + size_t(top / 2) * yuv.linesize[1],
                                yuv.data[2] + size_t(top / 2) * yuv.linesize[2]};
          sws_scale(v.bands[band].get(), source, sourceStride, 0, rows, target, yuv.linesize);
        }
      },
      1);
  v.frame->pts = v.nextPts++;
  const Clock::time_point converted = Clock::now();
  v.timings.convertSeconds += std::chrono::duration<double>(converted - start).count();
  v.encode(v.frame.get());
  v.timings.encodeSeconds += secondsSince(converted);
  ++v.timings.frames;
}

void FfmpegEncoder::finish() {
  Impl& v = *impl_;
  if (v.finished) return;
  const Clock::time_point start = Clock::now();
  v.encode(nullptr);
  const int status = av_write_trailer(v.format.get());
  if (status < 0) v.fail("writing the trailer", status);
  if (!(v.format->oformat->flags & AVFMT_NOFILE)) {
    const int closed = avio_closep(&v.format->pb);
    if (closed < 0) v.fail("closing the file", closed);
  }
  v.finished = true;
  v.timings.encodeSeconds += secondsSince(start);
}

}  // namespace pcv

extern "C" __attribute__((visibility("default"))) pcv::video::VideoEncoder* pcv_video_open(
    const char* path, const pcv::VideoOptions* options, pcv::video::OpenStatus* status,
    char* message, size_t messageSize) {
  using pcv::video::OpenStatus;
  const auto fail = [&](OpenStatus kind, const char* what) -> pcv::video::VideoEncoder* {
    *status = kind;
    std::snprintf(message, messageSize, "%s", what);
    return nullptr;
  };
  try {
    *status = OpenStatus::Ok;
    return new pcv::FfmpegEncoder(path, *options);
  } catch (const pcv::InputError& error) {
    return fail(OpenStatus::InputError, error.what());
  } catch (const pcv::UnavailableError& error) {
    return fail(OpenStatus::Unavailable, error.what());
  } catch (const std::exception& error) {
    return fail(OpenStatus::Failed, error.what());
  }
}
