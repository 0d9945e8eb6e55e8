// Dispatch: magic bytes first, extension second; then the format's reader, then the rules every
// format shares (non-finite points dropped, summary computed from the points).
#include "pcv/io/point_cloud_reader.hpp"

#include <algorithm>

#include "cloud_checks.hpp"
#include "pcv/core/host_memory.hpp"
#include "mapped_file.hpp"
#include "pcv/io/byte_source.hpp"
#include "pcv/io/remote_source.hpp"
#include "readers.hpp"
#include "tokens.hpp"

namespace pcv {
namespace {

std::string extensionOf(const std::filesystem::path& path) {
  return lowerCase(path.extension().string());
}

bool startsWith(std::span<const uint8_t> bytes, std::string_view prefix) {
  return bytes.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), bytes.begin(),
                    [](char a, uint8_t b) { return uint8_t(a) == b; });
}

PointFileFormat detect(std::span<const uint8_t> bytes, const std::string& extension) {
  if (startsWith(bytes, "LASF")) return PointFileFormat::Las;
  if (startsWith(bytes, "ASTM-E57")) return PointFileFormat::E57;
  if (startsWith(bytes, "ply") && bytes.size() > 3 &&
      (bytes[3] == '\n' || bytes[3] == '\r' || bytes[3] == ' ')) {
    return PointFileFormat::Ply;
  }
  if (startsWith(bytes, "# .PCD") || startsWith(bytes, "VERSION") || startsWith(bytes, "FIELDS")) {
    return PointFileFormat::Pcd;
  }
  if (extension == ".ply") return PointFileFormat::Ply;
  if (extension == ".las" || extension == ".laz") return PointFileFormat::Las;
  if (extension == ".pcd") return PointFileFormat::Pcd;
  if (extension == ".e57") return PointFileFormat::E57;
  if (extension == ".xyz" || extension == ".txt" || extension == ".csv" || extension == ".pts" ||
      extension == ".asc") {
    return PointFileFormat::Text;
  }
  return PointFileFormat::Unknown;
}

/// The first bytes of `source`, enough to tell the formats apart.
std::span<const uint8_t> headOf(const ByteSource& source, std::vector<uint8_t>& storage) {
  return source.read(0, std::min<uint64_t>(source.size(), 64), storage);
}

}  // namespace

PointFileFormat detectPointFileFormat(const std::filesystem::path& path) {
  if (isRemoteLocation(path.string())) {
    const std::shared_ptr<const ByteSource> source = openByteSource(path.string());
    std::vector<uint8_t> storage;
    return detect(headOf(*source, storage), extensionOf(path));
  }
  const io::MappedFile file(path, false);  // its first bytes only
  return detect(file.bytes(), extensionOf(path));
}

PointCloud readPointCloud(const std::filesystem::path& path, LoadProgress* progress) {
  return readPointCloud(path, progress, nullptr);
}

PointCloud readPointCloud(const std::filesystem::path& path, LoadProgress* progress,
                          FileSummary* summary) {
  return readPointCloud(path, ReadOptions{}, progress, summary);
}

namespace {

io::ReadResult readByFormat(std::span<const uint8_t> bytes, const std::string& extension,
                            const io::ReadContext& context) {
  switch (detect(bytes, extension)) {
    case PointFileFormat::Ply:
      return io::readPly(bytes, context);
    case PointFileFormat::Las:
      return io::readLas(bytes, context);
    case PointFileFormat::Pcd:
      return io::readPcd(bytes, context);
    case PointFileFormat::Text:
      return io::readText(bytes, context, extension);
    case PointFileFormat::E57:
      return io::readE57(bytes, context);
    case PointFileFormat::Unknown:
      break;
  }
  context.fail("unknown format (extension '" + extension +
               "'): expected PLY, LAS, PCD, E57 or a text point list (.xyz .txt .csv .pts)");
}

/// The rules every format shares: non-finite points dropped; colours that carry no
/// information are not shown as colours.
uint64_t applyCommonRules(io::ReadResult& result, const io::ReadContext& context) {
  const uint64_t dropped = io::dropNonFinitePoints(result.cloud);
  if (io::colorsAreAllBlack(result.cloud)) {
    result.cloud.hasColor = false;
    result.warnings.push_back(context.file +
                              ": every point's colour is black (colour fields never written); "
                              "coloured by elevation instead");
  }
  return dropped;
}

void fillSummary(const io::ReadResult& result, uint64_t dropped, FileSummary& summary) {
  summary.format = result.format;
  summary.details = result.details;
  summary.pointCount = result.declared ? result.declared->points : result.cloud.size();
  summary.droppedPoints = dropped;
  summary.worldBounds = result.declared ? result.declared->worldBounds : result.worldBounds;
  summary.fromHeader = result.declared.has_value();
  summary.pointCountKnown = !result.declared || result.declared->pointsKnown;
  summary.origin = result.cloud.origin;
  summary.hasColor = result.cloud.hasColor;
  summary.notes = result.notes;
  summary.warnings = result.warnings;
  summary.missingPoints = result.missingPoints;
  summary.crs = result.crs;
  summary.attributes.clear();
  for (const auto& attribute : result.cloud.attributes)
    summary.attributes.push_back(attribute.name);
}

/// A file at a URL: a LAS, LAZ or COPC header read by ranges alone when only the header is
/// wanted; otherwise the whole file fetched into memory (by ranges in parallel; refused with the
/// sizes when it does not fit) and read like a local one.
io::ReadResult readRemote(const ByteSource& source, const std::string& extension,
                          const io::ReadContext& context) {
  if (source.size() == 0) context.fail("file is empty, expected a point cloud");
  std::vector<uint8_t> storage;
  if (context.headerOnly() && detect(headOf(source, storage), extension) == PointFileFormat::Las) {
    return io::readLas(source, context);
  }
  const std::vector<uint8_t> bytes = readWholeSource(source);
  return readByFormat(bytes, extension, context);
}

}  // namespace

