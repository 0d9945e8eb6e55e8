// pcv_stream_benchmark: a COPC file, or a dataset of tiles (a folder, a .vpc, several files),
// streamed through the renderer as the viewer streams it.
//   open          the hierarchy read and the root decoded and resident (what a viewer waits for
//                 before its first image), then the first image drawn; for a dataset, first the
//                 header index (every tile's header) and the forest (hierarchies, overview)
//   converge      wall time until every node the overview wants is resident, and the loader
//                 threads' seconds till then: in decodes, in colouring and layout, idle; the
//                 process's CPU and page faults. Where the renderer lays points out on its
//                 device (CUDA) the nodes go to it unsorted; --host-layout lays them out on the
//                 loader threads instead, to compare
//   static        the converged overview's GPU frame time (the renderer's own CUDA-event or
//                 host timings), median of --frames after --warmup
//   fly           a path from the overview down into the cloud and across it, one step a frame,
//                 never waiting for a node: per frame the frame thread's time besides drawing
//                 (the node choice and the copies of the nodes: StreamedCloud::update), the
//                 whole frame (that, the draw and the copy of the image to the host), the GPU
//                 frame time, the points drawn and the nodes still missing; median, 99th
//                 percentile and maximum, and the frames over 16 ms
//   memory        the renderer's resident bytes against --gpu-memory, the process's peak RSS
//   jump          with --jump, first: a stream opened straight at the fly's close-up view (where
//                 it turns to cross the cloud), nothing of it resident, until it converges: what
//                 a jump across the cloud waits for, and the points it decodes to get there
// Results as text, and JSON with --json.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>

#include <CLI/CLI.hpp>

#include "options/cli_options.hpp"
#include "options/option_groups.hpp"
#include "pcv/core/camera_framing.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/image.hpp"
#include "pcv/core/image_size.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/stream/copc_node_source.hpp"
#include "pcv/stream/streamed_cloud.hpp"
#include "pcv/stream/tile_forest.hpp"
#include "pcv/stream/tile_set.hpp"
#include "options/stream_flags.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// The process's CPU times and kernel events (getrusage), all threads.
struct ProcessUsage {
  double userSeconds = 0.0, systemSeconds = 0.0;
  uint64_t pageFaults = 0, involuntarySwitches = 0;
  ProcessUsage operator-(const ProcessUsage& earlier) const {
    return {userSeconds - earlier.userSeconds, systemSeconds - earlier.systemSeconds,
            pageFaults - earlier.pageFaults, involuntarySwitches - earlier.involuntarySwitches};
  }
};

ProcessUsage processUsage() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return {seconds(usage.ru_utime), seconds(usage.ru_stime),
          uint64_t(usage.ru_minflt) + uint64_t(usage.ru_majflt), uint64_t(usage.ru_nivcsw)};
}

struct Spread {
  double median = 0.0, p99 = 0.0, max = 0.0;
};

Spread spreadOf(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  return {values[values.size() / 2], values[std::min(values.size() - 1, values.size() * 99 / 100)],
          values.back()};
}

/// Peak resident set of this process (VmHWM), bytes.
uint64_t peakRssBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  }
  return 0;
}

struct Options {
  std::vector<std::string> files;
  pcv::app::RendererFlags renderer;
  pcv::StreamLimits stream;
  std::string size = "1920x1080";
  int frames = 100;
  int warmup = 10;
  int flyFrames = 600;
  std::string json;
  bool jump = false;
  unsigned loaderThreads = 0;
  bool hostLayout = false;
};

/// The camera of fly frame `i` of `n`: from the overview (frame 0) down to a tenth of the
/// cloud's size above its centre, then across it along x, looking ahead and down.
pcv::Camera flyCamera(const pcv::Box3d& box, const pcv::Camera& overview, int i, int n) {
  const double t = double(i) / double(std::max(n - 1, 1));
  const glm::dvec3 size = box.max - box.min;
  const glm::dvec3 low = box.center() + glm::dvec3(-0.4 * size.x, 0.0, 0.1 * size.z);
  const glm::dvec3 end = box.center() + glm::dvec3(0.4 * size.x, 0.0, 0.1 * size.z);
  pcv::Camera camera = overview;
  if (t < 0.5) {
    const double s = t / 0.5;
    camera.eye = glm::mix(overview.eye, low, s);
    camera.pitchRadians = float((1.0 - s) * overview.pitchRadians + s * -0.35);
    camera.yawRadians = float((1.0 - s) * overview.yawRadians);
  } else {
    camera.eye = glm::mix(low, end, (t - 0.5) / 0.5);
    camera.pitchRadians = -0.35f;
    camera.yawRadians = 0.0f;
  }
  return camera;
}

