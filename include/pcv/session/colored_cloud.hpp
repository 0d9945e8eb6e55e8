/// @brief Files read whole, merged into one cloud with one origin, and shown as one renderer set
/// coloured from that host copy (so a colour mode switches without reading again): the in-core
/// part of a scene, built at once (`pcv render`) or file by file as they finish (the viewer).
#pragma once

#include <optional>
#include <string>

#include <glm/glm.hpp>

#include "pcv/core/point_cloud.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/raster/renderer.hpp"

namespace pcv {

class ColoredCloud {
 public:
  /// `renderer` must outlive this; the set shown is removed when this is destroyed.
  explicit ColoredCloud(Renderer& renderer) : renderer_(renderer) {}
  ~ColoredCloud() { hide(); }
  ColoredCloud(const ColoredCloud&) = delete;
  ColoredCloud& operator=(const ColoredCloud&) = delete;

  /// Replaces the points with `cloud` (`replace`; the first cloud must), or merges it into
  /// them, in their origin.
  /// Nothing is shown until show().
  void merge(PointCloud&& cloud, bool replace);
  /// Drops the points and the set.
  void clear();

  /// Colours the points as `coloring` asks and lays them out as the one set shown (the previous
  /// one removed first, so the renderer can reuse its memory); returns the colouring used. An
  /// attribute the points lack: with `fallbackError`, coloured as the default (the file's
  /// colours, or elevation) and the reason written there; without, the InputError is thrown.
  /// Throws what the renderer throws (out of memory) with nothing shown. With `shownOrigin`, the
  /// set's points are offsets from it instead of from the cloud's own origin (a frame has one
  /// view origin: a streamed source's, say); the host copy keeps its own origin and precision.
  Coloring show(const ColoringOptions& coloring, const PointSetOptions& options = {},
                std::string* fallbackError = nullptr,
                const std::optional<glm::dvec3>& shownOrigin = std::nullopt);
  /// Whether the set shown carries what point filters read (Renderer::setFilterData), with the
  /// values of `rangeAttribute` (may be empty) for range filters; applied to the set shown now
  /// (shown again when it keeps no source order) and to every later show().
  void setFilterData(bool keep, const std::string& rangeAttribute = {});
  /// Removes the set; the points stay.
  void hide();

  const PointCloud& cloud() const { return cloud_; }
  /// The set shown; empty while hidden.
  const std::optional<PointSetId>& set() const { return set_; }

 private:
  Renderer& renderer_;
  PointCloud cloud_;
  /// Gives the set shown what filters read of the points, when they carry any of it.
  void applyFilterData();

  std::optional<PointSetId> set_;
  bool filterData_ = false;
  std::string rangeAttribute_;
  std::optional<ColoringOptions> shownColoring_;  ///< what show() was last asked
  std::optional<glm::dvec3> shownOrigin_;
  bool shownWithOrder_ = false;
};

}  // namespace pcv
