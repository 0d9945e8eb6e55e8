// pcv_interop_benchmark: the viewer's frame through CUDA-GL interop in a headless EGL context,
// per stage, PBO path against surface path. Median of many frames after warm-up.
//   map / unmap      host time of cudaGraphicsMap/UnmapResources (they may wait for GL)
//   <stages>         the rasterizer's own CUDA-event times (Renderer::lastTimings)
//   tex upload       GL timer query around the PBO -> texture copy (PBO path only)
//   blit             GL timer query around the texture -> framebuffer blit
//   frame            wall time from map to the end of a glFinish (serialized frame)
// and separately the throughput of unsynchronized frames, as the viewer runs them.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "pcv/core/camera.hpp"
#include "pcv/cuda/cuda_check.hpp"
#include "pcv/gl/egl_context.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/gl/gl_buffer_in_cuda.hpp"
#include "pcv/gl/gl_check.hpp"
#include "pcv/gl/gl_objects.hpp"
#include "pcv/gl/gl_texture_in_cuda.hpp"
#include "pcv/gl/screen_buffer.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/raster/view_setup.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

/// GL_TIME_ELAPSED around a block; read after the frame's glFinish, so reading never stalls.
class GlTimer {
 public:
  GlTimer() : query_(pcv::GlQuery::create()) {}
  void begin() { GL_CHECK(glBeginQuery(GL_TIME_ELAPSED, query_.id())); }
  void end() { GL_CHECK(glEndQuery(GL_TIME_ELAPSED)); }
  double milliseconds() const {
    GLuint64 nanoseconds = 0;
    GL_CHECK(glGetQueryObjectui64v(query_.id(), GL_QUERY_RESULT, &nanoseconds));
    return double(nanoseconds) * 1e-6;
  }

 private:
  pcv::GlQuery query_;
};

struct PathResult {
  std::string path;
  std::vector<std::string> order;                 // column order
  std::map<std::string, std::vector<double>> ms;  // per column, one value per frame
  double pipelinedFrameMs = 0.0;
};

