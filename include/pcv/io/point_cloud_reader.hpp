/// @brief Opens point cloud files (PLY, LAS, PCD, XYZ/TXT/CSV/PTS) into a PointCloud, and
/// summarizes them for `pcv info`. The format is chosen by the file's magic bytes first and its
/// extension second; every malformed file throws InputError naming the file, the byte offset or
/// line, and what was expected there.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/io/coordinate_system.hpp"

namespace pcv {

namespace laz {
class ChunkBatchDecoder;
}

/// The leading points of a file that a reader has finished decoding, so a viewer can show a
/// large file while it loads. Valid only during the call that receives it.
struct PointPrefix {
  std::span<const Point> points;  ///< the file's first points.size() points, offsets from origin
  glm::dvec3 origin{0.0};         ///< the cloud's final origin
  bool hasColor = false;          ///< colours came from the file (else white until coloured)
};

/// Shared between a loading thread and a UI thread: the reader advances `bytesDone` towards
/// `bytesTotal` (bytes of the file, not points) and stops with LoadCancelled soon after `cancel`
/// is set.
///
/// Binary records (LAS, binary PLY, binary PCD) are decoded in a few consecutive slices, each in
/// parallel; after each slice the reader publishes the prefix. The prefix goes to `onPrefix` on
/// the thread that called readPointCloud, after the slice's workers have joined, so the callback
/// reads finished points with no race and no copy by the reader; whoever hands them to another
/// thread copies what it needs (the viewer copies the new part at most every 250 ms). Published
/// points are final except that non-finite ones are dropped once the whole file is decoded.
struct LoadProgress {
  std::atomic<uint64_t> bytesDone{0};   ///< bytes of the file parsed so far
  std::atomic<uint64_t> bytesTotal{0};  ///< file size in bytes, set when the file is opened
  std::atomic<bool> cancel{false};      ///< set by the UI to stop the load
  /// Leading points decoded so far (count of points, not bytes); stored with release after each
  /// slice, 0 when a load starts. Binary readers decode in slices only when onPrefix is set
  /// (slicing costs speed); otherwise this jumps to the total at the end. Text formats leave it
  /// at 0.
  std::atomic<uint64_t> pointsReady{0};
  /// Optional; set before the load starts, called on the loading thread after each slice with the
  /// prefix decoded so far (which only grows; the last call covers every record of the file).
  std::function<void(const PointPrefix& prefix)> onPrefix;

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

enum class PointFileFormat { Unknown, Ply, Las, Pcd, Text, E57 };

/// What to read of a file. The defaults read everything.
struct ReadOptions {
  /// Multi-scan formats (E57): read only this scan (0-based); empty reads and merges all.
  std::optional<uint32_t> scan;
  /// Attributes to decode, by the names `pcv info` lists; empty decodes the default ones and
  /// `moreAttributes`. Layered formats (LAZ point formats 6-10) skip the layers nobody asked
  /// for; positions are always read.
  std::vector<std::string> attributes;
  /// With `attributes` empty: decoded besides the default ones (a colour or range attribute).
  /// By default LAS, LAZ and COPC decode intensity, classification and the return numbers
  /// (lasAttributeReadByDefault); their other fields (GPS time, point source ID, scan angle,
  /// flags, user data, NIR, extra bytes) cost host memory per point and are decoded when named
  /// here or with allAttributes. Other formats decode every attribute.
  std::vector<std::string> moreAttributes;
  /// Decode every attribute the file has (Python's read, `pcv info --stats`).
  bool allAttributes = false;
  /// Decode the file's colours (false skips them where the format allows).
  bool colors = true;
  /// Read the header only: the point count, bounds and fields as the file declares them, at any
  /// file size; no point is decoded and the cloud comes back empty.
  bool headerOnly = false;
  /// A file cut short (a LAS file with fewer records than its header declares, a LAZ file whose
  /// chunks end early): false reads the whole records there are, with a warning
  /// (FileSummary::missingPoints); true refuses the file with InputError.
  bool strict = false;
  /// LAZ and COPC: decodes the chunks many at a time on another device (pcv_io_cuda's GPU
  /// decoder); null decodes them on the CPU's cores. Files it does not support stay on the CPU.
  std::shared_ptr<laz::ChunkBatchDecoder> lazDecoder;

