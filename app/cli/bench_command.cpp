#include "bench_command.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "options/clip_options.hpp"
#include "options/filter_options.hpp"
#include "options/option_groups.hpp"
#include "options/quality_options.hpp"
#include "options/session_terminal.hpp"
#include "options/stream_flags.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/image.hpp"
#include "pcv/raster/quality_presets.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinder_viewpoints.hpp"
#include "pcv/demo/cylinders.hpp"
#include "pcv/session/render_converged.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/session/scene_camera.hpp"

namespace pcv::app {
namespace {

struct BenchOptions {
  DemoCylindersFlags scene;
  RendererFlags renderer;            // the backend; methods come from --methods
  std::vector<std::string> methods;  // empty: every method of the renderer
  std::string order = "both";        // original, morton or both
  bool compactOnly = false;
  bool wholeFrames = false;  // time whole frames only, no events between stages
  int frames = 200;
  int warmupFrames = 20;
  std::string size = "1280x720";
  std::string json;
  QualityOptions quality;                         // the base settings of every row
  ClipFlags clip;                                 // clipping of every row
  std::vector<std::string> clipModes{"none"};     // clip cases of the cylinder scene
  std::vector<std::string> qualityModes{"base"};  // presets on top of them
  FilterFlags filter;                             // filter of every row
  std::vector<std::string> filterModes{"none"};   // filter cases of the cylinder scene
  /// Files, folders, VPCs or URLs, opened as `pcv render` opens them (read whole, or streamed and
  /// converged first); none: the cylinders.
  std::vector<std::string> files;
  StreamLimits stream;          // --memory, --gpu-memory, --point-budget, --in-core
  double streamSeconds = 60.0;  // a streamed scene's wait for its view to converge
};

/// A view every row is timed from: a camera, and the origin the scene's points are offsets from.
struct BenchView {
  std::string name;
  Camera camera;
  glm::dvec3 origin{0.0};
};

/// The cylinder scene's four views (its points are offsets from the world origin).
std::vector<BenchView> cylinderViews() {
  std::vector<BenchView> views;
  for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
    views.push_back({viewpoint.name, viewpoint.camera()});
  }
  return views;
}

/// Filter cases of the cylinder scene, whose points get synthetic filter data (see
/// cylinderFilterFields): class 1 + the cylinder's index (Morton order keeps cylinders apart, so
/// most batches hold one class), returns 1-3 of 3 and an "intensity" of 0-4095 at random per
/// point (every batch holds all of them: per-point tests).
struct FilterCase {
  const char* name;
  PointFilter filter;
};

const std::vector<FilterCase>& filterCases() {
  static const std::vector<FilterCase> cases = [] {
    PointFilter one, half, allPass, first, range;
    one.classes = parseClassList("2", "--classes");
    half.classes = parseClassList("1-5", "--classes");
    allPass.classes = parseClassList("0-199", "--classes");
    first.returns = ReturnChoice::First;
    range.ranges = {{"intensity", 0.0, 2047.0}};
    return std::vector<FilterCase>{{"none", {}},     {"class", one},   {"half", half},
                                   {"all", allPass}, {"first", first}, {"range", range}};
  }();
  return cases;
}

std::vector<std::string> filterCaseNames() {
  std::vector<std::string> names;
  for (const FilterCase& c : filterCases()) names.emplace_back(c.name);
  names.emplace_back("every");
  return names;
}

/// The synthetic filter data of cylinder point `index` of `count` (point i lies on cylinder
/// floor(i * 10 / count)); a hash gives the return and the intensity.
FilterFields cylinderFilterFields(uint64_t index, uint64_t count) {
  uint64_t h = index * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  return {.classification = uint8_t(1 + index * 10 / std::max<uint64_t>(count, 1)),
          .returnNumber = uint8_t(1 + (h >> 7) % 3),
          .numberOfReturns = 3,
          .rangeValue = float((h >> 20) % 4096)};
}

bool wantsFilters(const BenchOptions& o) {
  return pointFilterFrom(o.filter).active() ||
         std::any_of(o.filterModes.begin(), o.filterModes.end(),
                     [](const std::string& name) { return name != "none"; });
}

std::vector<std::string> qualityModeChoices() {
  std::vector<std::string> names = qualityPresetNames();
  names.emplace_back("every");
  return names;
}

/// Clip cases of the cylinder scene (about [-2.2, 2.2]^3), to measure what clipping costs: a
/// box through the middle (kept, or cut away), an oblique slab (the plane test per point), and
/// a box around everything (every batch kept whole: the per-batch classification alone).
struct ClipCase {
  const char* name;
  ClipSettings clip;
};

const std::vector<ClipCase>& clipCases() {
  static const ClipBox middle{{-0.6, -0.5, -0.4}, {0.5, 0.6, 0.7}};
  static const std::vector<ClipCase> cases = {
      {"none", {}},
      {"box", {.box = middle}},
      {"cut", {.box = middle, .keep = ClipKeep::Outside}},
      {"slab", {.slab = ClipSlab{.normal = {1, 2, -0.5}, .centre = {0.1, 0, 0}, .thickness = 0.4}}},
      {"all", {.box = ClipBox{glm::dvec3(-10.0), glm::dvec3(10.0)}}},
  };
  return cases;
}

std::vector<std::string> clipCaseNames() {
  std::vector<std::string> names;
  for (const ClipCase& c : clipCases()) names.emplace_back(c.name);
  names.emplace_back("every");
  return names;
}

/// The requested presets, "every" expanded to all of them.
std::vector<const QualityPreset*> requestedQualityModes(const std::vector<std::string>& requested) {
  std::vector<const QualityPreset*> modes;
  for (const std::string& name : requested) {
    for (const QualityPreset& mode : qualityPresets()) {
      if (name == "every" || name == mode.name) modes.push_back(&mode);
    }
  }
  return modes;
}

struct Stats {
  double median = 0, min = 0, max = 0;
};

Stats statsOf(std::vector<double> values) {
  Stats s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.median = values[values.size() / 2];
  s.min = values.front();
  s.max = values.back();
  return s;
}

struct MethodResult {
  std::string order, method, viewpoint;
  std::vector<std::string> stages;
  std::map<std::string, Stats> stageStats;
  Stats total;
  double bytesPerPoint = 0;
};

MethodResult measure(Renderer& renderer, const std::string& order, const RenderSettings& settings,
                     const std::string& label, const BenchView& viewpoint, const ImageSize& size,
                     const BenchOptions& o) {
  const ViewTransform view =
      makeViewTransform(viewpoint.camera, size.width, size.height, viewpoint.origin);
  // No pixels passed: the renderer draws into its own device (or host) image.
  const RenderTarget target{nullptr, size.width, size.height,
                            renderer.cudaStream() ? MemorySpace::Device : MemorySpace::Host};
  MethodResult result{
      order, label, viewpoint.name, {}, {}, {}, bytesReadPerPoint(renderer.methodFor(settings))};
  std::map<std::string, std::vector<double>> perStage;
  std::vector<double> totals;
  for (int frame = 0; frame < o.warmupFrames + o.frames; ++frame) {
    renderer.render(view, settings, target);
    const StageTimings timings = renderer.lastTimings();
    if (frame < o.warmupFrames) continue;
    for (const StageTiming& t : timings) {
      if (frame == o.warmupFrames) result.stages.push_back(t.stage);
      perStage[t.stage].push_back(t.milliseconds);
    }
    totals.push_back(totalMilliseconds(timings));
  }
  for (auto& [stage, values] : perStage) result.stageStats[stage] = statsOf(values);
  result.total = statsOf(totals);
  return result;
}

void printRow(const MethodResult& r, uint64_t pointCount) {
  std::ostringstream stages;
  for (const auto& stage : r.stages) {
    char cell[64];
    std::snprintf(cell, sizeof cell, " %s %.4f", stage.c_str(), r.stageStats.at(stage).median);
    stages << cell;
  }
  const double pointsPerSecond = r.total.median > 0 ? pointCount / (r.total.median * 1e-3) : 0;
  std::printf("%-9s %-8s %-15s %9.4f %9.4f %9.4f %8.1f %6.2f  |%s\n", r.viewpoint.c_str(),
              r.order.c_str(), r.method.c_str(), r.total.median, r.total.min, r.total.max,
              pointsPerSecond * 1e-9, r.bytesPerPoint, stages.str().c_str());
}

std::string jsonEscape(const std::string& text) {
  std::string out;
  for (char c : text) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out;
}

void writeJson(const std::string& path, const BenchOptions& o, const std::string& device,
               uint64_t pointCount, const std::vector<MethodResult>& results,
               const std::map<std::string, double>& prepare,
               const std::map<std::string, uint64_t>& resident) {
  std::ofstream out(path);
  if (!out) throw Error("cannot write '" + path + "'");
  out << "{\n  \"device\": \"" << jsonEscape(device) << "\",\n  \"points\": " << pointCount
      << ",\n  \"inputs\": [";
  for (size_t i = 0; i < o.files.size(); ++i) {
    out << (i ? ", " : "") << "\"" << jsonEscape(o.files[i]) << "\"";
  }
  out << "],\n  \"size\": \"" << o.size << "\",\n  \"frames\": " << o.frames
      << ",\n  \"warmup_frames\": " << o.warmupFrames << ",\n  \"prepare_seconds\": {";
  bool first = true;
  for (const auto& [order, seconds] : prepare) {
    out << (first ? "" : ", ") << "\"" << order << "\": " << seconds;
    first = false;
  }
  out << "},\n  \"resident_bytes_per_point\": {";
  first = true;
  for (const auto& [order, bytes] : resident) {
    out << (first ? "" : ", ") << "\"" << order
        << "\": " << double(bytes) / std::max<uint64_t>(1, pointCount);
    first = false;
  }
  out << "},\n  \"results\": [\n";
  for (size_t i = 0; i < results.size(); ++i) {
    const MethodResult& r = results[i];
    out << "    {\"viewpoint\": \"" << r.viewpoint << "\", \"order\": \"" << r.order
        << "\", \"method\": \"" << r.method << "\", \"bytes_read_per_point\": " << r.bytesPerPoint
        << ", \"total_ms\": {\"median\": " << r.total.median << ", \"min\": " << r.total.min
        << ", \"max\": " << r.total.max << "}, \"stages_ms\": {";
    for (size_t s = 0; s < r.stages.size(); ++s) {
      const Stats& st = r.stageStats.at(r.stages[s]);
      out << (s ? ", " : "") << "\"" << r.stages[s] << "\": {\"median\": " << st.median
          << ", \"min\": " << st.min << ", \"max\": " << st.max << "}";
    }
    out << "}}" << (i + 1 < results.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
}

/// The storage an --order row draws from.
PointStorage storageFor(const std::string& order, bool compactOnly) {
  if (order == "original") return PointStorage::Unsorted;
  return compactOnly ? PointStorage::Compact : PointStorage::CompactAndPoints;
}

/// The rows of one order: every method and preset the renderer draws, from every view; the
/// points per second count `pointCount` points a frame.
void measureOrder(Renderer& renderer, const std::string& order, const RenderSettings& base,
                  const ImageSize& size, const BenchOptions& o, const std::vector<BenchView>& views,
                  uint64_t pointCount, std::vector<MethodResult>& results) {
  std::vector<RasterMethod> methods = renderer.methods();
  if (!o.methods.empty()) {
    std::erase_if(methods, [&](RasterMethod m) {
      return std::find(o.methods.begin(), o.methods.end(), methodName(m)) == o.methods.end();
    });
  }
  for (const BenchView& viewpoint : views) {
    for (const RasterMethod method : methods) {
      for (const QualityPreset* mode : requestedQualityModes(o.qualityModes)) {
        for (const ClipCase& clipCase : clipCases()) {
          for (const FilterCase& filterCase : filterCases()) {
            const bool wanted =
                std::any_of(o.clipModes.begin(), o.clipModes.end(),
                            [&](auto& name) { return name == "every" || name == clipCase.name; });
            const bool filterWanted =
                std::any_of(o.filterModes.begin(), o.filterModes.end(),
                            [&](auto& name) { return name == "every" || name == filterCase.name; });
            if (!wanted || !filterWanted) continue;
            RenderSettings settings = base;
            settings.method = method;
            mode->apply(settings.quality);
            if (clipCase.clip.active()) settings.clip = clipCase.clip;
            if (filterCase.filter.active()) settings.filter = filterCase.filter;
            // Filters draw from the compact layout as clipping does (every order has it but the
            // cylinders' original one).
            if (settings.filter.active() && order == "original") continue;
            if (settings.filter.active() && method != RasterMethod::Compact &&
                !needsQualityPipeline(settings.quality)) {
              continue;
            }
            // The quality pipeline and clipping draw from the compact layout: Morton order only.
            const bool compactLayout = needsQualityPipeline(settings.quality);
            if (compactLayout && order == "original") continue;
            if (settings.clip.active() && method != RasterMethod::Compact && !compactLayout)
              continue;
            const std::string label =
                std::string(methodName(method)) +
                (mode == &qualityPresets()[0] ? "" : std::string("+") + mode->name) +
                (clipCase.clip.active()   ? std::string("+clip:") + clipCase.name
                 : settings.clip.active() ? "+clip"
                                          : "") +
                (filterCase.filter.active() ? std::string("+filter:") + filterCase.name
                 : settings.filter.active() ? "+filter"
                                            : "");
            results.push_back(measure(renderer, order, settings, label, viewpoint, size, o));
            printRow(results.back(), pointCount);
          }
        }
      }
    }
  }
}

void printHeader() {
  std::printf("%-9s %-8s %-15s %9s %9s %9s %8s %6s  | per-stage medians (ms)\n", "viewpoint",
              "order", "method", "median ms", "min ms", "max ms", "Gpts/s", "B/pt");
}

/// The rows over files (a dataset, a COPC file, files read whole), from the view `pcv render`
/// frames them in. A streamed scene converges first and is timed drawing exactly the nodes the
/// view wants; the order is the one the scene is laid out in ("data").
void benchFiles(const BenchOptions& o, const RenderSettings& base, const ImageSize& size) {
  const auto onlyNone = [](const std::vector<std::string>& modes) {
    return std::all_of(modes.begin(), modes.end(), [](auto& m) { return m == "none"; });
  };
  if (!onlyNone(o.clipModes) || !onlyNone(o.filterModes)) {
    throw InputError(
        "--clip-modes and --filter-modes time the cylinders' own cases; with files, "
        "give --clip-box/--clip-slab or --classes/--returns/--range instead");
  }
  if (o.order != "both") {
    throw InputError(
        "--order times the cylinders in their generated and Morton orders; files "
        "are timed in the order the scene lays them out");
  }
  SceneOptions sceneOptions{.stream = o.stream, .report = terminalReport()};
  requestFilterData(base.filter, sceneOptions.stream);
  const ScenePlan plan = prepareScene({.files = o.files}, sceneOptions);
  RendererOptions rendererOptions = plan.rendererOptions();
  rendererOptions.timeStages = !o.wholeFrames;
  if (o.compactOnly) rendererOptions.storage = PointStorage::Compact;
  std::unique_ptr<Renderer> renderer = createRendererFrom(o.renderer, rendererOptions);
  const auto start = std::chrono::steady_clock::now();
  Scene scene(plan, sceneOptions, *renderer);
  checkSceneFilterable(base.filter, scene);
  const Camera camera =
      startCamera(scene.kind(), scene.worldBounds(), float(size.width) / float(size.height), {});
  uint64_t pointCount = scene.pointCount();
  if (StreamedCloud* streamed = scene.streamed()) {
    Image image(size.width, size.height);
    const ConvergedRender converged = renderConverged(
        scene, camera, base, {image.pixels.data(), size.width, size.height, MemorySpace::Host},
        o.streamSeconds);
    if (!converged.converged) {
      std::fprintf(stderr, "pcv: the view did not converge within %.0f s: timing what is there\n",
                   o.streamSeconds);
    }
    streamed->keepOnlyWanted();  // the renderer then holds exactly the sets the view draws
    pointCount = streamed->stats().pointsDrawn;
  }
  const double prepareSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const uint64_t residentBytes = renderer->residentBytes();
  const std::string device = renderer->backendName() + ": " + renderer->deviceDescription();
  std::vector<MethodResult> results;
  printHeader();
  measureOrder(*renderer, "data", base, size, o, {{"framed", camera, scene.origin()}}, pointCount,
               results);
  std::printf("\n%s; %llu points drawn of %llu at %s; %d frames after %d warm-up frames per row\n",
              device.c_str(), (unsigned long long)pointCount,
              (unsigned long long)scene.pointCount(), o.size.c_str(), o.frames, o.warmupFrames);
  std::printf("opening%s the scene took %.3f s; renderer memory %.2f bytes per point drawn%s\n",
              scene.streamed() ? " and converging" : "", prepareSeconds,
              double(residentBytes) / std::max<uint64_t>(1, pointCount),
              scene.streamed() ? " (the stream's whole reserved pool)" : "");
  if (!o.json.empty()) {
    writeJson(o.json, o, device, pointCount, results, {{"data", prepareSeconds}},
              {{"data", residentBytes}});
  }
}

void runBench(const BenchOptions& o) {
  const ImageSize size = parseImageSize(o.size);
  if (o.frames < 1 || o.warmupFrames < 0) throw InputError("--frames must be >= 1, --warmup >= 0");
  for (const std::string& method : o.methods) parseMethod(method);
  std::vector<std::string> orders;
  if (o.order == "original" || o.order == "both") orders.push_back("original");
  if (o.order == "morton" || o.order == "both") orders.push_back("morton");
  if (o.compactOnly) orders = {"morton"};
  RenderSettings base;
  applyQualityOptions(o.quality, base);
  base.clip = clipSettingsFrom(o.clip);
  base.filter = pointFilterFrom(o.filter);
  if (!o.files.empty()) return benchFiles(o, base, size);

  std::vector<MethodResult> results;
  std::map<std::string, double> prepareSeconds;
  std::map<std::string, uint64_t> residentBytes;
  std::string device;
  std::vector<std::string> kernels;
  printHeader();
  for (const std::string& order : orders) {
    std::unique_ptr<Renderer> renderer;
    try {
      renderer = createRendererFrom(
          o.renderer, {.storage = storageFor(order, o.compactOnly), .timeStages = !o.wholeFrames});
    } catch (const UnavailableError& error) {
      // A backend without the 16-byte methods (vulkan) has no rows for the original order.
      if (order != "original" || orders.size() < 2) throw;
      std::fprintf(stderr, "pcv: no rows for order original: %s\n", error.what());
      continue;
    }
    device = renderer->backendName() + ": " + renderer->deviceDescription();
    kernels = renderer->kernelStatistics();
    const auto start = std::chrono::steady_clock::now();
    // The scene lives while the order is measured: its set is what every row draws.
    // With filters the set is laid out here, keeping its source order for the filter data.
    std::optional<Scene> scene;
    if (wantsFilters(o) && order == "morton") {
      const uint64_t count = o.scene.pointCount;
      const PointSetId set = renderer->addSet(
          CylinderProducer(makeCylinderSet(o.scene.seed), count), {.keepSourceOrder = true});
      renderer->setFilterData(
          set, [count](uint64_t i) { return cylinderFilterFields(i, count); }, "intensity");
    } else {
      scene.emplace(planScene({.demo = {o.scene.pointCount, o.scene.seed}}, {}), SceneOptions{},
                    *renderer);
    }
    prepareSeconds[order] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    residentBytes[order] = renderer->residentBytes();
    measureOrder(*renderer, order, base, size, o, cylinderViews(), o.scene.pointCount, results);
  }
  std::printf("\n%s; %llu points at %s; %d frames after %d warm-up frames per row\n",
              device.c_str(), (unsigned long long)o.scene.pointCount, o.size.c_str(), o.frames,
              o.warmupFrames);
  for (const auto& [order, seconds] : prepareSeconds) {
    std::printf(
        "%s order: generating and laying out the points took %.3f s; resident point "
        "data %.2f bytes/point\n",
        order.c_str(), seconds,
        double(residentBytes[order]) / std::max<uint64_t>(1, o.scene.pointCount));
  }
  // What decides how many workgroups a multiprocessor holds at once, where the driver tells.
  for (const std::string& kernel : kernels) std::printf("kernel %s\n", kernel.c_str());
  if (!o.json.empty()) {
    writeJson(o.json, o, device, o.scene.pointCount, results, prepareSeconds, residentBytes);
  }
}

}  // namespace

void addBenchCommand(CLI::App& cli) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* bench = cli.add_subcommand("bench", "Time the rasterization methods per stage");
  addDemoCylindersFlags(*bench, o->scene);
  addRendererFlags(*bench, o->renderer, false);
  bench->add_option("--size", o->size, "Image size WIDTHxHEIGHT")->capture_default_str();
  bench->add_option("--methods", o->methods, "Methods to time (default: all of the renderer)")
      ->delimiter(',')
      ->check(CLI::IsMember(methodNames()));
  bench->add_option("--order", o->order, "Point order: original, morton or both")
      ->check(CLI::IsMember({"original", "morton", "both"}))
      ->capture_default_str();
  bench->add_flag("--compact-only", o->compactOnly,
                  "Keep only the 8-byte compact layout (the most points fit)");
  bench->add_flag("--whole-frames", o->wholeFrames,
                  "Time whole frames with no timing events between stages");
  bench->add_option("--frames", o->frames, "Timed frames per viewpoint and method")
      ->capture_default_str();
  bench->add_option("--warmup", o->warmupFrames, "Untimed frames before those")
      ->capture_default_str();
  bench->add_option("--json", o->json, "Also write the results as JSON to this file");
  addQualityOptions(*bench, o->quality);
  addClipFlags(*bench, o->clip);
  addFilterFlags(*bench, o->filter);
  bench
      ->add_option("--filter-modes", o->filterModes,
                   "Filter cases to time on the cylinders' synthetic classes (1 + cylinder), "
                   "returns (1-3 of 3) and intensity (0-4095): none, class (one class of ten), "
                   "half (five), all (every point passes: the per-batch summaries alone), "
                   "first (first returns: per-point tests), range (intensity=0:2047), every")
      ->delimiter(',')
      ->check(CLI::IsMember(filterCaseNames()))
      ->capture_default_str();
  bench
      ->add_option("--clip-modes", o->clipModes,
                   "Clip cases to time, each on top of the clip flags: none, box (a box through "
                   "the middle), cut (the same, cut away), slab (oblique), all (a box around "
                   "everything), every")
      ->delimiter(',')
      ->check(CLI::IsMember(clipCaseNames()))
      ->capture_default_str();
  std::string presets;
  for (const std::string& name : qualityModeChoices())
    presets += (presets.empty() ? "" : ", ") + name;
  bench
      ->add_option("--quality-modes", o->qualityModes,
                   "Quality presets to time, each on top of the quality options: " + presets)
      ->delimiter(',')
      ->check(CLI::IsMember(qualityModeChoices()))
      ->capture_default_str();
  addStreamFlags(*bench, o->stream);
  addStreamTimeLimit(*bench, o->streamSeconds);
  bench->add_option("files", o->files,
                    "Point cloud files, folders of tiles, VPCs or URLs, opened as pcv render opens "
                    "them and timed from its framed view (a stream once converged); none: the "
                    "cylinders from four views");
  bench->callback([o] { runBench(*o); });
}

}  // namespace pcv::app
