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

void SceneParts::showTileBoxes() {
  if (tileBoxes || !stream || !stream->tiles()) return;
  // Outside the stream's reserved pool, as files beside it are.
  tileBoxes = std::make_unique<TileBoxes>(renderer, *stream->tiles(), origin);
}

void SceneParts::closeStream() {
  tileBoxes.reset();
  stream.reset();  // its reserved pool goes with it: the sets of the files beside it stay
}

void SceneParts::hideInCore() {
  cylinders.reset();
  inCore.coloured().hide();
  preview.clear();
}

SetSelection SceneParts::drawnSets() const {
  if (!stream) return SetSelection::everySet();
  // The stream's chosen nodes (it keeps others resident that this view does not want), and
  // every set of the parts beside it.
  drawn_ = stream->frameSets();
  if (inCore.coloured().set()) drawn_.push_back(*inCore.coloured().set());
  drawn_.insert(drawn_.end(), preview.sets().begin(), preview.sets().end());
  if (tileBoxes && tileBoxes->set()) drawn_.push_back(*tileBoxes->set());
  return SetSelection::only(drawn_);
}

uint64_t SceneParts::pointsDrawn() const {
  if (!stream) return renderer.pointCount();
  uint64_t points = stream->cloud().stats().pointsDrawn;
  if (inCore.coloured().set()) points += renderer.pointCount(*inCore.coloured().set());
  for (PointSetId set : preview.sets()) points += renderer.pointCount(set);
  return points;
}

Box3d SceneParts::filesBounds() const {
  Box3d bounds = stream ? stream->bounds() : Box3d{};
  if (inCore.holds()) bounds.extend(inCore.bounds());
  return bounds;
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

std::string SceneParts::key(const DemoScene& demo) const {
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
