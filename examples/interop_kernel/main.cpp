// A program outside pcv that does its own real-time software rendering on pcv's GL/CUDA pieces,
// as the seed invites: a screen buffer (pcv::ScreenBuffer) whose pixel buffer is mapped into CUDA
// (pcv::GlBufferInCuda), filled by this program's kernel (pattern.cu), then copied to the texture
// and blitted. Every frame: map -> kernel -> unmap -> blit.
//   interop_kernel [--frames N]                            a window (pcv::GlfwWindow)
//   interop_kernel --headless --frames N --out image.png   no display (pcv::EglContext)
// Needs an NVIDIA GPU whose driver runs the GL context (CUDA registers only its own GL buffers).
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "pattern.hpp"
#include "pcv/core/error.hpp"
#include "pcv/cuda/cuda_check.hpp"
#include "pcv/cuda/staged_copy.hpp"
#include "pcv/gl/egl_context.hpp"
#include "pcv/gl/gl_buffer_in_cuda.hpp"
#include "pcv/gl/screen_buffer.hpp"
#include "pcv/io/png_writer.hpp"
#if INTEROP_KERNEL_WITH_WINDOW
#include "pcv/gl/glfw_window.hpp"
#define GLFW_INCLUDE_NONE  // epoxy provides the GL declarations
#include <GLFW/glfw3.h>
#endif

namespace {

struct Options {
  bool headless = false;
  std::optional<long> frames;  // window: until closed when absent; headless: 1
  std::string out;             // headless: where the last frame goes, as PNG
  int widthPx = 640;
  int heightPx = 360;
};

constexpr const char* kUsage =
    "usage: interop_kernel [--frames N]\n"
    "       interop_kernel --headless --frames N --out IMAGE.png\n";

/// Parses the command line; nullopt (after saying why) when it is not understood.
std::optional<Options> parseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (arg == "--headless") {
      options.headless = true;
    } else if (arg == "--frames" && hasValue) {
      char* end = nullptr;
      const long frames = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || frames < 1) {
        std::fprintf(stderr, "interop_kernel: --frames needs a whole number >= 1, not '%s'\n",
                     argv[i]);
        return std::nullopt;
      }
      options.frames = frames;
    } else if (arg == "--out" && hasValue) {
      options.out = argv[++i];
    } else {
      std::fprintf(stderr, "interop_kernel: unknown or incomplete argument '%s'\n%s", arg.c_str(),
                   kUsage);
      return std::nullopt;
    }
  }
  if (options.headless && options.out.empty()) {
    std::fprintf(stderr, "interop_kernel: --headless needs --out IMAGE.png\n%s", kUsage);
    return std::nullopt;
  }
  if (!options.headless && !options.out.empty()) {
    std::fprintf(stderr, "interop_kernel: --out is for --headless runs\n%s", kUsage);
    return std::nullopt;
  }
  return options;
}

/// The per-frame work: the kernel writes the screen buffer's pixel buffer through CUDA, then GL
/// copies it to the texture. GL touches the buffer only while CUDA does not hold it.
class PatternRenderer {
 public:
  explicit PatternRenderer(pcv::ScreenBuffer& screen)
      : screen_(screen),
        // Write-discard: the kernel overwrites every pixel, so CUDA need not keep GL's contents.
        pixels_(screen.pixelBuffer(), cudaGraphicsRegisterFlagsWriteDiscard) {}

  void render(uint32_t tick) {
    const auto count = size_t(screen_.width()) * size_t(screen_.height());
    pixels_.map(stream_.get());
    const pcv::DeviceView<uint32_t> view = pixels_.view<uint32_t>(count);
    launchPattern(view.data, screen_.width(), screen_.height(), tick, stream_.get());
    CUDA_CHECK(cudaGetLastError());
    pixels_.unmap(stream_.get());
    screen_.copyPixelBufferToTexture();
  }

 private:
  pcv::ScreenBuffer& screen_;
  pcv::CudaStream stream_;
  pcv::GlBufferInCuda pixels_;
};

/// Frames 0..N-1 with tick = frame index, each blitted to a framebuffer standing in for a
/// window; the last one is written to the PNG.
int runHeadless(const Options& options) {
  pcv::EglContext context;
  std::printf("interop_kernel: %s\n", context.description().c_str());
  pcv::ScreenBuffer screen(options.widthPx, options.heightPx, pcv::PixelFormat::RGBA8);
  pcv::ScreenBuffer canvas(options.widthPx, options.heightPx, pcv::PixelFormat::RGBA8);
  PatternRenderer renderer(screen);
  const long frames = options.frames.value_or(1);
  for (long frame = 0; frame < frames; ++frame) {
    renderer.render(uint32_t(frame));
    screen.blitTo(canvas.framebuffer(), canvas.width(), canvas.height());
  }
  pcv::writePng(options.out,
                pcv::readFramebuffer(canvas.framebuffer(), canvas.width(), canvas.height()));
  std::printf("interop_kernel: %ld frames of %dx%d, the last written to %s\n", frames,
              options.widthPx, options.heightPx, options.out.c_str());
  return 0;
}

#if INTEROP_KERNEL_WITH_WINDOW
/// Until the window closes (or N frames): the pattern moves at 60 ticks a second whatever the
/// frame rate (vsync is off), scaled to the window's framebuffer.
int runWindow(const Options& options) {
  pcv::GlfwWindow window("interop_kernel", 2 * options.widthPx, 2 * options.heightPx);
  std::printf("interop_kernel: %s\n", window.description().c_str());
  pcv::ScreenBuffer screen(options.widthPx, options.heightPx, pcv::PixelFormat::RGBA8);
  PatternRenderer renderer(screen);
  for (long frame = 0; !glfwWindowShouldClose(window.handle()); ++frame) {
    if (options.frames && frame >= *options.frames) break;
    renderer.render(uint32_t(glfwGetTime() * 60.0));
    int widthPx = 0, heightPx = 0;
    glfwGetFramebufferSize(window.handle(), &widthPx, &heightPx);
    screen.blitTo(0, widthPx, heightPx);
    glfwSwapBuffers(window.handle());
    glfwPollEvents();
  }
  return 0;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Options> options = parseOptions(argc, argv);
  if (!options) return 2;
  try {
    if (options->headless) return runHeadless(*options);
#if INTEROP_KERNEL_WITH_WINDOW
    return runWindow(*options);
#else
    std::fprintf(stderr, "interop_kernel: pcv was installed without its window; use --headless\n");
    return 2;
#endif
  } catch (const pcv::Error& error) {
    std::fprintf(stderr, "interop_kernel: %s\n", error.what());
    return 1;
  }
}