PathResult measure(bool surfacePath, pcv::Renderer& backend, const pcv::RenderSettings& settings,
                   const pcv::ViewTransform& view, int warmup, int frames) {
  using namespace pcv;
  PathResult result;
  result.path = surfacePath ? "surface" : "pbo";
  const auto stream = static_cast<cudaStream_t>(backend.cudaStream());
  ScreenBuffer screen(view.width, view.height, PixelFormat::RGBA8);
  ScreenBuffer window(view.width, view.height, PixelFormat::RGBA8);  // the window's stand-in
  std::optional<GlTextureInCuda> texture;
  std::optional<GlBufferInCuda> buffer;
  if (surfacePath) {
    texture.emplace(screen.texture());
  } else {
    buffer.emplace(screen.pixelBuffer(), cudaGraphicsRegisterFlagsWriteDiscard);
  }
  GlTimer uploadTimer, blitTimer;
  auto add = [&](const std::string& column, double value) {
    if (!result.ms.count(column)) result.order.push_back(column);
    result.ms[column].push_back(value);
  };

  // One frame as the viewer draws it; `timed` adds GL queries and a glFinish.
  auto frame = [&](bool timed, bool record) {
    const auto start = Clock::now();
    double mapMs = 0.0, unmapMs = 0.0;
    if (surfacePath) {
      const cudaSurfaceObject_t surface = texture->map(stream);
      mapMs = msSince(start);
      backend.render(
          view, settings,
          RenderTarget{nullptr, view.width, view.height, MemorySpace::CudaSurface, surface});
      const auto unmapStart = Clock::now();
      texture->unmap(stream);
      unmapMs = msSince(unmapStart);
    } else {
      buffer->map(stream);
      mapMs = msSince(start);
      const auto pixels = buffer->view<uint32_t>(size_t(view.width) * view.height);
      backend.render(view, settings,
                     RenderTarget{pixels.data, view.width, view.height, MemorySpace::Device});
      const auto unmapStart = Clock::now();
      buffer->unmap(stream);
      unmapMs = msSince(unmapStart);
      if (timed) uploadTimer.begin();
      screen.copyPixelBufferToTexture();
      if (timed) uploadTimer.end();
    }
    if (timed) blitTimer.begin();
    screen.blitTo(window.framebuffer(), view.width, view.height);
    if (timed) blitTimer.end();
    if (!timed) return;
    glFinish();
    const double frameMs = msSince(start);
    if (!record) return;
    add("map", mapMs);
    for (const StageTiming& stage : backend.lastTimings()) add(stage.stage, stage.milliseconds);
    add("unmap", unmapMs);
    if (!surfacePath) add("tex upload", uploadTimer.milliseconds());
    add("blit", blitTimer.milliseconds());
    add("frame", frameMs);
  };

  for (int i = 0; i < warmup; ++i) frame(true, false);
  for (int i = 0; i < frames; ++i) frame(true, true);
  // Unsynchronized frames, as the viewer runs them (no glFinish); one at the end to count all.
  for (int i = 0; i < warmup; ++i) frame(false, false);
  glFinish();
  const auto start = Clock::now();
  for (int i = 0; i < frames; ++i) frame(false, false);
  glFinish();
  result.pipelinedFrameMs = msSince(start) / frames;
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"pcv_interop_benchmark: the viewer's interop frame per stage, PBO vs surface"};
  uint64_t points = pcv::kSeedPointCount;
  int width = 1280, height = 720, warmup = 50, frames = 300;
  std::string method, json;
  cli.add_option("--points", points, "Cylinder points")->capture_default_str();
  cli.add_option("--width", width, "Pixels")->capture_default_str();
  cli.add_option("--height", height, "Pixels")->capture_default_str();
  cli.add_option("--warmup", warmup, "Frames before measuring")->capture_default_str();
  cli.add_option("--frames", frames, "Measured frames (median)")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cli.add_option("--method", method, "Rasterization method (default: the backend's)");
  cli.add_option("--json", json, "Also write the medians as JSON to this file");
  CLI11_PARSE(cli, argc, argv);

  try {
    pcv::EglContext context;
    auto backend = pcv::createRenderer("cuda");
    pcv::RenderSettings settings;
    if (!method.empty()) settings.method = pcv::parseMethod(method);
    backend->methodFor(settings);
    backend->addSet(pcv::CylinderProducer(pcv::makeCylinderSet(1), points));
    const pcv::ViewTransform view = pcv::makeViewTransform(pcv::Camera{}, width, height);
    std::printf("%s\n%s\n%llu points, %dx%d, method %s, median of %d frames after %d warm-up\n\n",
                context.description().c_str(), backend->deviceDescription().c_str(),
                static_cast<unsigned long long>(points), width, height,
                pcv::methodName(backend->methodFor(settings)), frames, warmup);

    std::vector<PathResult> results;
    for (bool surface : {false, true}) {
      results.push_back(measure(surface, *backend, settings, view, warmup, frames));
    }
    std::printf("%-12s", "stage (ms)");
    for (const auto& r : results) std::printf(" %10s", r.path.c_str());
    std::printf("\n");
    std::vector<std::string> columns = results[0].order;
    for (const auto& column : results[1].order) {
      if (std::find(columns.begin(), columns.end(), column) == columns.end()) {
        columns.insert(columns.end() - 1, column);
      }
    }
    for (const auto& column : columns) {
      std::printf("%-12s", column.c_str());
      for (const auto& r : results) {
        const auto found = r.ms.find(column);
        if (found == r.ms.end()) {
          std::printf(" %10s", "-");
        } else {
          std::printf(" %10.3f", median(found->second));
        }
      }
      std::printf("\n");
    }
    std::printf("%-12s", "pipelined");
    for (const auto& r : results) std::printf(" %10.3f", r.pipelinedFrameMs);
    std::printf("   (mean ms per frame without glFinish, as the viewer runs)\n");

    if (!json.empty()) {
      std::ofstream out(json);
      out << "{\n  \"points\": " << points << ", \"width\": " << width << ", \"height\": " << height
          << ", \"method\": \"" << pcv::methodName(backend->methodFor(settings))
          << "\", \"frames\": " << frames << ",\n  \"paths\": {";
      for (size_t i = 0; i < results.size(); ++i) {
        out << (i ? "," : "") << "\n    \"" << results[i].path << "\": {";
        for (size_t c = 0; c < results[i].order.size(); ++c) {
          const auto& column = results[i].order[c];
          out << (c ? ", " : "") << "\"" << column << "\": " << median(results[i].ms.at(column));
        }
        out << ", \"pipelined\": " << results[i].pipelinedFrameMs << "}";
      }
      out << "\n  }\n}\n";
      std::printf("wrote %s\n", json.c_str());
    }
  } catch (const pcv::Error& error) {
    std::fprintf(stderr, "pcv_interop_benchmark: %s\n", error.what());
    return 1;
  }
  return 0;
}
