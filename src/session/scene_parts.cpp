// A scene's parts answered together: the sets a frame draws, their points, bounds and picks.
#include "pcv/session/scene_parts.hpp"

#include <algorithm>
#include <filesystem>

#include "pcv/core/point_coloring.hpp"
#include "pcv/raster/view_setup.hpp"

namespace pcv {

SceneParts::~SceneParts() {
  closeStream();  // stops its decoders before the other sets go
}

void SceneParts::openStream(const ScenePlan& plan, const ReadOptions& read,
                            const StreamLimits& limits, const ColoringOptions& coloring,
                            const SessionReport& report,
                            std::shared_ptr<const ForestNodeSource> forest,
                            const std::vector<PointEdit>& edits) {
  std::vector<std::string> notes;
  StreamingOptions streaming = streamingOptionsFor(limits, renderer, notes);
  for (const std::string& note : notes) report.say(note);
  streaming.coloring = coloring;
  stream = std::make_unique<StreamPart>(plan, read, renderer, streaming, report, std::move(forest),
                                        edits);
  origin = stream->cloud().origin();
}

void SceneParts::setTileBoxes(bool shown) {
  tileBoxesShown_ = shown;
  if (!shown) {
    tileBoxes.reset();
  } else if (!tileBoxes && stream && stream->tiles()) {
    // Outside the stream's reserved pool, as files beside it are.
    tileBoxes = std::make_unique<TileBoxes>(renderer, *stream->tiles(), origin);
  }
}

void SceneParts::closeStream() {
  tileBoxes.reset();
  stream.reset();  // its reserved pool goes with it: the sets of the files beside it stay
}

Coloring SceneParts::showInCore(const ColoringOptions& coloring, const PointSetOptions& options,
                                std::string* fallbackError) {
  const std::optional<glm::dvec3> shownOrigin =
      stream ? std::optional<glm::dvec3>(origin) : std::nullopt;
  const Coloring used = inCore.colored().show(coloring, options, fallbackError, shownOrigin);
  if (!stream) origin = inCore.cloud().origin;
  return used;
}

std::optional<Box3d> SceneParts::showPreview(const LoadPreview& update) {
  if (preview.isAnotherFile(update)) {
    preview.begin(update);
    if (update.replaces || !inCore.holds()) {
      // The file replaces what is shown: its points alone, in its own origin (beside a stream,
      // in the stream's).
      cylinders.reset();
      inCore.colored().hide();
      if (!stream) origin = update.origin;
    }
  }
  if (!preview.add(update, origin)) return std::nullopt;
  Box3d shown = preview.bounds();
  if (inCore.colored().set()) shown.extend(inCore.bounds());
  if (stream) shown.extend(stream->bounds());
  return shown;
}

void SceneParts::hideInCore() {
  cylinders.reset();
  inCore.colored().hide();
  preview.clear();
}

SetSelection SceneParts::drawnSets() const {
  if (!stream) return SetSelection::everySet();
  // The stream's chosen nodes (it keeps others resident that this view does not want), and
  // every set of the parts beside it.
  drawn_ = stream->frameSets();
  if (inCore.colored().set()) drawn_.push_back(*inCore.colored().set());
  drawn_.insert(drawn_.end(), preview.sets().begin(), preview.sets().end());
  if (tileBoxes && tileBoxes->set()) drawn_.push_back(*tileBoxes->set());
  return SetSelection::only(drawn_);
}

uint64_t SceneParts::pointsDrawn() const {
  if (!stream) return renderer.pointCount();
  uint64_t points = stream->cloud().stats().pointsDrawn;
  if (inCore.colored().set()) points += renderer.pointCount(*inCore.colored().set());
  for (PointSetId set : preview.sets()) points += renderer.pointCount(set);
  return points;
}

Box3d SceneParts::filesBounds() const {
  Box3d bounds = stream ? stream->bounds() : Box3d{};
  if (inCore.holds()) bounds.extend(inCore.bounds());
  return bounds;
}

Box3d SceneParts::shownBounds() const {
  if (!holdsFiles() && preview.bounds().empty()) return cylinders ? cylinders->bounds() : Box3d{};
  Box3d shown = preview.bounds();
  shown.extend(filesBounds());
  return shown;
}

std::vector<std::string> SceneParts::files() const {
  std::vector<std::string> files;
  if (stream) files.push_back(stream->path());
  files.insert(files.end(), inCore.files().begin(), inCore.files().end());
  return files;
}

std::vector<std::string> SceneParts::colorableAttributes() const {
  std::vector<std::string> names = pcv::colorableAttributes(inCore.cloud());
  if (!stream) return names;
  // Both kinds: a file beside the stream that lacks one is shown in its colours, with an error.
  for (const std::string& name : stream->attributeNames()) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  for (const char* axis : {"x", "y", "z"}) {
    if (std::find(names.begin(), names.end(), axis) == names.end()) names.push_back(axis);
  }
  return names;
}

std::optional<PickedWorldPoint> SceneParts::pick(const Camera& camera,
                                                 const RenderSettings& settings, int width,
                                                 int height, int xPx, int yPx) const {
  const ViewTransform view = makeViewTransform(camera, width, height, origin);
  const std::optional<PickedPoint> picked = renderer.pick(drawnSets(), view, settings, xPx, yPx);
  if (!picked) return std::nullopt;
  PickedWorldPoint world{.inCoreIndex = inCore.pickedIndex(*picked)};
  if (world.inCoreIndex) {
    // A file's own point: its double coordinates, and the index finds its attributes.
    const Point& p = inCore.cloud().points[*world.inCoreIndex];
    world.position = inCore.cloud().origin + glm::dvec3(p.x, p.y, p.z);
  } else {
    // The cylinders, a file still loading or a streamed node (it keeps no attributes on the
    // host): the stored point.
    world.position =
        origin + glm::dvec3(picked->position[0], picked->position[1], picked->position[2]);
  }
  return world;
}

std::string SceneParts::key() const {
  const std::vector<std::string> shown = files();
  if (shown.empty()) {
    return "cylinders points=" + std::to_string(demo.pointCount) +
           " seed=" + std::to_string(demo.seed);
  }
  std::string key;
  for (const std::string& file : shown) {
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::weakly_canonical(file, error);
    key += (key.empty() ? "" : " + ") + (error ? file : absolute.string());
  }
  return key;
}

}  // namespace pcv
