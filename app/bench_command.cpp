#include "bench_command.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "cli_options.hpp"
#include "quality_options.hpp"
#include "pcv/core/error.hpp"
#include "pcv/raster/backend.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/scene/cylinder_viewpoints.hpp"
#include "pcv/scene/cylinders.hpp"

namespace pcv::app {
namespace {

struct BenchOptions {
  uint64_t pointCount = kSeedPointCount;
  uint64_t seed = 1;
  std::string size = "1280x720";
  std::string backend = "auto";
  std::vector<std::string> methods;  // empty: every method of the backend
  std::string order = "both";        // original, morton or both
  bool compactOnly = false;
  bool wholeFrames = false;  // time whole frames only, no events between stages
  int frames = 200;
  int warmupFrames = 20;
  std::string json;
  QualityOptions quality;                         // the base settings of every row
  std::vector<std::string> qualityModes{"base"};  // presets on top of them (kQualityModes)
};

/// Quality presets bench can time side by side, each applied on top of the options given.
struct QualityMode {
  const char* name;
  void (*apply)(QualitySettings&);
};
const QualityMode kQualityModes[] = {
    {"base", [](QualitySettings&) {}},
    {"size2", [](QualitySettings& q) { q.pointSizePx = 2; }},
    {"size3", [](QualitySettings& q) { q.pointSizePx = 3; }},
    {"round3",
     [](QualitySettings& q) {
       q.pointSizePx = 3;
       q.shape = PointShape::Round;
     }},
    {"size8", [](QualitySettings& q) { q.pointSizePx = 8; }},
    {"round8",
     [](QualitySettings& q) {
       q.pointSizePx = 8;
       q.shape = PointShape::Round;
     }},
    {"size16", [](QualitySettings& q) { q.pointSizePx = 16; }},
    {"world",
     [](QualitySettings& q) {
       q.sizeMode = PointSizeMode::World;
       q.worldSize = 0.005f;
     }},
    {"fill1", [](QualitySettings& q) { q.fillRadiusPx = 1; }},
    {"fill2", [](QualitySettings& q) { q.fillRadiusPx = 2; }},
    {"fill4", [](QualitySettings& q) { q.fillRadiusPx = 4; }},
    {"edl", [](QualitySettings& q) { q.edl = true; }},
    {"edl-r2",
     [](QualitySettings& q) {
       q.edl = true;
       q.edlRadiusPx = 2;
     }},
    {"hq", [](QualitySettings& q) { q.highQuality = true; }},
    {"gradient",
     [](QualitySettings& q) {
       q.backgroundGradient = true;
       q.backgroundTop = packRgba(40, 60, 90);
     }},
    {"all",
     [](QualitySettings& q) {
       q.pointSizePx = 2;
       q.fillRadiusPx = 2;
       q.edl = true;
       q.highQuality = true;
     }},
};

std::vector<std::string> qualityModeNames() {
  std::vector<std::string> names;
  for (const QualityMode& mode : kQualityModes) names.emplace_back(mode.name);
  names.emplace_back("every");
  return names;
}

/// The requested presets, "every" expanded to all of them.
std::vector<const QualityMode*> requestedQualityModes(const std::vector<std::string>& requested) {
  std::vector<const QualityMode*> modes;
  for (const std::string& name : requested) {
    for (const QualityMode& mode : kQualityModes) {
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

MethodResult measure(Backend& backend, const std::string& order, const RenderSettings& settings,
                     const std::string& label, const CylinderViewpoint& viewpoint,
                     const ImageSize& size, const BenchOptions& o) {
  const ViewTransform view = makeViewTransform(viewpoint.camera(), size.width, size.height);
  // No pixels passed: the backend draws into its own device (or host) image.
  const RenderTarget target{nullptr, size.width, size.height,
                            backend.name() == "cuda" ? MemorySpace::Device : MemorySpace::Host};
  MethodResult result{
      order, label, viewpoint.name, {}, {}, {}, backend.bytesReadPerPoint(settings.method)};
  std::map<std::string, std::vector<double>> perStage;
  std::vector<double> totals;
  for (int frame = 0; frame < o.warmupFrames + o.frames; ++frame) {
    backend.render(view, settings, target);
    const StageTimings timings = backend.lastTimings();
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
               const std::vector<MethodResult>& results,
               const std::map<std::string, double>& prepare,
               const std::map<std::string, uint64_t>& resident) {
  std::ofstream out(path);
  if (!out) throw Error("cannot write '" + path + "'");
  out << "{\n  \"device\": \"" << jsonEscape(device) << "\",\n  \"points\": " << o.pointCount
      << ",\n  \"size\": \"" << o.size << "\",\n  \"frames\": " << o.frames
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
        << "\": " << double(bytes) / std::max<uint64_t>(1, o.pointCount);
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

void runBench(const BenchOptions& o) {
  const ImageSize size = parseImageSize(o.size);
  if (o.frames < 1 || o.warmupFrames < 0) throw InputError("--frames must be >= 1, --warmup >= 0");
  std::vector<std::string> orders;
  if (o.order == "original" || o.order == "both") orders.push_back("original");
  if (o.order == "morton" || o.order == "both") orders.push_back("morton");
  if (o.compactOnly) orders = {"morton"};
  RenderSettings base;
  applyQualityOptions(o.quality, true, base);  // the cylinders have colour: EDL auto is off
  const std::vector<const QualityMode*> modes = requestedQualityModes(o.qualityModes);

  std::vector<MethodResult> results;
  std::map<std::string, double> prepareSeconds;
  std::map<std::string, uint64_t> residentBytes;
  std::string device;
  std::printf("%-9s %-8s %-15s %9s %9s %9s %8s %6s  | per-stage medians (ms)\n", "viewpoint",
              "order", "method", "median ms", "min ms", "max ms", "Gpts/s", "B/pt");
  for (const std::string& order : orders) {
    BackendOptions backendOptions;
    backendOptions.mortonOrder = order == "morton";
    backendOptions.compactOnly = o.compactOnly;
    std::unique_ptr<Backend> backend = createBackend(o.backend, backendOptions);
    backend->setPerStageTiming(!o.wholeFrames);
    device = backend->name() + ": " + backend->deviceDescription();
    const auto start = std::chrono::steady_clock::now();
    backend->generateCylinders(makeCylinderScene(o.seed), o.pointCount);
    prepareSeconds[order] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    residentBytes[order] = backend->residentPointBytes();
    std::vector<std::string> methods = o.methods.empty() ? backend->methods() : o.methods;
    for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
      for (const std::string& method : methods) {
        const auto known = backend->methods();
        if (std::find(known.begin(), known.end(), method) == known.end()) continue;
        for (const QualityMode* mode : modes) {
          RenderSettings settings = base;
          settings.method = method;
          mode->apply(settings.quality);
          // The quality pipeline draws from the compact layout: Morton order only.
          if (needsQualityPipeline(settings.quality) && order != "morton") continue;
          const std::string label = mode == &kQualityModes[0] ? method : method + "+" + mode->name;
          results.push_back(measure(*backend, order, settings, label, viewpoint, size, o));
          printRow(results.back(), o.pointCount);
        }
      }
    }
  }
  std::printf("\n%s; %llu points at %s; %d frames after %d warm-up frames per row\n",
              device.c_str(), (unsigned long long)o.pointCount, o.size.c_str(), o.frames,
              o.warmupFrames);
  for (const auto& [order, seconds] : prepareSeconds) {
    std::printf(
        "%s order: generating and laying out the points took %.3f s; resident point "
        "data %.2f bytes/point\n",
        order.c_str(), seconds, double(residentBytes[order]) / std::max<uint64_t>(1, o.pointCount));
  }
  if (!o.json.empty()) writeJson(o.json, o, device, results, prepareSeconds, residentBytes);
}

}  // namespace

void addBenchCommand(CLI::App& cli) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* bench = cli.add_subcommand("bench", "Time the rasterization methods per stage");
  bench->add_option("--points", o->pointCount, "Number of cylinder points")->capture_default_str();
  bench->add_option("--seed", o->seed, "Random seed of the cylinder scene")->capture_default_str();
  bench->add_option("--size", o->size, "Image size WIDTHxHEIGHT")->capture_default_str();
  bench->add_option("--backend", o->backend, "auto, cuda or cpu")
      ->check(CLI::IsMember(backendNames()))
      ->capture_default_str();
  bench->add_option("--methods", o->methods, "Methods to time (default: all of the backend)")
      ->delimiter(',');
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
  bench
      ->add_option("--quality-modes", o->qualityModes,
                   "Quality presets to time, each on top of the quality options: base, size2, "
                   "size3, round3, size8, round8, size16, world, fill1, fill2, fill4, edl, "
                   "edl-r2, hq, gradient, all, or every")
      ->delimiter(',')
      ->check(CLI::IsMember(qualityModeNames()))
      ->capture_default_str();
  bench->callback([o] { runBench(*o); });
}

}  // namespace pcv::app
