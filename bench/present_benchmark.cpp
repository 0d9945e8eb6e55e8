// pcv_present_benchmark: the viewer's frame on any backend, through the path the viewer takes
// to get it into GL (FramePresenter: CUDA surface or PBO, Vulkan memory GL imported, or the
// host), in a headless EGL context. Per frame, serialized (each ends in glFinish): the whole
// frame from the presenter's render to the blit's end, and the renderer's own frame time
// (its timestamps: Renderer::lastTimings); their difference is what handing the frame to GL
// costs. Median of many frames after warm-up.
// Usage: pcv_present_benchmark [--backend B] [--interop auto|surface|pbo|host|memory]
//                              [--drawing auto|buffer|copy] [--points N] [--size WxH]
//                              [--warmup N] [--frames N] [--json FILE]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <epoxy/gl.h>

#include "pcv/core/camera.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/image_size.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/gl/egl_context.hpp"
#include "pcv/gl/frame_presenter.hpp"
#include "pcv/gl/screen_buffer.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/raster/view_setup.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"pcv_present_benchmark: the viewer's frame handed to GL, on any backend"};
  std::string backendName = "auto", interop = "auto", drawing = "auto", size = "1280x720", json;
  uint64_t points = 10'000'000;
  int warmup = 100, frames = 300;
  cli.add_option("--backend", backendName, "auto, cuda, vulkan or cpu")->capture_default_str();
  cli.add_option("--interop", interop, "auto, surface, pbo, host or memory")
      ->capture_default_str();
  cli.add_option("--drawing", drawing,
                 "memory path: the frame drawn from the imported buffer, or copied to a texture")
      ->check(CLI::IsMember({"auto", "buffer", "copy"}))
      ->capture_default_str();
  cli.add_option("--points", points, "Cylinder points")->capture_default_str();
  cli.add_option("--size", size, "WIDTHxHEIGHT")->capture_default_str();
  cli.add_option("--warmup", warmup, "Frames before measuring")->capture_default_str();
  cli.add_option("--frames", frames, "Measured frames (median)")->capture_default_str();
  cli.add_option("--json", json, "Also write the medians as JSON to this file");
  CLI11_PARSE(cli, argc, argv);
  try {
    const pcv::ImageSize image = pcv::parseImageSize(size);
    pcv::EglContext context;
    auto renderer = pcv::createRenderer(backendName);
    renderer->addSet(pcv::CylinderProducer(pcv::makeCylinderSet(1), points));
    pcv::FramePresenter presenter(*renderer, pcv::parseInteropPath(interop),
                                  drawing == "buffer" ? pcv::ImportedFrameDrawing::FromBuffer
                                  : drawing == "copy" ? pcv::ImportedFrameDrawing::CopiedToTexture
                                                      : pcv::ImportedFrameDrawing::Auto);
    // The window's stand-in: what the viewer blits the frame to.
    pcv::ScreenBuffer window(image.width, image.height, pcv::PixelFormat::RGBA8);
    const pcv::ViewTransform view = pcv::makeViewTransform(pcv::Camera{}, image.width, image.height);
    const pcv::RenderSettings settings;
    std::vector<double> wholeMs, renderMs, renderCallMs, glMs;
    const auto msSince = [](Clock::time_point start) {
      return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    };
    for (int i = 0; i < warmup + frames; ++i) {
      const auto start = Clock::now();
      presenter.render(view, settings);
      const double renderCall = msSince(start);
      presenter.blitTo(window.framebuffer(), image.width, image.height);
      glFinish();
      const double whole = msSince(start);
      if (i < warmup) continue;
      wholeMs.push_back(whole);
      renderMs.push_back(pcv::totalMilliseconds(renderer->lastTimings()));
      renderCallMs.push_back(renderCall);
      glMs.push_back(whole - renderCall);
    }
    const double whole = median(wholeMs), drawn = median(renderMs);
    std::printf(
        "%s\n%s: %s\npath: %s%s%s%s\n%llu points, %dx%d, median of %d frames after %d\n",
        context.description().c_str(), renderer->backendName().c_str(),
        renderer->deviceDescription().c_str(), pcv::interopPathName(presenter.path()),
        presenter.drawsFromBuffer() ? ", drawn from the imported buffer" : "",
        presenter.fallbackReason().empty() ? "" : " (fell back: ",
        presenter.fallbackReason().empty() ? "" : (presenter.fallbackReason() + ")").c_str(),
        static_cast<unsigned long long>(points), image.width, image.height, frames, warmup);
    std::printf("whole frame %.3f ms, the renderer's frame %.3f ms, handing over %.3f ms\n", whole,
                drawn, whole - drawn);
    // Where the hand-over goes: the presenter's render call (the renderer's frame, its host
    // work and its wait for the GPU) and what follows in GL (copy, blit, glFinish).
    std::printf("render call %.3f ms, GL after it %.3f ms (medians)\n", median(renderCallMs),
                median(glMs));
    if (!json.empty()) {
      std::ofstream(json) << "{\"backend\": \"" << renderer->backendName() << "\", \"path\": \""
                          << pcv::interopPathName(presenter.path())
                          << "\", \"wholeFrameMs\": " << whole << ", \"rendererFrameMs\": " << drawn
                          << ", \"handOverMs\": " << whole - drawn
                          << ", \"renderCallMs\": " << median(renderCallMs)
                          << ", \"glAfterRenderMs\": " << median(glMs) << "}\n";
    }
  } catch (const pcv::Error& error) {
    std::fprintf(stderr, "pcv_present_benchmark: %s\n", error.what());
    return 1;
  }
  return 0;
}
