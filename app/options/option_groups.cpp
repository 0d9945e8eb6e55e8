#include "options/option_groups.hpp"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "options/named_option.hpp"
#include "pcv/core/camera_framing.hpp"
#include "pcv/core/error.hpp"
#include "options/run_report.hpp"
#include "pcv/raster/vulkan_devices.hpp"
#if PCV_WITH_CUDA
#include "pcv/io_cuda/cuda_laz.hpp"
#endif

namespace pcv::app {

void addDemoCylindersFlags(CLI::App& command, DemoCylindersFlags& flags) {
  command.add_option("--points", flags.pointCount, "Number of cylinder points (no files given)")
      ->capture_default_str();
  command.add_option("--seed", flags.seed, "Random seed of the cylinder scene")
      ->capture_default_str();
}

void addRendererFlags(CLI::App& command, RendererFlags& flags, bool withMethod) {
  command
      .add_option("--backend", flags.backend,
                  "auto (CUDA where usable, else a Vulkan GPU, else the CPU), cuda, vulkan or cpu")
      ->check(knownNameOf(backendTable()))
      ->capture_default_str();
  command.add_option("--vulkan-device", flags.vulkanDevice,
                     "The Vulkan device to draw on: its index or part of its name, as "
                     "`pcv info --devices` lists them (default: the best GPU)");
  if (withMethod) {
    command
        .add_option("--method", flags.method,
                    "Rasterization method: compact (default, fastest), earlyz (cuda), packed, "
                    "seed (the original two passes)")
        ->check(knownNameOf(methodTable()));
  }
}

std::unique_ptr<Renderer> createRendererFrom(const RendererFlags& flags,
                                             const RendererOptions& options) {
  RendererOptions withDevice = options;
  withDevice.vulkanDevice = flags.vulkanDevice;
  std::unique_ptr<Renderer> renderer = createRenderer(flags.backend, withDevice);
  runReport()["backend"] = renderer->backendName();
  runReport()["device"] = renderer->deviceDescription();
  std::string whyNotCuda, whyNotVulkan;
  if (parseBackend(flags.backend) == BackendChoice::Auto && renderer->backendName() == "cpu" &&
      !cudaAvailable(&whyNotCuda)) {
    vulkanGpuAvailable(&whyNotVulkan);
    std::fprintf(stderr, "pcv: %s; using the CPU backend (Vulkan: %s)\n", whyNotCuda.c_str(),
                 whyNotVulkan.empty() ? "no GPU could draw" : whyNotVulkan.c_str());
  } else {
    std::fprintf(stderr, "pcv: using the %s backend (%s)\n", renderer->backendName().c_str(),
                 renderer->deviceDescription().c_str());
  }
  return renderer;
}

std::optional<RasterMethod> methodFrom(const RendererFlags& flags) {
  if (flags.method.empty()) return std::nullopt;
  return parseMethod(flags.method);
}

void addViewFlags(CLI::App& command, ViewFlags& flags, const char* sizeHelp) {
  command.add_option("--size", flags.size, std::string(sizeHelp) + " WIDTHxHEIGHT")
      ->check(checkedBy([](const std::string& text) { parseImageSize(text); }))
      ->capture_default_str();
  command.add_option("--eye", flags.eye, "Camera position x,y,z (default: frame the files)")
      ->capture_default_str()
      ->each([&flags](const std::string&) { flags.eyeGiven = true; });
  command.add_option("--yaw", flags.yawDegrees, "Camera yaw in degrees (0 looks along +x)")
      ->capture_default_str();
  command.add_option("--pitch", flags.pitchDegrees, "Camera pitch in degrees (-90..90)")
      ->capture_default_str();
  command.add_option("--near", flags.nearPlane,
                     "Near plane distance (default: from the scene's size)");
  command.add_option("--far", flags.farPlane,
                     "Far plane distance (default: from the scene's size)");
  addNamedOption(command, "--up", flags.up, upAxisTable(),
                 "The world axis that points up: z, or y for Y-up models");
  command
      .add_option("--ortho", flags.ortho,
                  "Orthographic view: plan (from above), front (along +y), side (along -x), or "
                  "view (along --yaw/--pitch)")
      ->check(CLI::IsMember({"plan", "front", "side", "view"}));
  command
      .add_option("--ortho-width", flags.orthoWidth,
                  "With --ortho: world units across the image (default: fitted to the scene)")
      ->check(CLI::PositiveNumber);
}

namespace {

CameraOptions cameraOptionsFrom(const ViewFlags& flags) {
  return {.eye = flags.eyeGiven ? std::optional(parseVector3(flags.eye)) : std::nullopt,
          .yawDegrees = flags.yawDegrees,
          .pitchDegrees = flags.pitchDegrees,
          .up = flags.up,
          .nearPlane = flags.nearPlane,
          .farPlane = flags.farPlane,
          .orthographic = !flags.ortho.empty(),
          .orthoView = orthoViewNamed(flags.ortho),
          .orthoWidth = flags.orthoWidth};
}

}  // namespace

Camera cameraFrom(const ViewFlags& flags) {
  return checkedOptionValue([&] { return cameraFromOptions(cameraOptionsFrom(flags)); });
}

CameraRequest cameraRequestFrom(const ViewFlags& flags) {
  return checkedOptionValue([&] { return pcv::cameraRequestFrom(cameraOptionsFrom(flags)); });
}

UpAxis upAxisFrom(const ViewFlags& flags) {
  return flags.up;
}

void addReadFlags(CLI::App& command, ReadFlags& flags) {
  command
      .add_option("--scan", flags.scan,
                  "E57 files: read only this scan (0-based, as pcv info lists them); "
                  "default: every scan, merged with its pose")
      ->check(CLI::Range(int64_t(0), int64_t(UINT32_MAX)));
  command
      .add_option("--decode", flags.decode,
                  "LAZ and COPC files read whole: decode the chunks on the GPU (cuda) or on the "
                  "CPU's cores (cpu); auto, the default, takes the CPU: the GPU decoder is exact "
                  "but outruns 16 cores only on batches of over ~1 500 chunks, so streamed files "
                  "and datasets always decode on the CPU (bench/RESULTS.md)")
      ->check(CLI::IsMember({"auto", "cuda", "cpu"}));
  command.add_flag("--strict", flags.strict,
                   "Refuse a file cut short (fewer LAS records than its header declares, LAZ "
                   "chunks missing); default: read the whole records there are, with a warning");
}

ReadOptions readOptionsFrom(const ReadFlags& flags) {
  ReadOptions options;
  if (flags.scan >= 0) options.scan = uint32_t(flags.scan);
  options.strict = flags.strict;
#if PCV_WITH_CUDA
  options.lazDecoder = io::lazDecoderNamed(flags.decode);
#else
  if (flags.decode == "cuda") {
    throw UnavailableError(
        "cannot decode LAZ on the GPU (--decode cuda): pcv was built without CUDA");
  }
#endif
  return options;
}

}  // namespace pcv::app
