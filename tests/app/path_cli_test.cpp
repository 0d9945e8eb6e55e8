// `pcv render --path` end to end: numbered frames (how many, their names), frames on keys
// pixel-identical to a single `pcv render` at that key's camera (CPU backend), bad paths and
// outputs refused before anything is drawn, and a video decoded back through libavformat
// (frame count, size, codec).
#include <filesystem>
#include <fstream>
#include <cmath>
#include <random>

#include "io_test_util.hpp"
#include "json_report.hpp"
#include "pcv/io/png_writer.hpp"
#include "test_support.hpp"

#if PCV_WITH_VIDEO
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
}
#endif

namespace pcv {
namespace {

class PathCli : public ::testing::Test {
 protected:
  int run(const std::string& arguments, std::string* text) {
    return test::runCommand(test::pcvExecutable().string() + " " + arguments, text);
  }
  std::string file(const std::string& name) const { return dir_.file(name).string(); }
  /// A path file of `text` in the test's folder.
  std::string writePath(const std::string& text) {
    std::ofstream(file("path.json")) << text;
    return file("path.json");
  }
  /// 20 000 random coloured points in a box off the origin, as a text file (framed with near
  /// and far from its size, as a file of the user's would be).
  std::string writeCloud() {
    std::mt19937 random(3);
    std::uniform_real_distribution<double> x(100.0, 104.0), y(200.0, 203.0), z(10.0, 12.0);
    std::ofstream out(file("cloud.xyz"));
    for (int i = 0; i < 20000; ++i) {
      out << x(random) << " " << y(random) << " " << z(random) << " " << (i * 7) % 256 << " "
          << (i * 13) % 256 << " 200\n";
    }
    return file("cloud.xyz");
  }
  test::TempDir dir_;
};

// Keys around the test cloud, with times so that frame 2 of 5 lands on key 1 exactly.
const char* kCloudPath = R"([
  {"eye": [95.5, 201.25, 14], "yaw": 0, "pitch": -20, "time": 0},
  {"eye": [102, 194.5, 15], "yaw": 90, "pitch": -35.5, "time": 1},
  {"eye": [109, 201.5, 13.25], "yaw": 180, "pitch": -15, "time": 2}])";

TEST_F(PathCli, WritesNumberedFramesAlongThePath) {
  const std::string cloud = writeCloud();
  std::string text;
  ASSERT_EQ(run("render --backend cpu --size 160x120 --path " + writePath(kCloudPath) +
                    " --frames 5 --out " + file("f%05d.png") + " --report " + file("r.json") + " " +
                    cloud,
                &text),
            0)
      << text;
  std::vector<Image> frames;
  for (int i = 0; i < 5; ++i) {
    const std::string name = file("f0000" + std::to_string(i) + ".png");
    ASSERT_TRUE(std::filesystem::exists(name)) << name << "\n" << text;
    frames.push_back(readPng(name));
    EXPECT_EQ(frames.back().width, 160);
    EXPECT_EQ(frames.back().height, 120);
    EXPECT_GT(test::countLitPixels(frames.back(), kOpaqueBlack), 500u) << name;
  }
  EXPECT_FALSE(std::filesystem::exists(file("f00005.png")));
  for (int i = 1; i < 5; ++i) {
    EXPECT_GT(test::countDifferentPixels(frames[i - 1], frames[i]), 1000u) << "frame " << i;
  }
  const nlohmann::json report = test::readJsonReport(file("r.json"));
  EXPECT_EQ(report["path"].value("frames", 0), 5) << report;
  EXPECT_EQ(report["path"].value("writer", ""), "PNG") << report;
  EXPECT_GT(report["path"].value("framesPerSecond", 0.0), 0.0) << report;
  EXPECT_EQ(report.value("points", 0), 20000) << report;
}

