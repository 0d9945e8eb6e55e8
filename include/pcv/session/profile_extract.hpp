/// @brief The points of a profile's corridor, read from files, folders of tiles, VPCs or a cloud
/// in memory, and what a profile is written as: CSV (x, y, z, distance along the line, then the
/// attributes), LAS/LAZ through the point cloud writer, or a PNG of distance against height
/// drawn by the renderer in an orthographic front view. Reads only what the corridor needs:
/// COPC nodes and tiles whose boxes miss it are never decoded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/camera.hpp"
#include "pcv/core/image.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/core/profile_corridor.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/raster/render_settings.hpp"

namespace pcv {

class Renderer;

/// A profile's points, ordered by distance along the line (ties in the order read).
struct ProfilePoints {
  std::vector<glm::dvec3> positions;  ///< world coordinates, exactly as read
  std::vector<double> distances;      ///< along the polyline, one per point
  /// The same points as a cloud (origin: the first source's), with colours when every source
  /// has them and the union of the sources' attributes (NaN where a source lacks one).
  std::shared_ptr<PointCloud> cloud = std::make_shared<PointCloud>();
  uint64_t filesRead = 0;     ///< sources some of whose points were decoded
  uint64_t filesSkipped = 0;  ///< tiles whose header bounds miss the corridor: not decoded
  uint64_t nodesRead = 0;     ///< COPC nodes decoded
  uint64_t nodesTotal = 0;    ///< COPC nodes holding points, in the files opened
  uint64_t pointsTested = 0;  ///< points decoded and tested against the corridor
  /// What the readers warned of (a file cut short and read as far as it goes ...).
  std::vector<std::string> warnings;
  /// The CRS the first tile (LAS, LAZ, COPC) declares, for the unit of the lengths; unknown for
  /// other files and clouds in memory.
  CoordinateSystem crs;
  size_t size() const { return positions.size(); }
};

/// The corridor's points of `inputs` (files; folders and .vpc files stand for their tiles).
/// COPC files are read node by node (nodes whose box meets the corridor); LAS/LAZ tiles whose
/// header bounds miss it are skipped; other files are read whole. Throws InputError for a file
/// that cannot be read.
ProfilePoints extractProfile(const std::vector<std::string>& inputs,
                             const ProfileCorridor& corridor, const ReadOptions& options = {});

/// The corridor's points of a cloud held in memory (the viewer's scene).
ProfilePoints extractProfile(const PointCloud& cloud, const ProfileCorridor& corridor);

/// Writes the CSV: a header row "x,y,z,distance[,red,green,blue],attribute...", then one row per
/// point with the shortest decimal text that reads back to the same double. Where the profile's
/// CRS states its units, the lengths' names carry them: "x (ftUS),y (ftUS),z (m),distance
/// (ftUS)" (z in the vertical unit where one is stated, else the horizontal one).
void writeProfileCsv(const ProfilePoints& profile, const std::filesystem::path& path);

/// The points as (distance, 0, z) offsets: the profile's own plane, drawn in a front view.
PointCloud profilePlaneCloud(const ProfilePoints& profile);

/// The orthographic front view the profile's image is drawn from: fitted to the points and the
/// line's start, at true scale (one world unit is as many pixels across as up).
Camera profileImageCamera(const ProfilePoints& profile, int widthPx, int heightPx);

/// (distance along the line, height) at the centre of pixel (xPx, yPx) of that image, row 0 at
/// the bottom: for measuring in the profile.
glm::dvec2 profileImagePosition(const Camera& camera, int widthPx, int heightPx, double xPx,
                                double yPx);

/// The profile's image: distance along the line to the right, height up, drawn by `renderer`
/// from profileImageCamera. The renderer's sets are replaced by the profile's.
Image renderProfileImage(const ProfilePoints& profile, Renderer& renderer, int widthPx,
                         int heightPx, const RenderSettings& settings = {});

/// The kinds a profile is written as, from the name: .csv, .las, .laz, .png (any case). Throws
/// InputError naming the extension otherwise.
enum class ProfileFileKind { Csv, Las, Laz, Png };
ProfileFileKind profileFileKindFor(const std::filesystem::path& path);

}  // namespace pcv