  /// Adds `name` to moreAttributes (nothing for an empty name): a colour or range attribute the
  /// reads must give.
  void alsoDecode(const std::string& name) {
    if (!name.empty() &&
        std::find(moreAttributes.begin(), moreAttributes.end(), name) == moreAttributes.end()) {
      moreAttributes.push_back(name);
    }
  }
  /// Whether a reader decodes attribute `name`, which it decodes by default when `byDefault`.
  bool wantsAttribute(const std::string& name, bool byDefault) const {
    const auto named = [&name](const std::vector<std::string>& names) {
      return std::find(names.begin(), names.end(), name) != names.end();
    };
    if (!attributes.empty()) return named(attributes);
    return allAttributes || byDefault || named(moreAttributes);
  }
};

/// The attributes a LAS, LAZ or COPC file of point format `pointFormat` (0-10) carries besides
/// its positions and colours, extra bytes aside, in the order its reads give them (what `pcv
/// info` lists of such a file).
std::vector<std::string> lasPointAttributes(int pointFormat);

/// Whether LAS, LAZ and COPC reads decode the field `name` when ReadOptions do not name it:
/// intensity, classification and the return numbers, what colouring and filters use most.
bool lasAttributeReadByDefault(const std::string& name);

/// What `pcv info` prints about a file.
struct FileSummary {
  std::string format;   ///< "PLY", "LAS", "PCD", "Text"
  std::string details;  ///< version and encoding, e.g. "1.4, point format 6"
  /// Points loaded (non-finite points dropped); from the header: the points it declares.
  uint64_t pointCount = 0;
  uint64_t droppedPoints = 0;  ///< points with a NaN or infinite coordinate, not loaded
  /// Computed from the points; from the header, the bounds it declares (empty when none).
  Box3d worldBounds;
  bool fromHeader = false;  ///< counts and bounds as the header declares them; no point was read
  bool pointCountKnown = true;  ///< false: the format declares no count (text), pointCount is 0
  glm::dvec3 origin{0.0};       ///< the origin the offsets are relative to
  bool hasColor = false;        ///< RGB came from the file
  std::vector<std::string> attributes;  ///< names of the scalar attributes
  /// Format-specific lines for `pcv info` (LAZ compressor and chunks, E57 scans ...).
  std::vector<std::string> notes;
  /// Points the header declares that the file does not hold (it was cut short, and read with
  /// ReadOptions::strict off); 0 for a whole file. Also said in `warnings`.
  uint64_t missingPoints = 0;
  /// Things the user should know that did not stop the load (a count line that disagrees with
  /// the rows, colours that carry no information ...); also printed on stderr.
  std::vector<std::string> warnings;
  /// The coordinate system the file declares (LAS/LAZ/COPC VLRs); unknown for other formats.
  CoordinateSystem crs;
};

/// Reads a whole file. Points with a NaN or infinite coordinate (organized PCD clouds, broken
/// scans) are dropped, always, so counts and bounds agree across formats. The origin is a point of
/// the cloud rounded to whole units, so UTM-sized coordinates keep sub-millimetre offsets.
/// Throws InputError (malformed, a format or LAZ compressor pcv does not read, unreadable),
/// LoadCancelled.
PointCloud readPointCloud(const std::filesystem::path& path, LoadProgress* progress = nullptr);

/// Like readPointCloud, and also describes the file; `summary` may be null.
PointCloud readPointCloud(const std::filesystem::path& path, LoadProgress* progress,
                          FileSummary* summary);

/// Reads what `options` asks for; `progress` and `summary` may be null.
PointCloud readPointCloud(const std::filesystem::path& path, const ReadOptions& options,
                          LoadProgress* progress, FileSummary* summary);

/// Reads the file and describes it (the points are discarded).
FileSummary summarizePointCloud(const std::filesystem::path& path);

/// Describes the file from its header alone (ReadOptions::headerOnly): instant, bounded
/// memory, at any file size.
FileSummary describePointFile(const std::filesystem::path& path, ReadOptions options = {});

/// The format by magic bytes, then by extension; Unknown when neither matches.
PointFileFormat detectPointFileFormat(const std::filesystem::path& path);

/// Appends `other` to `into`, re-expressing its offsets relative to `into`'s origin. Attributes
/// present in only one of them are filled with NaN for the other's points.
void appendPointCloud(PointCloud& into, const PointCloud& other);

}  // namespace pcv