TEST_F(PathCli, FramesOnKeysEqualASingleRenderAtTheKey) {
  const std::string cloud = writeCloud();
  std::string text;
  ASSERT_EQ(run("render --backend cpu --size 160x120 --path " + writePath(kCloudPath) +
                    " --frames 5 --out " + file("f%d.png") + " " + cloud,
                &text),
            0)
      << text;
  // Frame 0 on key 0, frame 2 on key 1 (time 1 of 0..2), frame 4 on key 2.
  const struct {
    const char* frame;
    const char* camera;
  } cases[] = {{"f0.png", "--eye 95.5,201.25,14 --yaw 0 --pitch -20"},
               {"f2.png", "--eye 102,194.5,15 --yaw 90 --pitch -35.5"},
               {"f4.png", "--eye 109,201.5,13.25 --yaw 180 --pitch -15"}};
  for (const auto& c : cases) {
    ASSERT_EQ(run("render --backend cpu --size 160x120 " + std::string(c.camera) + " --out " +
                      file("single.png") + " " + cloud,
                  &text),
              0)
        << text;
    const Image single = readPng(file("single.png"));
    EXPECT_GT(test::countLitPixels(single, kOpaqueBlack), 500u) << c.frame;
    EXPECT_EQ(test::countDifferentPixels(readPng(file(c.frame)), single), 0u) << c.frame;
  }
  // The cylinders too (the seed's camera conventions, no framing).
  ASSERT_EQ(run("render --backend cpu --points 100000 --size 96x64 --path " +
                    writePath(R"([{"eye": [-3, 0.5, 0.25], "yaw": -10, "pitch": -5},
                                  {"eye": [0, -3, 1], "yaw": 80, "pitch": -20}])") +
                    " --frames 3 --out " + file("c%d.png"),
                &text),
            0)
      << text;
  ASSERT_EQ(run("render --backend cpu --points 100000 --size 96x64 --eye -3,0.5,0.25 --yaw -10 "
                "--pitch -5 --out " +
                    file("c.png"),
                &text),
            0)
      << text;
  EXPECT_EQ(test::countDifferentPixels(readPng(file("c0.png")), readPng(file("c.png"))), 0u);
}

TEST_F(PathCli, BadPathsAndOutputsFailBeforeDrawing) {
  std::string text;
  const std::string good = R"([{"eye": [0, 0, 0], "yaw": 0, "pitch": 0}])";
  // A key with a wrong field, an --out without a frame number, a camera placed twice, a file
  // that is not there: each refused, nothing written.
  EXPECT_NE(
      run("render --backend cpu --points 1000 --size 32x32 --path " +
              writePath(R"([{"eye": [0, 0], "yaw": 0, "pitch": 0}])") + " --out " + file("a%d.png"),
          &text),
      0)
      << text;
  EXPECT_NE(run("render --backend cpu --points 1000 --size 32x32 --path " + writePath(good) +
                    " --out " + file("a.png"),
                &text),
            0)
      << text;
  EXPECT_NE(run("render --backend cpu --points 1000 --size 32x32 --path " + writePath(good) +
                    " --eye 1,2,3 --out " + file("a%d.png"),
                &text),
            0)
      << text;
  EXPECT_NE(run("render --backend cpu --points 1000 --size 32x32 --path " + file("none.json") +
                    " --out " + file("a%d.png"),
                &text),
            0)
      << text;
  EXPECT_FALSE(std::filesystem::exists(file("a0.png")));
  EXPECT_FALSE(std::filesystem::exists(file("a.png")));
}

#if PCV_WITH_VIDEO
/// What a video file holds, decoded through libavformat and libavcodec.
struct DecodedVideo {
  std::string codec;
  int width = 0, height = 0;
  int frames = 0;
  double framesPerSecond = 0.0;
  std::vector<uint8_t> firstLuma;  ///< frame 0's Y plane, top row first, width x height
};

/// BT.709 limited-range luma of a pixel, as the writer converts it.
double lumaOf(uint32_t rgba) {
  return 16.0 +
         (0.2126 * redOf(rgba) + 0.7152 * greenOf(rgba) + 0.0722 * blueOf(rgba)) * 219.0 / 255.0;
}

DecodedVideo decode(const std::string& path) {
  DecodedVideo video;
  AVFormatContext* format = nullptr;
  if (avformat_open_input(&format, path.c_str(), nullptr, nullptr) < 0) return video;
  avformat_find_stream_info(format, nullptr);
  const AVCodec* decoder = nullptr;
  const int index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
  if (index >= 0 && decoder) {
    AVStream* stream = format->streams[index];
    video.codec = avcodec_get_name(stream->codecpar->codec_id);
    video.framesPerSecond = av_q2d(stream->avg_frame_rate);
    AVCodecContext* codec = avcodec_alloc_context3(decoder);
    avcodec_parameters_to_context(codec, stream->codecpar);
    avcodec_open2(codec, decoder, nullptr);
    AVPacket* packet = av_packet_alloc();
    AVFrame* frame = av_frame_alloc();
    const auto drain = [&] {
      while (avcodec_receive_frame(codec, frame) == 0) {
        if (video.frames == 0) {
          for (int y = 0; y < frame->height; ++y) {
            const uint8_t* row = frame->data[0] + y * frame->linesize[0];
            video.firstLuma.insert(video.firstLuma.end(), row, row + frame->width);
          }
        }
        ++video.frames;
        video.width = frame->width;
        video.height = frame->height;
      }
    };
    while (av_read_frame(format, packet) >= 0) {
      if (packet->stream_index == index) avcodec_send_packet(codec, packet);
      av_packet_unref(packet);
      drain();
    }
    avcodec_send_packet(codec, nullptr);  // flush the decoder's delayed frames
    drain();
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&codec);
  }
  avformat_close_input(&format);
  return video;
}