void run(const Options& o) {
  const pcv::ImageSize size = pcv::parseImageSize(o.size);
  auto renderer = pcv::createRenderer(o.renderer.backend, {.storage = pcv::PointStorage::Compact});
  const std::string name =
      o.files.size() == 1 ? o.files[0]
                          : o.files[0] + " and " + std::to_string(o.files.size() - 1) + " more";
  std::printf("file: %s\nbackend: %s (%s)\n", name.c_str(), renderer->backendName().c_str(),
              renderer->deviceDescription().c_str());
  std::vector<std::string> notes;
  pcv::StreamingOptions options = pcv::streamingOptionsFor(o.stream, *renderer, notes);
  if (o.loaderThreads > 0) options.decodeThreads = o.loaderThreads;
  options.layoutOnDevice = !o.hostLayout;
  std::printf("layout: nodes %s\n", options.layoutOnDevice && renderer->laysOutOnDevice()
                                        ? "unsorted, laid out on the device"
                                        : "laid out on the loader threads");
  for (const std::string& note : notes) std::printf("%s\n", note.c_str());

  const ProcessUsage usageAtStart = processUsage();
  const Clock::time_point start = Clock::now();
  const bool dataset = pcv::namesDataset(o.files) || o.files.size() > 1;
  std::shared_ptr<const pcv::NodeSource> source;
  pcv::Box3d box;
  uint64_t pointCount = 0;
  double indexMs = 0.0;
  if (dataset) {
    pcv::TileSet tiles = pcv::readTileSet(pcv::expandTilePaths(o.files));
    tiles.overviews = pcv::datasetOverviews(o.files);
    indexMs = msSince(start);
    std::printf("dataset: %zu tiles (%zu COPC, %zu LAZ, %zu LAS), %zu overview files\n",
                tiles.tiles.size(), tiles.count(pcv::TileFormat::Copc),
                tiles.count(pcv::TileFormat::Laz), tiles.count(pcv::TileFormat::Las),
                tiles.overviews.size());
    source = pcv::openTileForest(tiles);
    box = tiles.bounds;
    pointCount = tiles.pointCount;
  } else {
    auto file = std::make_shared<const pcv::CopcFile>(o.files[0]);
    box = file->statedBounds();
    pointCount = file->pointCount();
    source = std::make_shared<const pcv::CopcNodeSource>(file);
  }
  const double hierarchyMs = msSince(start);
  const pcv::Camera overview = pcv::frameBounds(box, float(size.width) / float(size.height));
  if (o.jump) {
    const pcv::Camera closeUp = flyCamera(box, overview, 1, 3);  // the turn point
    const Clock::time_point jumpStart = Clock::now();
    pcv::StreamedCloud jumped(source, *renderer, options);
    pcv::Image jumpImage(size.width, size.height);
    const pcv::RenderTarget jumpTarget{jumpImage.pixels.data(), size.width, size.height,
                                       pcv::MemorySpace::Host};
    const pcv::ViewTransform jumpView =
        pcv::makeViewTransform(closeUp, size.width, size.height, jumped.origin());
    int frames = 0;
    do {
      renderer->render(jumped.update(closeUp, size.width, size.height), jumpView, {}, jumpTarget);
      ++frames;
    } while (!jumped.converged() && msSince(jumpStart) < 600'000.0);
    const pcv::StreamingStats& j = jumped.stats();
    std::printf("jump: converged at the close-up in %.1f ms, %d frames, %zu nodes, %llu points "
                "drawn, %llu decoded\n",
                msSince(jumpStart), frames, j.nodesResident,
                static_cast<unsigned long long>(j.pointsDrawn),
                static_cast<unsigned long long>(j.decodedPoints));
  }
  pcv::StreamedCloud cloud(source, *renderer, options);
  const double rootMs = msSince(start);
  const pcv::ViewTransform view =
      pcv::makeViewTransform(overview, size.width, size.height, cloud.origin());
  pcv::Image image(size.width, size.height);
  const pcv::RenderTarget target{image.pixels.data(), size.width, size.height,
                                 pcv::MemorySpace::Host};
  std::vector<pcv::PointSetId> sets = cloud.update(overview, size.width, size.height);
  renderer->render(sets, view, {}, target);
  const double firstImageMs = msSince(start);
  std::printf("points: %llu in %zu nodes\n", static_cast<unsigned long long>(pointCount),
              source->forest().nodes.size());
  if (dataset) std::printf("open: header index %.1f ms\n", indexMs);
  std::printf("open: hierarchy %.1f ms, root resident %.1f ms, first image %.1f ms (%llu points)\n",
              hierarchyMs, rootMs, firstImageMs,
              static_cast<unsigned long long>(cloud.stats().pointsDrawn));

  // Converge on the overview, drawing every frame as a viewer would.
  int convergeFrames = 0;
  // When a frame last saw more points decoded: after it, the stream waits only for the frame
  // loop to take the decoded nodes in.
  uint64_t decodedSeen = cloud.stats().decodedPoints;
  double lastDecodeMs = firstImageMs;
  while (!cloud.converged() && msSince(start) < 600'000.0) {
    sets = cloud.update(overview, size.width, size.height);
    if (cloud.stats().decodedPoints != decodedSeen) {
      decodedSeen = cloud.stats().decodedPoints;
      lastDecodeMs = msSince(start);
    }
    renderer->render(sets, view, {}, target);
    ++convergeFrames;
  }
  const double convergeMs = msSince(start);
  const pcv::StreamingStats converged = cloud.stats();
  std::printf("converge: %.1f ms, %d frames, %zu nodes, %llu points drawn, %llu decoded\n",
              convergeMs, convergeFrames, converged.nodesResident,
              static_cast<unsigned long long>(converged.pointsDrawn),
              static_cast<unsigned long long>(converged.decodedPoints));
  // Where the loader threads' time went: decodes at the rate the cores allow leave little idle
  // and little besides the decode.
  std::printf(
      "converge: %u loader threads: decode %.2f s, colour and layout %.2f s, idle %.2f s "
      "(thread-seconds); %.2f M points/s per thread in decodes\n",
      converged.loaderThreads, converged.decodeSeconds, converged.layoutSeconds,
      converged.loaderIdleSeconds,
      converged.decodeSeconds > 0.0
          ? double(converged.decodedPoints) / converged.decodeSeconds / 1e6
          : 0.0);
  std::printf("converge: last decode seen at %.1f ms (then %.1f ms handing nodes to the frame)\n",
              lastDecodeMs, convergeMs - lastDecodeMs);
  // The process's CPU from the start to convergence: system time and page faults beyond the
  // decode's own work show threads waiting on the kernel (fresh buffers' pages, their locks).
  const ProcessUsage usage = processUsage() - usageAtStart;
  std::printf(
      "converge: process CPU user %.2f s, system %.2f s; %llu page faults, %llu involuntary "
      "context switches\n",
      usage.userSeconds, usage.systemSeconds, static_cast<unsigned long long>(usage.pageFaults),
      static_cast<unsigned long long>(usage.involuntarySwitches));

  std::vector<double> staticMs;
  for (int frame = 0; frame < o.warmup + o.frames; ++frame) {
    sets = cloud.update(overview, size.width, size.height);
    renderer->render(sets, view, {}, target);
    if (frame >= o.warmup) staticMs.push_back(pcv::totalMilliseconds(renderer->lastTimings()));
  }
  const Spread staticSpread = spreadOf(staticMs);
  std::printf("static: GPU frame median %.3f ms, p99 %.3f ms (%d frames)\n", staticSpread.median,
              staticSpread.p99, o.frames);

  std::vector<double> updateMs, frameMs, wallMs;
  std::vector<double> drawn, missing;
  const uint64_t decodedBefore = cloud.stats().decodedPoints;
  const Clock::time_point flyStart = Clock::now();
  for (int frame = 0; frame < o.flyFrames; ++frame) {
    const pcv::Camera camera = flyCamera(box, overview, frame, o.flyFrames);
    const Clock::time_point frameStart = Clock::now();
    sets = cloud.update(camera, size.width, size.height);
    updateMs.push_back(msSince(frameStart));
    renderer->render(sets, pcv::makeViewTransform(camera, size.width, size.height, cloud.origin()),
                     {}, target);
    wallMs.push_back(msSince(frameStart));
    frameMs.push_back(pcv::totalMilliseconds(renderer->lastTimings()));
    drawn.push_back(double(cloud.stats().pointsDrawn));
    missing.push_back(double(cloud.stats().nodesWanted - cloud.stats().nodesResident));
  }
  const double flySeconds = msSince(flyStart) / 1000.0;
  const Spread update = spreadOf(updateMs), gpu = spreadOf(frameMs), wall = spreadOf(wallMs);
  const Spread drawnSpread = spreadOf(drawn), missingSpread = spreadOf(missing);
  const pcv::StreamingStats& end = cloud.stats();
  const double decodeRate = double(end.decodedPoints - decodedBefore) / flySeconds;
  std::printf("fly: %d frames in %.2f s\n", o.flyFrames, flySeconds);
  const auto over16 = [](const std::vector<double>& ms) {
    return std::count_if(ms.begin(), ms.end(), [](double t) { return t > 16.0; });
  };
  std::printf("fly: frame thread besides drawing median %.3f p99 %.3f max %.3f ms, %ld of %d "
              "frames over 16 ms\n",
              update.median, update.p99, update.max, long(over16(updateMs)), o.flyFrames);
  std::printf("fly: GPU frame median %.3f p99 %.3f max %.3f ms\n", gpu.median, gpu.p99, gpu.max);
  std::printf("fly: whole frame (besides drawing + draw + copy to host) median %.3f p99 %.3f max "
              "%.3f ms, %ld frames over 16 ms\n",
              wall.median, wall.p99, wall.max, long(over16(wallMs)));
  std::printf("fly: points drawn median %.0f, nodes missing median %.0f max %.0f\n",
              drawnSpread.median, missingSpread.median, missingSpread.max);
  std::printf("fly: decoded %.1f M points/s, %llu nodes evicted, %llu repacks\n", decodeRate / 1e6,
              static_cast<unsigned long long>(end.evictedNodes),
              static_cast<unsigned long long>(end.repacks));
  const uint64_t resident = renderer->residentBytes();
  std::printf("memory: renderer %.1f MiB of --gpu-memory %.1f MiB; peak RSS %.1f MiB\n",
              double(resident) / (1 << 20), double(options.gpuMemoryBytes) / (1 << 20),
              double(peakRssBytes()) / (1 << 20));

  if (!o.json.empty()) {
    std::ofstream out(o.json);
    out << "{\"file\": \"" << name << "\", \"backend\": \"" << renderer->backendName()
        << "\", \"points\": " << pointCount << ", \"point_budget\": " << cloud.pointBudget()
        << ", \"header_index_ms\": " << indexMs << ", \"first_image_ms\": " << firstImageMs
        << ", \"converge_ms\": " << convergeMs << ", \"converge_last_decode_ms\": " << lastDecodeMs
        << ", \"converge_loader_threads\": " << converged.loaderThreads
        << ", \"converge_decode_s\": " << converged.decodeSeconds
        << ", \"converge_layout_s\": " << converged.layoutSeconds
        << ", \"converge_loader_idle_s\": " << converged.loaderIdleSeconds
        << ", \"static_gpu_ms\": " << staticSpread.median << ", \"fly_update_ms\": ["
        << update.median << ", " << update.p99 << ", " << update.max
        << "], \"fly_whole_frame_ms\": [" << wall.median << ", " << wall.p99 << ", " << wall.max
        << "], \"fly_gpu_ms\": [" << gpu.median << ", " << gpu.p99 << ", " << gpu.max
        << "], \"fly_decode_points_per_s\": " << decodeRate << ", \"renderer_bytes\": " << resident
        << ", \"gpu_memory_bytes\": " << options.gpuMemoryBytes
        << ", \"peak_rss_bytes\": " << peakRssBytes() << "}\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Streams a COPC file or a dataset of tiles as the viewer does and times it");
  Options o;
  app.add_option("files", o.files, "A COPC file, or a dataset: a folder, a .vpc, several tiles")
      ->required();
  pcv::app::addRendererFlags(app, o.renderer, false);
  pcv::app::addStreamFlags(app, o.stream);
  app.add_option("--size", o.size, "Image size WIDTHxHEIGHT")->capture_default_str();
  app.add_option("--frames", o.frames, "Timed frames of the converged overview")
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed frames before those")->capture_default_str();
  app.add_option("--fly-frames", o.flyFrames, "Frames of the fly-through")->capture_default_str();
  app.add_option("--json", o.json, "Also write the results as JSON to this file");
  app.add_option("--loader-threads", o.loaderThreads,
                 "Threads decoding and laying out nodes (default: pcv's, 0)")
      ->capture_default_str();
  app.add_flag("--host-layout", o.hostLayout,
               "Lay nodes out on the loader threads even where the renderer lays points out on "
               "its device (to compare)");
  app.add_flag("--jump", o.jump,
               "First open the stream straight at the close-up view and time its convergence");
  CLI11_PARSE(app, argc, argv);
  try {
    run(o);
  } catch (const pcv::Error& error) {
    std::fprintf(stderr, "pcv_stream_benchmark: %s\n", error.what());
    return 1;
  }
  return 0;
}
