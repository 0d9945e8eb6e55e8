/// @brief What a scene is opened from, and the one place that decides how: the seed's
/// cylinders, files read whole ("in core"), one COPC file streamed from its octree, or LAS/LAZ
/// files too large for memory streamed from their COPC cache. Every front end (render, view,
/// bench, the viewer's Open) asks here, so they all decide alike.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/core/point_producer.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/stream_limits.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv {

/// The seed's cylinders: a scene source without a file.
struct DemoCylinders {
  uint64_t pointCount = 10'000'000;
  uint64_t seed = 1;
};

/// Points a producer writes where the renderer wants them (arrays a caller holds on the GPU:
/// raster/device_point_arrays.hpp), laid out as one set without passing through the session.
struct ProducedPoints {
  std::shared_ptr<const PointProducer> producer;
  Box3d worldBounds;
  glm::dvec3 origin{0.0};  ///< what the produced positions are offsets from
  bool hasColor = false;   ///< the producer's colours are the data's own
};

/// The sources of a scene: files and points already in memory, or the cylinders when there are
/// none.
struct SceneSources {
  /// Merged when read whole; a folder stands for the .las/.laz/.copc.laz files under it.
  std::vector<std::string> files;
  /// Points given in memory (an array from a caller), merged after the files: the scene is then
  /// read whole, whatever the files are.
  std::vector<std::shared_ptr<const PointCloud>> clouds;
  /// Points the renderer takes from a producer (on the GPU): alone, never merged with files or
  /// clouds (planScene refuses the mix).
  std::optional<ProducedPoints> produced;
  DemoCylinders demo;  ///< the cylinders, when there are neither files nor clouds
};

enum class SceneKind {
  Cylinders,  ///< no file: the seed's scene, generated
  InCore,     ///< the files read whole and merged
  Streamed,   ///< one COPC file (maybe a cache of the files) or a dataset of tiles, streamed
  Produced,   ///< points from a producer (arrays on the GPU), one set
};

/// How a scene is opened: the decision, from headers alone.
struct ScenePlan {
  SceneKind kind = SceneKind::Cylinders;
  DemoCylinders demo;  ///< the cylinders, when kind is Cylinders
  /// What is opened: the files (folders replaced by their tiles), or the one COPC file streamed.
  std::vector<std::string> files;
  /// Names the sources for the user: the one file or folder, or the first and how many more.
  std::string label;
  /// Set when the files stream as a dataset: one forest of their tiles (tile_forest.hpp), never
  /// converted. Their headers, read once here.
  std::shared_ptr<const TileSet> tiles;
  std::vector<std::shared_ptr<const PointCloud>> clouds;  ///< points given in memory, in core
  std::optional<ProducedPoints> produced;                 ///< when kind is Produced
  /// Set when the files stream from their COPC cache: the files it converts.
  std::vector<std::string> cachedFrom;
  bool cacheMissing = false;  ///< the cache must be made (converted) before the stream opens
  uint64_t inCoreBytes = 0;   ///< what the files take read whole (when a cache was chosen)
  uint64_t limitBytes = 0;    ///< the memory they were compared with
  bool limitGiven = false;    ///< that limit was StreamLimits::memoryBytes, not the available
  std::vector<std::string> warnings;  ///< for the user (a tile a VPC lists twice)

  /// A streamed scene keeps the compact layout only (8 bytes a point): three times the points
  /// in the GPU budget.
  RendererOptions rendererOptions() const;
};

/// Whether `files` are one COPC file that `limits` say to stream.
bool streamsAsCopc(const std::vector<std::string>& files, const StreamLimits& limits);

/// The decision: cylinders without files or clouds; clouds in memory make the scene in core; one
/// COPC file streams unless `limits.inCore`. A dataset streams as one forest of its tiles (unless
/// `limits.inCore`): a folder, several LAS/LAZ/COPC files of which one at least is COPC, or
/// several LAS/LAZ files that take more than `limits.memoryBytes` read whole (0: the memory
/// available now); its tiles must state one coordinate system. One LAS or LAZ file past that
/// limit streams from its COPC cache (unless `limits.inCore`); everything else is read whole (its
/// readers refuse what does not fit, with the sizes). Reads headers only (a dataset's in parallel).
ScenePlan planScene(const SceneSources& sources, const StreamLimits& limits);

/// World bounds of the cylinders of `demo` (from each one's centre, axis, radius, half height).
Box3d demoCylindersBounds(const DemoCylinders& demo);

}  // namespace pcv