TEST_F(PathCli, WritesAVideoThatDecodesBack) {
  const std::string path = writePath(R"([{"eye": [-3, 0, 0.5], "yaw": 0, "pitch": -10},
                                         {"eye": [0, -3, 0.8], "yaw": 90, "pitch": -15},
                                         {"eye": [3, 0, 0.5], "yaw": 180, "pitch": -10}])");
  for (const char* name : {"movie.mp4", "movie.mkv"}) {
    std::string text;
    ASSERT_EQ(run("render --backend cpu --points 100000 --size 128x96 --path " + path +
                      " --frames 37 --fps 24 --out " + file(name) + " --report " + file("r.json"),
                  &text),
              0)
        << text;
    const DecodedVideo video = decode(file(name));
    EXPECT_EQ(video.frames, 37) << name;
    EXPECT_EQ(video.width, 128) << name;
    EXPECT_EQ(video.height, 96) << name;
    EXPECT_NEAR(video.framesPerSecond, 24.0, 1e-6) << name;
    // H.264 where FFmpeg has libx264, else MPEG-4 part 2: whichever the report names.
    const nlohmann::json report = test::readJsonReport(file("r.json"));
    const std::string writer = report["path"].value("writer", "");
    EXPECT_EQ(video.codec, writer == "libx264" ? "h264" : "mpeg4") << name << report;
  }
}

TEST_F(PathCli, TheVideoShowsTheFramesThePngsShow) {
  // The first frame decoded against the first PNG frame: the right way up and no seams between
  // the bands converted in parallel (luma within the codec's loss, row by row).
  const std::string path = writePath(R"([{"eye": [-3, 0.5, 0.25], "yaw": -10, "pitch": -5},
                                         {"eye": [0, -3, 1], "yaw": 80, "pitch": -20}])");
  std::string text;
  for (const char* out : {"v.mp4", "v%d.png"}) {
    ASSERT_EQ(run("render --backend cpu --points 300000 --size 256x192 --path " + path +
                      " --frames 3 --out " + file(out),
                  &text),
              0)
        << text;
  }
  const DecodedVideo video = decode(file("v.mp4"));
  const Image png = readPng(file("v0.png"));
  ASSERT_EQ(video.firstLuma.size(), size_t(png.width) * png.height);
  double worstRow = 0.0;
  for (int y = 0; y < png.height; ++y) {
    double difference = 0.0;
    for (int x = 0; x < png.width; ++x) {
      // Image rows run bottom-up, the decoded plane top-down.
      difference += std::abs(lumaOf(png.at(x, png.height - 1 - y)) -
                             video.firstLuma[size_t(y) * png.width + x]);
    }
    worstRow = std::max(worstRow, difference / png.width);
  }
  EXPECT_LT(worstRow, 8.0);  // 3.8 with x264 here; a seam or a misplaced band is ~40
  // The check can fail: the image upside down is far off.
  double flipped = 0.0;
  for (int y = 0; y < png.height; ++y) {
    for (int x = 0; x < png.width; ++x) {
      flipped += std::abs(lumaOf(png.at(x, y)) - video.firstLuma[size_t(y) * png.width + x]);
    }
  }
  EXPECT_GT(flipped / (double(png.width) * png.height), 20.0);  // 42 here
}

TEST_F(PathCli, OddVideoSizeIsRefused) {
  std::string text;
  EXPECT_NE(run("render --backend cpu --points 1000 --size 33x32 --path " +
                    writePath(R"([{"eye": [0, 0, 0], "yaw": 0, "pitch": 0}])") + " --out " +
                    file("odd.mp4"),
                &text),
            0)
      << text;
  EXPECT_FALSE(std::filesystem::exists(file("odd.mp4")));
}
#else
TEST_F(PathCli, VideoWithoutFFmpegIsAClearError) {
  std::string text;
  EXPECT_NE(run("render --backend cpu --points 1000 --size 32x32 --path " +
                    writePath(R"([{"eye": [0, 0, 0], "yaw": 0, "pitch": 0}])") + " --out " +
                    file("m.mp4"),
                &text),
            0)
      << text;
  EXPECT_FALSE(std::filesystem::exists(file("m.mp4")));
}
#endif

}  // namespace
}  // namespace pcv
