// pcv_remote_benchmark: the first image of a COPC file or a VPC of tiles read over HTTP from a
// server on loopback that waits --delay-ms before every answer (a far server's round trip), with
// --http-connections requests in flight. Prints, from the start:
//   open         the plan (headers, hierarchy pages) and the scene opened (the root decoded),
//                and the requests answered by then (before the first frame)
//   first image  the first frame drawn (what is resident at once)
//   converged    every node the view wants drawn
// and the requests the server answered. The same run on the local path is printed beside it.
//   pcv_remote_benchmark city.copc.laz [--delay-ms 20] [--http-connections 16] [--size 1280x720]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>

#include "http_test_server.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/image.hpp"
#include "pcv/core/stopwatch.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/io/virtual_point_cloud.hpp"
#include "pcv/session/render_converged.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/session/scene_camera.hpp"

namespace {

using Clock = pcv::SteadyClock;
using pcv::secondsSince;

struct Timing {
  double open = 0.0, firstImage = 0.0, converged = 0.0;
  uint64_t firstPoints = 0;
  uint64_t openRequests = 0;       ///< answered by the server before the first frame was asked for
  uint64_t openIndexRequests = 0;  ///< of those, for the file or VPC named
  bool done = false;
};

Timing run(const std::string& location, int width, int height, int connections,
           pcv::test::HttpTestServer* server = nullptr, const std::string& name = {}) {
  const uint64_t requestsBefore = server ? server->requests() : 0;
  const uint64_t indexBefore = server ? server->requestsFor(name) : 0;
  const Clock::time_point start = Clock::now();
  const pcv::SceneSources sources{.files = {location}};
  const pcv::ScenePlan plan = pcv::planScene(sources, {.httpConnections = connections});
  auto renderer = pcv::createRenderer("cpu", plan.rendererOptions());
  pcv::Scene scene(plan, {}, *renderer);
  Timing timing;
  timing.open = secondsSince(start);
  if (server) {
    timing.openRequests = server->requests() - requestsBefore;
    timing.openIndexRequests = server->requestsFor(name) - indexBefore;
  }
  const pcv::Camera camera =
      pcv::startCamera(scene.kind(), scene.worldBounds(), float(width) / float(height), {});
  pcv::Image image(width, height, 0u);
  const double before = secondsSince(start);
  const pcv::ConvergedRender done = pcv::renderConverged(
      scene, camera, {}, {image.pixels.data(), width, height, pcv::MemorySpace::Host}, 300.0);
  timing.firstImage = before + done.firstImageSeconds;
  timing.firstPoints = done.firstImagePoints;
  timing.converged = before + done.seconds;
  timing.done = done.converged;
  return timing;
}

void print(const char* what, const Timing& t) {
  std::printf("%-8s open %.3f s, first image %.3f s (%llu points), converged %.3f s%s\n", what,
              t.open, t.firstImage, static_cast<unsigned long long>(t.firstPoints), t.converged,
              t.done ? "" : " (time limit)");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"First image of a COPC file or VPC over HTTP on loopback with a delay per request"};
  std::string input, size = "1280x720";
  int delayMs = 20, connections = 16;
  cli.add_option("input", input, "A COPC file or a .vpc (its tiles are served beside it)")->required();
  cli.add_option("--delay-ms", delayMs, "Delay before every answer (default 20)");
  cli.add_option("--http-connections", connections, "Requests in flight (default 16)");
  cli.add_option("--size", size, "Image size WxH (default 1280x720)");
  CLI11_PARSE(cli, argc, argv);
  try {
    int width = 1280, height = 720;
    if (std::sscanf(size.c_str(), "%dx%d", &width, &height) != 2) throw pcv::InputError("--size WxH");
    pcv::test::HttpTestServer server;
    const std::filesystem::path path(input);
    server.putFile(path.filename().string(), input);
    if (path.extension() == ".vpc") {
      // The tiles under their paths relative to the VPC, as its relative hrefs name them.
      for (const pcv::VpcTile& tile : pcv::readVirtualPointCloud(path).tiles) {
        const auto relative = std::filesystem::relative(tile.location, path.parent_path());
        server.putFile(relative.generic_string(), tile.location);
      }
    }
    print("local", run(input, width, height, connections));
    server.faults().delayMs = delayMs;
    const uint64_t before = server.requests();
    const Timing remote = run(server.url(path.filename().string()), width, height, connections,
                              &server, path.filename().string());
    print("remote", remote);
    std::printf("remote: %llu requests before the first frame, %llu of them for %s\n",
                static_cast<unsigned long long>(remote.openRequests),
                static_cast<unsigned long long>(remote.openIndexRequests),
                path.filename().string().c_str());
    std::printf("remote: %llu requests, %d ms added to each, %d in flight at most\n",
                static_cast<unsigned long long>(server.requests() - before), delayMs, connections);
    return 0;
  } catch (const pcv::Error& error) {
    std::fprintf(stderr, "pcv_remote_benchmark: %s\n", error.what());
    return 1;
  }
}
