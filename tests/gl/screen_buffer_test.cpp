// ScreenBuffer and the host-upload presenter path in a headless context (Mesa's llvmpipe here).
#include <cstring>
#include <filesystem>
#include <vector>

#include "gl_test_support.hpp"
#include "pcv/core/random.hpp"
#include "pcv/gl/frame_presenter.hpp"
#include "pcv/gl/gl_check.hpp"
#include "pcv/gl/screen_buffer.hpp"
#include "pcv/io/png_writer.hpp"

namespace pcv {
namespace {

TEST(ScreenBuffer, Rgba8UploadThroughThePboReadsBackBitExact) {
  PCV_REQUIRE_EGL();
  const Image input = test::randomImage(37, 23, 1);  // odd sizes: no accidental alignment
  ScreenBuffer screen(37, 23, PixelFormat::RGBA8);
  EXPECT_EQ(screen.byteSize(), 37u * 23u * 4u);
  screen.uploadToPixelBuffer(input.pixels.data());
  screen.copyPixelBufferToTexture();
  EXPECT_EQ(test::countDifferentPixels(screen.readTexture(), input), 0u);
}

TEST(ScreenBuffer, EveryFormatUploadsAndConverts) {
  PCV_REQUIRE_EGL();
  const Image input = test::randomImage(13, 7, 2);
  for (PixelFormat format :
       {PixelFormat::RGB8, PixelFormat::RGBA8, PixelFormat::RGB32F, PixelFormat::RGBA32F}) {
    SCOPED_TRACE(pixelFormatName(format));
    ScreenBuffer screen(13, 7, format);
    const size_t channels = format == PixelFormat::RGB8 || format == PixelFormat::RGB32F ? 3 : 4;
    const bool isFloat = format == PixelFormat::RGB32F || format == PixelFormat::RGBA32F;
    std::vector<unsigned char> bytes(screen.byteSize());
    for (size_t p = 0; p < input.pixels.size(); ++p) {
      for (size_t c = 0; c < channels; ++c) {
        const unsigned char value = (input.pixels[p] >> (8 * c)) & 0xffu;
        if (isFloat) {
          const float f = value / 255.0f;
          std::memcpy(&bytes[(p * channels + c) * 4], &f, 4);
        } else {
          bytes[p * channels + c] = value;
        }
      }
    }
    screen.uploadToPixelBuffer(bytes.data());
    screen.copyPixelBufferToTexture();
    const Image output = screen.readTexture();
    for (size_t p = 0; p < input.pixels.size(); ++p) {
      // RGB formats read back with alpha 1.
      const uint32_t expected = channels == 3 ? input.pixels[p] | 0xff000000u : input.pixels[p];
      ASSERT_EQ(output.pixels[p], expected) << "pixel " << p;
    }
  }
}

TEST(ScreenBuffer, BlitScalesToTheTargetFramebuffer) {
  PCV_REQUIRE_EGL();
  Image input(4, 2, packRgba(200, 100, 50));
  ScreenBuffer source(4, 2);
  source.uploadToPixelBuffer(input.pixels.data());
  source.copyPixelBufferToTexture();
  ScreenBuffer target(8, 4);
  source.blitTo(target.framebuffer(), 8, 4);
  const Image output = target.readTexture();
  EXPECT_EQ(output.width, 8);
  EXPECT_EQ(test::countLitPixels(output, packRgba(200, 100, 50)), 0u);  // all pixels that colour
}

TEST(ScreenBuffer, RejectsImpossibleSizes) {
  PCV_REQUIRE_EGL();
  EXPECT_THROW(ScreenBuffer(0, 10), InputError);
  EXPECT_THROW(ScreenBuffer(10, 20000), InputError);
}

TEST(GlCheck, NamesTheCallAndTheError) {
  PCV_REQUIRE_EGL();
  try {
    GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0xdeadbeef));
    FAIL() << "no error";
  } catch (const GlError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("glBindBuffer"), std::string::npos) << message;
    EXPECT_NE(message.find("GL_INVALID_OPERATION"), std::string::npos) << message;
    EXPECT_NE(message.find("screen_buffer_test.cpp:"), std::string::npos) << message;
  }
}

TEST(FramePresenter, CpuBackendUploadsThroughThePboAndMatchesTheHostRender) {
  PCV_REQUIRE_EGL();
  auto renderer = createRenderer("cpu");
  renderer->addSet(CylinderProducer(makeCylinderSet(3), 100000));
  const ViewTransform view = test::makeView(Camera{}, 160, 90);
  RenderSettings settings;
  FramePresenter presenter(*renderer, InteropPath::CudaSurface);
  EXPECT_EQ(presenter.path(), InteropPath::HostUpload);
  EXPECT_NE(presenter.fallbackReason().find("does not use CUDA"), std::string::npos);
  presenter.render(view, settings);
  const Image expected = test::renderToImage(*renderer, view, settings);
  EXPECT_EQ(test::countDifferentPixels(presenter.readImage(), expected), 0u);
  // A new size rebuilds the buffer.
  const ViewTransform smaller = test::makeView(Camera{}, 64, 48);
  presenter.render(smaller, settings);
  EXPECT_EQ(presenter.readImage().width, 64);
  EXPECT_EQ(test::countDifferentPixels(presenter.readImage(),
                                       test::renderToImage(*renderer, smaller, settings)),
            0u);
}

TEST(RenderCliEgl, GlPathWritesTheSamePngAsTheHostPath) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto host = dir / ("pcv_egl_host_" + std::to_string(getpid()) + ".png");
  const auto gl = dir / ("pcv_egl_gl_" + std::to_string(getpid()) + ".png");
  const std::string common =
      test::pcvExecutable().string() + " render --backend auto --points 300000 --size 320x200 ";
  std::string text;
  ASSERT_EQ(test::runCommand(common + "--out " + host.string(), &text), 0) << text;
  const int status = test::runCommand(common + "--gl egl --out " + gl.string(), &text);
  if (status != 0 && text.find("no headless OpenGL context") != std::string::npos) {
    GTEST_SKIP() << text;
  }
  ASSERT_EQ(status, 0) << text;
  EXPECT_EQ(test::countDifferentPixels(readPng(host), readPng(gl)), 0u);
  std::filesystem::remove(host);
  std::filesystem::remove(gl);
}

}  // namespace
}  // namespace pcv
