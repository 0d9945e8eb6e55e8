#include "viewer/view_command.hpp"

#include <memory>

#include "cli_options.hpp"
#include "quality_options.hpp"
#include "coloring_options.hpp"
#include "read_flags.hpp"
#include "pcv/raster/backend.hpp"
#include "viewer/viewer.hpp"

namespace pcv::app {

void addViewCommand(CLI::App& cli) {
  auto options = std::make_shared<ViewerOptions>();
  auto size = std::make_shared<std::string>("1280x720");
  auto coloring = std::make_shared<ColoringFlags>();
  auto read = std::make_shared<ReadFlags>();
  CLI::App* view = cli.add_subcommand("view", "Open the interactive viewer (the default)");
  view->add_option("--points", options->pointCount, "Number of cylinder points")
      ->capture_default_str();
  view->add_option("--seed", options->seed, "Random seed of the cylinder scene")
      ->capture_default_str();
  view->add_option("--backend", options->backend, "auto, cuda or cpu")
      ->check(CLI::IsMember(backendNames()))
      ->capture_default_str();
  view->add_option("--method", options->method,
                   "Rasterization method: compact (default, fastest), earlyz (cuda), packed, seed");
  view->add_option("--interop", options->interop,
                   "How frames reach GL: auto, surface (CUDA writes the texture), pbo, host")
      ->check(CLI::IsMember({"auto", "surface", "pbo", "host"}))
      ->capture_default_str();
  view->add_option("--size", *size, "Window size WIDTHxHEIGHT")->capture_default_str();
  view->add_option("--frames", options->frames, "Exit after this many frames (0: run until closed)")
      ->capture_default_str();
  view->add_option(
      "--script", options->script,
      "Timed input events (key_down W, mouse_move x y, resize w h, screenshot f.png ...)");
  view->add_option("--frame-dt", options->frameDtSeconds,
                   "Seconds each frame advances the clock (0: real time); makes scripts exact")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  view->add_option("--screenshot-dir", options->screenshotDir, "Folder F12 writes PNGs to")
      ->capture_default_str();
  view->add_option("files", options->files,
                   "Point cloud files (PLY, LAS, PCD, E57, XYZ/TXT/CSV/PTS), loaded in the "
                   "background and merged; none: cylinders");
  addReadFlags(*view, *read);
  addColoringFlags(*view, *coloring);
  auto quality = std::make_shared<QualityOptions>();
  addQualityOptions(*view, *quality);
  view->callback([options, size, coloring, quality, read] {
    options->coloring = coloringOptionsFrom(*coloring);
    options->read = readOptionsFrom(*read);
    RenderSettings settings;
    applyQualityOptions(*quality, true, settings);  // EDL "auto" is decided per loaded cloud
    options->background = settings.background;
    options->quality = settings.quality;
    options->edlAuto = quality->edl == "auto";
    const ImageSize windowSize = parseImageSize(*size);
    options->widthPx = windowSize.width;
    options->heightPx = windowSize.height;
    runViewer(*options);
  });
}

void runDefaultViewer(const std::vector<std::string>& files) {
  ViewerOptions options;
  options.files = files;
  runViewer(options);
}

}  // namespace pcv::app
