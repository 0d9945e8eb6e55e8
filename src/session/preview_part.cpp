// A file's decoded prefix, shown piece by piece.
#include "pcv/session/preview_part.hpp"

#include "pcv/core/error.hpp"
#include "pcv/core/point_coloring.hpp"

namespace pcv {

void PreviewPart::begin(const LoadPreview& update) {
  clear();
  serial_ = update.fileSerial;
}

bool PreviewPart::add(const LoadPreview& update, const glm::dvec3& shownOrigin) {
  if (update.fileSerial != serial_ || update.firstPoint != points_) return false;
  // Rgb: the file's own colours, or elevation when it has none (the preview has no attributes
  // for the other modes; the finished file gets the chosen colouring).
  PointCloud piece;
  piece.origin = update.origin;
  piece.hasColor = update.hasColor;
  piece.points.assign(update.points.begin(), update.points.end());
  UninitializedVector<Point> colored;
  coloredPoints(piece, ColoringOptions{}, colored);
  piece.points = std::move(colored);
  PointCloud shown;  // in the origin the renderer's points share
  shown.origin = shownOrigin;
  appendPointCloud(shown, piece);
  points_ += update.points.size();
  bounds_.extend(piece.worldBounds());
  try {
    sets_.push_back(renderer_.addSet(shown.points, {.hasColor = update.hasColor}));
  } catch (const Error&) {
    return false;
  }
  return true;
}

void PreviewPart::clear() {
  for (PointSetId set : sets_) renderer_.removeSet(set);
  sets_.clear();
  serial_ = 0;
  points_ = 0;
  bounds_ = {};
}

}  // namespace pcv
