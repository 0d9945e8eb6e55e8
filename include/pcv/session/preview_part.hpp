/// @brief The file being read, shown as far as it is decoded (CloudLoader::takePreview): each
/// update of its prefix a set of its own, so only the new points are uploaded, until the file
/// itself arrives and replaces them.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/cloud_loader.hpp"

namespace pcv {

class PreviewPart {
 public:
  /// `renderer` must outlive this; the sets are removed when this goes.
  explicit PreviewPart(Renderer& renderer) : renderer_(renderer) {}
  ~PreviewPart() { clear(); }
  PreviewPart(const PreviewPart&) = delete;
  PreviewPart& operator=(const PreviewPart&) = delete;

  /// Whether `update` is of a file other than the one shown (begin() it then).
  bool isAnotherFile(const LoadPreview& update) const { return update.fileSerial != serial_; }
  /// Drops what is shown and shows the file `update` is of from now on.
  void begin(const LoadPreview& update);
  /// Adds `update`'s points, in the file's own colours or by elevation when it has none, as
  /// offsets from `shownOrigin`. False when they do not continue the prefix shown, or the
  /// renderer has no room (the finished file reports that).
  bool add(const LoadPreview& update, const glm::dvec3& shownOrigin);
  /// Drops what is shown.
  void clear();

  const std::vector<PointSetId>& sets() const { return sets_; }
  /// Points of the file shown so far.
  uint64_t points() const { return points_; }
  /// Their world bounds.
  const Box3d& bounds() const { return bounds_; }

 private:
  Renderer& renderer_;
  std::vector<PointSetId> sets_;
  uint64_t serial_ = 0;  // LoadPreview::fileSerial of the file shown; 0: none
  uint64_t points_ = 0;
  Box3d bounds_;
};

}  // namespace pcv
