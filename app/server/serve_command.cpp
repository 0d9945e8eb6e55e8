#include "server/serve_command.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>

#include <boost/asio/ip/address.hpp>

#include "options/coloring_options.hpp"
#include "options/option_groups.hpp"
#include "options/stream_flags.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/session/scene_sources.hpp"
#include "server/access_token.hpp"
#include "server/view_service.hpp"
#include "server/web_server.hpp"

namespace pcv::app {
namespace {

struct ServeOptions {
  DemoCylindersFlags scene;
  RendererFlags renderer;
  ColoringFlags coloring;
  ReadFlags read;
  StreamLimits stream;
  std::vector<std::string> files;
  WebServerOptions web;
  std::string tokenFile;
  double maxFps = PacingLimits().maxFps;
  int encoders = 0;  // 0: a quarter of the cores, at least one
};

bool isLoopback(const std::string& bind) {
  boost::system::error_code error;
  const boost::asio::ip::address address = boost::asio::ip::make_address(bind, error);
  return !error && address.is_loopback();
}

void runServe(ServeOptions options) {
  if (!options.tokenFile.empty()) {
    options.web.token = readAccessToken(options.tokenFile);
  } else if (!isLoopback(options.web.bind)) {
    // Beyond this machine, only who was given the URL may look.
    options.web.token = makeAccessToken();
  }
  // A source that cannot be opened fails here, before anything is served: a server has no
  // window to show the error in. Local paths must exist; headers are read by the plan.
  for (const std::string& file : options.files) {
    std::error_code error;
    if (!isRemoteLocation(file) && !std::filesystem::exists(file, error)) {
      throw InputError("'" + file + "' does not exist");
    }
  }
  if (!options.files.empty()) planScene({.files = options.files}, options.stream);
  ViewServiceOptions service;
  service.files = options.files;
  service.demo = {options.scene.pointCount, options.scene.seed};
  service.coloring = coloringOptionsFrom(options.coloring);
  service.read = readOptionsFrom(options.read);
  // Withheld (deleted) points are never drawn: the flag is read to leave them out.
  service.read.alsoDecode("withheld");
  service.stream = options.stream;
  service.render.method = methodFrom(options.renderer);
  service.pacing.maxFps = options.maxFps;
  const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  service.encoderThreads = options.encoders > 0 ? options.encoders : std::max(1, cores / 4);
  std::unique_ptr<Renderer> renderer = createRendererFrom(options.renderer);
  renderer->methodFor(service.render);  // an unknown method fails before anything is served
  ViewService views(std::move(renderer), service);
  WebServer server(views, options.web);
  // The URL alone on stdout, first: scripts and tests read it (with --port 0, the port).
  std::printf("%s\n", server.url().c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "pcv serve: open %s in a browser; Ctrl+C stops\n", server.url().c_str());
  server.run();
}

}  // namespace

void addServeCommand(CLI::App& cli) {
  auto options = std::make_shared<ServeOptions>();
  CLI::App* serve = cli.add_subcommand(
      "serve", "Serve a scene to web browsers: drawn here, shown in any browser (docs/serve.md)");
  addDemoCylindersFlags(*serve, options->scene);
  addRendererFlags(*serve, options->renderer);
  addColoringFlags(*serve, options->coloring);
  addReadFlags(*serve, options->read);
  addStreamFlags(*serve, options->stream);
  const std::string group = "Server";
  serve->add_option("--port", options->web.port, "TCP port; 0: any free one (the URL says)")
      ->capture_default_str()
      ->group(group);
  serve
      ->add_option("--bind", options->web.bind,
                   "Address to listen on; any but loopback requires a token, printed in the URL")
      ->capture_default_str()
      ->group(group);
  serve
      ->add_option("--token-file", options->tokenFile,
                   "Require the token on the file's first line (instead of a random one)")
      ->group(group);
  serve->add_option("--cert", options->web.certFile, "PEM certificate chain: serve HTTPS")
      ->group(group);
  serve->add_option("--key", options->web.keyFile, "PEM private key of --cert")->group(group);
  serve->add_option("--max-clients", options->web.maxClients, "Browsers connected at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024))
      ->group(group);
  serve->add_option("--max-fps", options->maxFps, "Frames per second per browser, at most")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 1000.0))
      ->group(group);
  serve
      ->add_option("--encoders", options->encoders,
                   "Threads that encode frames; 0: a quarter of the cores")
      ->check(CLI::Range(0, 256))
      ->group(group);
  serve
      ->add_option("--exit-when-idle", options->web.exitWhenIdleSeconds,
                   "Stop after this many seconds without a browser (0: never)")
      ->check(CLI::NonNegativeNumber)
      ->group(group);
  serve->add_option("files", options->files,
                    "Point cloud files, folders, .vpc datasets or URLs, as pcv view opens them; "
                    "none: the cylinders");
  serve->callback([options] { runServe(*options); });
}

}  // namespace pcv::app