PointCloud readPointCloud(const std::filesystem::path& path, const ReadOptions& options,
                          LoadProgress* progress, FileSummary* summary) {
  if (isRemoteLocation(path.string())) {
    const std::shared_ptr<const ByteSource> source = openByteSource(path.string());
    if (progress) {
      progress->bytesDone = 0;
      progress->bytesTotal = source->size();
      progress->pointsReady = 0;
    }
    const io::ReadContext context{path.string(), progress, &options};
    io::ReadResult result = readRemote(*source, extensionOf(path), context);
    const uint64_t dropped = options.headerOnly ? 0 : applyCommonRules(result, context);
    if (progress) progress->bytesDone = source->size();
    if (summary) fillSummary(result, dropped, *summary);
    return std::move(result.cloud);
  }
  // A header alone (describePointFile: a dataset's index of thousands of tiles) reads a page or
  // two, not the whole file ahead.
  const io::MappedFile file(path, !options.headerOnly);
  if (progress) {
    progress->bytesDone = 0;
    progress->bytesTotal = file.size();
    progress->pointsReady = 0;
  }
  const io::ReadContext context{path.string(), progress, &options};
  if (file.size() == 0) context.fail("file is empty, expected a point cloud");
  io::ReadResult result = readByFormat(file.bytes(), extensionOf(path), context);
  const uint64_t dropped = options.headerOnly ? 0 : applyCommonRules(result, context);
  if (progress) progress->bytesDone = file.size();
  if (summary) fillSummary(result, dropped, *summary);
  return std::move(result.cloud);
}

FileSummary describePointFile(const std::filesystem::path& path, ReadOptions options) {
  options.headerOnly = true;
  FileSummary summary;
  readPointCloud(path, options, nullptr, &summary);
  return summary;
}

FileSummary summarizePointCloud(const std::filesystem::path& path) {
  FileSummary summary;
  readPointCloud(path, nullptr, &summary);
  return summary;
}

void appendPointCloud(PointCloud& into, const PointCloud& other) {
  if (into.points.empty() && into.attributes.empty()) {
    into = other;
    return;
  }
  const uint64_t before = into.points.size();
  requireHostMemory("merging the files' points", other.size(),
                    sizeof(Point) + 4 * std::max(into.attributes.size(), other.attributes.size()));
  const glm::dvec3 shift = other.origin - into.origin;
  into.points.reserve(before + other.points.size());
  for (const Point& p : other.points) {
    const glm::dvec3 moved = glm::dvec3(p.x, p.y, p.z) + shift;
    into.points.push_back({float(moved.x), float(moved.y), float(moved.z), p.rgba});
  }
  into.hasColor = into.hasColor || other.hasColor;
  // Files of different LAS point formats have no one format to write back.
  if (into.lasPointFormat != other.lasPointFormat) into.lasPointFormat = -1;
  const double missing = std::numeric_limits<double>::quiet_NaN();
  for (auto& attribute : into.attributes) {
    const ScalarAttribute* source = other.findAttribute(attribute.name);
    if (source) {
      attribute.append(*source, 0, source->size());
    } else {
      attribute.resize(into.points.size(), missing);
    }
  }
  for (const auto& attribute : other.attributes) {
    if (into.findAttribute(attribute.name)) continue;
    ScalarAttribute added = attribute.emptyLike();
    added.resize(before, missing);
    added.append(attribute, 0, attribute.size());
    into.attributes.push_back(std::move(added));
  }
}

}  // namespace pcv
