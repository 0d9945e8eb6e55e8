// Opening a scene on a renderer: load -> merge -> colour -> add set, a stream, or the cylinders.
#include "pcv/session/scene.hpp"

#include <chrono>
#include <filesystem>
#include <utility>

#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/number_text.hpp"
#include "pcv/io/copc_file.hpp"
#include "pcv/scene/cylinder_producer.hpp"
#include "pcv/session/copc_cache.hpp"
#include "pcv/session/tile_boxes.hpp"
#include "pcv/stream/tile_forest.hpp"

namespace pcv {
namespace {

/// A layout's progress for the report's display.
std::function<double()> fractionOf(const LayoutProgress& progress) {
  return [&progress] { return progress.fraction(); };
}

}  // namespace

ScenePlan prepareScene(const SceneSources& sources, const SceneOptions& options) {
  ScenePlan plan = planScene(sources, options.stream);
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
  streamed_.reset();  // stops its decoders, removes its sets
  inCore_.reset();
  if (cylinders_) renderer_.removeSet(*cylinders_);
  if (tileBoxes_) renderer_.removeSet(*tileBoxes_);
}

void Scene::openCylinders() {
  const SessionReport& report = options_.report;
  // Laying out hundreds of millions of points takes minutes on the CPU: say how far it is.
  LayoutProgress progress;
  {
    auto shown = report.show("laying out " + countText(plan_.demo.pointCount) + " cylinder points",
                             nullptr, fractionOf(progress));
    cylinders_ = renderer_.addSet(
        CylinderProducer(makeCylinderScene(plan_.demo.seed), plan_.demo.pointCount),
        {.progress = &progress});
  }
  bounds_ = demoSceneBounds(plan_.demo);
  hasColor_ = true;
}

void Scene::openInCore() {
  const SessionReport& report = options_.report;
  inCore_ = std::make_unique<ColouredCloud>(renderer_);
  bool first = true;
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
    bounds_.extend(summary.worldBounds);
    inCore_->merge(std::move(cloud), std::exchange(first, false));
  }
  for (const std::shared_ptr<const PointCloud>& given : plan_.clouds) {
    if (!given) continue;
    bounds_.extend(given->worldBounds());
    inCore_->merge(PointCloud(*given), std::exchange(first, false));
  }
  const PointCloud& cloud = inCore_->cloud();
  if (options_.stream.filterData) inCore_->setFilterData(true, options_.stream.rangeAttribute);
  LayoutProgress progress;
  {
    auto shown = report.show("laying out " + countText(cloud.size()) + " points", nullptr,
                             fractionOf(progress));
    coloring_ = inCore_->show(options_.coloring, {.progress = &progress});
  }
  origin_ = cloud.origin;
  hasColor_ = cloud.hasColor;
}

void Scene::openStreamed() {
  std::vector<std::string> notes;
  StreamingOptions streaming = streamingOptionsFor(options_.stream, renderer_, notes);
  for (const std::string& note : notes) options_.report.say(note);
  streaming.coloring = options_.coloring;
  if (plan_.tiles) {
    const TileSet& tiles = *plan_.tiles;
    options_.report.say("streaming " + std::to_string(tiles.tiles.size()) + " tiles (" +
                        countText(tiles.pointCount) + " points) as one forest");
    const std::shared_ptr<const ForestNodeSource> forest =
        openTileForest(tiles, {.read = options_.read});
    streamed_ = std::make_unique<StreamedCloud>(forest, renderer_, streaming);
    bounds_ = tiles.bounds.empty() ? streamed_->bounds() : tiles.bounds;
    hasColor_ = forest->hasColor();
    if (options_.tileBoxes) {
      std::vector<Box3d> boxes;
      for (const Tile& tile : tiles.tiles) boxes.push_back(tile.bounds);
      const std::vector<Point> points = tileBoxPoints(boxes, streamed_->origin());
      if (!points.empty()) tileBoxes_ = renderer_.addSet(points, {.hasColor = true});
    }
  } else {
    file_ = std::make_shared<const CopcFile>(plan_.files[0], options_.read);
    streamed_ = std::make_unique<StreamedCloud>(file_, renderer_, streaming);
    bounds_ = file_->statedBounds();
    hasColor_ = file_->hasColor();
  }
  origin_ = streamed_->origin();
  coloring_ = streamed_->coloring();
}

void Scene::openProduced() {
  const ProducedPoints& produced = *plan_.produced;
  LayoutProgress progress;
  {
    auto shown = options_.report.show(
        "laying out " + countText(produced.producer->pointCount()) + " points", nullptr,
        fractionOf(progress));
    // hasColor: points coloured by a map get eye-dome lighting under EdlMode::Auto, as in core.
    cylinders_ = renderer_.addSet(*produced.producer,
                                  {.hasColor = produced.hasColor, .progress = &progress});
  }
  bounds_ = produced.worldBounds;
  origin_ = produced.origin;
  hasColor_ = produced.hasColor;
}

uint64_t Scene::pointCount() const {
  if (file_) return file_->pointCount();
  if (plan_.tiles) return plan_.tiles->pointCount;
  if (plan_.kind == SceneKind::Cylinders) return plan_.demo.pointCount;
  if (plan_.produced) return plan_.produced->producer->pointCount();
  return inCore_ ? inCore_->cloud().size() : 0;
}

const PointCloud& Scene::cloud() const {
  static const PointCloud none;
  return inCore_ ? inCore_->cloud() : none;
}

SetSelection Scene::update(const Camera& camera, int widthPx, int heightPx) {
  if (!streamed_) return SetSelection::everySet();
  frameSets_ = streamed_->update(camera, widthPx, heightPx);
  if (tileBoxes_) frameSets_.push_back(*tileBoxes_);
  return SetSelection::only(frameSets_);
}

bool Scene::converged() const {
  return !streamed_ || streamed_->converged();
}

std::vector<std::string> Scene::takeErrors() {
  return streamed_ ? streamed_->takeErrors() : std::vector<std::string>{};
}

std::unique_ptr<Scene> openScene(const SceneSources& sources, const SceneOptions& options,
                                 Renderer& renderer) {
  return std::make_unique<Scene>(prepareScene(sources, options), options, renderer);
}

}  // namespace pcv
