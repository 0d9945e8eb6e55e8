/// @brief Opens point cloud files (PLY, LAS, PCD, XYZ/TXT/CSV/PTS) into a PointCloud, and
/// summarizes them for `pcv info`. The format is chosen by the file's magic bytes first and its
/// extension second; every malformed file throws InputError naming the file, the byte offset or
/// line, and what was expected there.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/point_cloud.hpp"

namespace pcv {

/// Shared between a loading thread and a UI thread: the reader advances `bytesDone` towards
/// `bytesTotal` (bytes of the file, not points) and stops with LoadCancelled soon after `cancel`
/// is set.
struct LoadProgress {
  std::atomic<uint64_t> bytesDone{0};   ///< bytes of the file parsed so far
  std::atomic<uint64_t> bytesTotal{0};  ///< file size in bytes, set when the file is opened
  std::atomic<bool> cancel{false};      ///< set by the UI to stop the load

  /// 0..1, or 0 while the total is not known yet.
  double fraction() const {
    const uint64_t total = bytesTotal.load();
    return total == 0 ? 0.0 : double(bytesDone.load()) / double(total);
  }
};

/// Thrown when LoadProgress::cancel stopped a load.
class LoadCancelled : public Error {
 public:
  using Error::Error;
};

enum class PointFileFormat { Unknown, Ply, Las, Pcd, Text };

/// What `pcv info` prints about a file.
struct FileSummary {
  std::string format;                   ///< "PLY", "LAS", "PCD", "Text"
  std::string details;                  ///< version and encoding, e.g. "1.4, point format 6"
  uint64_t pointCount = 0;              ///< points loaded (non-finite points dropped)
  uint64_t droppedPoints = 0;           ///< points with a NaN or infinite coordinate, not loaded
  Box3d worldBounds;                    ///< computed from the points, never trusted from a header
  glm::dvec3 origin{0.0};               ///< the origin the offsets are relative to
  bool hasColor = false;                ///< RGB came from the file
  std::vector<std::string> attributes;  ///< names of the scalar attributes
};

/// Reads a whole file. Points with a NaN or infinite coordinate (organized PCD clouds, broken
/// scans) are dropped, always, so counts and bounds agree across formats. The origin is a point of
/// the cloud rounded to whole units, so UTM-sized coordinates keep sub-millimetre offsets.
/// Throws InputError (malformed, unsupported such as LAZ, unreadable), LoadCancelled.
PointCloud readPointCloud(const std::filesystem::path& path, LoadProgress* progress = nullptr);

/// Like readPointCloud, and also describes the file; `summary` may be null.
PointCloud readPointCloud(const std::filesystem::path& path, LoadProgress* progress,
                          FileSummary* summary);

/// Reads the file and describes it (the points are discarded).
FileSummary summarizePointCloud(const std::filesystem::path& path);

/// The format by magic bytes, then by extension; Unknown when neither matches.
PointFileFormat detectPointFileFormat(const std::filesystem::path& path);

/// Appends `other` to `into`, re-expressing its offsets relative to `into`'s origin. Attributes
/// present in only one of them are filled with NaN for the other's points.
void appendPointCloud(PointCloud& into, const PointCloud& other);

}  // namespace pcv
