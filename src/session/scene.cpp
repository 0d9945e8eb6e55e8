// Opening a scene on a renderer: its parts made from the plan (files read whole and coloured, a
// stream, the cylinders or produced points), and the COPC cache made first when the plan needs it.
#include "pcv/session/scene.hpp"

#include <chrono>
#include <filesystem>
#include <utility>

#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/number_text.hpp"
#include "pcv/session/copc_cache.hpp"

namespace pcv {
namespace {

/// A layout's progress for the report's display.
std::function<double()> fractionOf(const LayoutProgress& progress) {
  return [&progress] { return progress.fraction(); };
}

}  // namespace

ScenePlan prepareScene(const SceneSources& sources, const SceneOptions& options) {
  ScenePlan plan = planScene(sources, options.stream);
  for (const std::string& warning : plan.warnings) options.report.warn(warning);
  if (!plan.cachedFrom.empty()) {
    const std::string what = plan.cachedFrom.size() == 1
                                 ? plan.cachedFrom[0]
                                 : std::to_string(plan.cachedFrom.size()) + " files";
    const std::filesystem::path cached = plan.files[0];
    if (!plan.cacheMissing) {
      options.report.say("streaming " + what + " from its COPC cache " + cached.string());
      return plan;
    }
    const std::string says = what + (plan.cachedFrom.size() == 1 ? " takes " : " take ") +
                             formatBytes(double(plan.inCoreBytes)) + " read whole, more than the " +
                             formatBytes(double(plan.limitBytes)) +
                             (plan.limitGiven ? " --memory allows" : " available");
    if (!options.convertToCopc) {
      throw InputError(says + ": convert it to COPC first (pcv convert ... OUT.copc.laz)");
    }
    options.report.say(says + ": converting once to the COPC cache " + cached.string() +
                       ", then streaming it");
    std::error_code error;
    std::filesystem::create_directories(cached.parent_path(), error);
    if (error) {
      throw Error("cannot make the COPC cache folder " + cached.parent_path().string() + ": " +
                  error.message());
    }
    // The conversion writes under a temporary name and renames when complete, so an interrupted
    // one leaves no cache file behind; it takes its own default memory (half of RAM, out of core
    // beyond that), not the streaming budget.
    options.convertToCopc(plan.cachedFrom, cached.string());
    for (const std::filesystem::path& removed : removeOutdatedCopcCaches(cached)) {
      options.report.say("removed the outdated COPC cache " + removed.string());
    }
    plan.cacheMissing = false;
  }
  return plan;
}

Scene::Scene(const ScenePlan& plan, const SceneOptions& options, Renderer& renderer)
    : plan_(plan), options_(options), renderer_(renderer) {
  // Files decode the attribute coloured by and the one filtered by, beside their default ones.
  options_.read.alsoDecode(options_.coloring.attribute);
  options_.read.alsoDecode(options_.stream.rangeAttribute);
  // Withheld (deleted) points are never drawn: the flag is read to leave them out.
  options_.read.alsoDecode("withheld");
  if (plan_.cacheMissing) {
    throw InputError("the COPC cache " + plan_.files[0] + " of " +
                     std::to_string(plan_.cachedFrom.size()) + " file(s) is not made yet");
  }
  switch (plan_.kind) {
    case SceneKind::Cylinders:
      openCylinders();
      break;
    case SceneKind::InCore:
      openInCore();
      break;
    case SceneKind::Streamed:
      openStreamed();
      break;
    case SceneKind::Produced:
      openProduced();
      break;
  }
}

Scene::~Scene() {
  if (produced_) renderer_.removeSet(*produced_);
}

void Scene::openCylinders() {
  parts_.cylinders = std::make_unique<CylindersPart>(plan_.demo, renderer_, options_.report);
  bounds_ = parts_.cylinders->bounds();
  hasColor_ = true;
}

void Scene::openInCore() {
  const SessionReport& report = options_.report;
  InCorePart& inCore = parts_.inCore;
  for (const std::string& file : plan_.files) {
    LoadProgress progress;
    FileSummary summary;
    PointCloud cloud;
    const auto start = std::chrono::steady_clock::now();
    {
      auto shown =
          report.show("loading " + file, &progress, [&progress] { return progress.fraction(); });
      cloud = readPointCloud(file, options_.read, &progress, &summary);
    }
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    for (const std::string& warning : summary.warnings) report.warn(warning);
    report.say(file + ": " + std::to_string(cloud.size()) + " points");
    filesRead_.push_back({file, cloud.size(), seconds.count()});
    inCore.add(std::move(cloud), file, summary.worldBounds, false);
  }
  for (const std::shared_ptr<const PointCloud>& given : plan_.clouds) {
    if (given) inCore.add(PointCloud(*given), {}, given->worldBounds(), false);
  }
  bounds_ = inCore.bounds();
  const PointCloud& cloud = inCore.cloud();
  ColoredCloud& colored = inCore.colored();
  if (options_.stream.filterData) colored.setFilterData(true, options_.stream.rangeAttribute);
  LayoutProgress progress;
  {
    auto shown = report.show("laying out " + countText(cloud.size()) + " points", nullptr,
                             fractionOf(progress));
    coloring_ = parts_.showInCore(options_.coloring, {.progress = &progress});
  }
  hasColor_ = cloud.hasColor;
}

void Scene::openStreamed() {
  parts_.openStream(plan_, options_.read, options_.stream, options_.coloring, options_.report);
  const StreamPart& stream = *parts_.stream;
  bounds_ = stream.bounds();
  hasColor_ = stream.hasColor();
  coloring_ = stream.cloud().coloring();
  parts_.setTileBoxes(options_.tileBoxes);
}

void Scene::openProduced() {
  const ProducedPoints& produced = *plan_.produced;
  LayoutProgress progress;
  {
    auto shown =
        options_.report.show("laying out " + countText(produced.producer->pointCount()) + " points",
                             nullptr, fractionOf(progress));
    // hasColor: points coloured by a map get eye-dome lighting under EdlMode::Auto, as in core.
    produced_ = renderer_.addSet(*produced.producer,
                                 {.hasColor = produced.hasColor, .progress = &progress});
  }
  bounds_ = produced.worldBounds;
  parts_.origin = produced.origin;
  hasColor_ = produced.hasColor;
}

uint64_t Scene::pointCount() const {
  if (parts_.stream) return parts_.stream->pointCount();
  if (plan_.kind == SceneKind::Cylinders) return plan_.demo.pointCount;
  if (plan_.produced) return plan_.produced->producer->pointCount();
  return parts_.inCore.cloud().size();
}

const PointCloud& Scene::cloud() const {
  return parts_.inCore.cloud();
}

SetSelection Scene::update(const Camera& camera, int widthPx, int heightPx) {
  if (parts_.stream) parts_.stream->update(camera, widthPx, heightPx);
  return parts_.drawnSets();
}

bool Scene::converged() const {
  return !parts_.stream || parts_.stream->cloud().converged();
}

std::vector<std::string> Scene::takeErrors() {
  return parts_.stream ? parts_.stream->cloud().takeErrors() : std::vector<std::string>{};
}

std::vector<std::string> Scene::takeWarnings() {
  return parts_.stream ? parts_.stream->cloud().takeWarnings() : std::vector<std::string>{};
}

std::unique_ptr<Scene> openScene(const SceneSources& sources, const SceneOptions& options,
                                 Renderer& renderer) {
  return std::make_unique<Scene>(prepareScene(sources, options), options, renderer);
}

}  // namespace pcv
