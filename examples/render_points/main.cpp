// Renders a helix of points held in a C++ array to a PNG, through pcv's session layer: the scene
// is opened from points in memory, framed as `pcv render` frames files, and drawn on the CUDA
// backend where a GPU is usable, else on the CPU.
//   render_points [OUT.png]
#include <cmath>
#include <cstdio>
#include <memory>

#include "pcv/core/error.hpp"
#include "pcv/core/image.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/io/png_writer.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/render_converged.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/session/scene_camera.hpp"

namespace {

/// 100 000 points on a helix around z, coloured from red at the bottom to blue at the top.
std::shared_ptr<const pcv::PointCloud> helix() {
  auto cloud = std::make_shared<pcv::PointCloud>();
  const int count = 100'000;
  cloud->points.resize(count);
  for (int i = 0; i < count; ++i) {
    const float t = float(i) / float(count);
    const float angle = t * 40.0f;
    const auto red = uint32_t(255.0f * (1.0f - t)), blue = uint32_t(255.0f * t);
    cloud->points[i] = {std::cos(angle), std::sin(angle), 4.0f * t, pcv::packRgba(red, 64, blue)};
  }
  cloud->hasColor = true;
  return cloud;
}

}  // namespace

int main(int argc, char** argv) {
  const char* out = argc > 1 ? argv[1] : "helix.png";
  try {
    const pcv::SceneSources sources{.clouds = {helix()}};
    pcv::SceneOptions options;
    const pcv::ScenePlan plan = pcv::prepareScene(sources, options);
    std::unique_ptr<pcv::Renderer> renderer = pcv::createRenderer("auto", plan.rendererOptions());
    pcv::Scene scene(plan, options, *renderer);

    const int width = 640, height = 480;
    const pcv::Camera camera =
        pcv::startCamera(scene.kind(), scene.worldBounds(), float(width) / float(height), {});
    pcv::Image image(width, height);
    const pcv::RenderTarget target{image.pixels.data(), width, height, pcv::MemorySpace::Host};
    pcv::renderConverged(scene, camera, {}, target, 10.0);
    pcv::writePng(out, image);

    size_t drawn = 0;
    for (uint32_t pixel : image.pixels) drawn += pixel != pcv::kOpaqueBlack;
    std::printf("%s: %llu points on %s, %zu pixels drawn; wrote %s\n", argv[0],
                static_cast<unsigned long long>(scene.pointCount()),
                renderer->backendName().c_str(), drawn, out);
    return drawn > 0 ? 0 : 1;
  } catch (const pcv::Error& error) {
    std::fprintf(stderr, "%s: %s\n", argv[0], error.what());
    return 1;
  }
}
