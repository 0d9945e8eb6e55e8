// E57 in the shape of pcv's readers: header and XML (the scans) -> field layouts (each scan's
// fields and bytestream slices) -> decode. Decoding runs on all cores over equal runs of
// records taken from every scan at once, each run writing its own slice of the merged cloud;
// with a listener for prefixes the runs go in a few consecutive slices, so the viewer shows the
// scans as they arrive.
#include <algorithm>
#include <memory>
#include <mutex>

#include "common/readers.hpp"
#include "compressed_vector.hpp"
#include "file_header.hpp"
#include "paged_file.hpp"
#include "pcv/core/parallel.hpp"
#include "scan_decoder.hpp"
#include "scan_fields.hpp"
#include "scan_notes.hpp"
#include "xml_section.hpp"

namespace pcv::io {
namespace e57 {
namespace {

/// Records per run: large enough to amortise finding the run's place in each bytestream,
/// small enough that a scan of a million points spreads over many threads.
constexpr uint64_t kRunRecords = 1 << 16;
// Slices only when someone listens (each costs a fork/join of the workers), as for LAS.
constexpr uint64_t kMaxSlices = 16;
constexpr uint64_t kMinSlicePoints = 1 << 18;

struct OpenedFile {
  FileHeader header;
  std::unique_ptr<PagedFile> pages;
  XmlSection xml;
  std::optional<uint32_t> pickedScan;  ///< ReadOptions::scan
};

OpenedFile openFile(std::span<const uint8_t> bytes, const ReadContext& context) {
  OpenedFile opened{.header = readFileHeader(bytes, context.file),
                    .pages = nullptr,
                    .xml = {},
                    .pickedScan = context.options ? context.options->scan : std::nullopt};
  opened.pages =
      std::make_unique<PagedFile>(bytes.first(opened.header.physicalLength), context.file);
  std::string text(opened.header.xmlLogicalLength, '\0');
  opened.pages->read(PagedFile::logicalFromPhysical(opened.header.xmlPhysicalOffset), text.size(),
                     reinterpret_cast<uint8_t*>(text.data()), "XML section");
  opened.xml = parseXmlSection(text, context.file);
  const size_t scans = opened.xml.scans.size();
  if (scans == 0) {
    std::string what = "no 3D scans (the XML section's data3D is empty or absent)";
    if (opened.xml.imageCount > 0) {
      what += "; it holds only " + std::to_string(opened.xml.imageCount) +
              " images (images2D), which pcv does not show";
    }
    context.fail(what + ", expected at least one scan of points");
  }
  if (opened.pickedScan && *opened.pickedScan >= scans) {
    context.fail("scan " + std::to_string(*opened.pickedScan) + " asked for, but the file has " +
                 std::to_string(scans) + " (0 to " + std::to_string(scans - 1) + ")");
  }
  return opened;
}

DecodeChoices choicesFrom(const ReadOptions* options, size_t scanCount) {
  DecodeChoices choices{.colors = !options || options->colors, .attributes = {}};
  for (size_t a = 0; a < kAttributeCount; ++a) {
    const std::string name = attributeName(Attribute(a));
    choices.attributes[a] = !options || options->attributes.empty() ||
                            std::find(options->attributes.begin(), options->attributes.end(),
                                      name) != options->attributes.end();
  }
  // Which scan a point came from says something only when there are several.
  if (scanCount < 2) choices.attributes[size_t(Attribute::ScanIndex)] = false;
  return choices;
}

/// Each scan's recordCount is checked against its own section; scans that share a section
/// (which no writer does) could still claim it many times over. Every record costs at least a
/// bit of the file, so together they can claim no more records than the file has bits.
void checkClaimedRecords(const OpenedFile& opened, const std::vector<uint32_t>& selected,
                         const ReadContext& context) {
  const uint64_t fileBits = opened.pages->logicalSize() * 8;
  uint64_t claimed = 0;
  for (uint32_t s : selected) {
    const ScanDescription& scan = opened.xml.scans[s];
    uint64_t bits = 0;
    for (const RecordField& field : scan.prototype) bits += field.bitWidth();
    const uint64_t recordBits = std::max<uint64_t>(bits, 1);
    if (scan.recordCount > (fileBits - claimed) / recordBits) {
      context.fail("scan " + scan.elementPath + ": recordCount " +
                   std::to_string(scan.recordCount) + " with the scans before it claims more " +
                   "records than the file's " + std::to_string(fileBits / 8) +
                   " bytes can hold (do scans share a section?)");
    }
    claimed += scan.recordCount * recordBits;
  }
}

std::vector<ScanDecoder> scanDecoders(const OpenedFile& opened, const ReadContext& context) {
  std::vector<uint32_t> selected;
  for (uint32_t s = 0; s < opened.xml.scans.size(); ++s) {
    if (!opened.pickedScan || *opened.pickedScan == s) selected.push_back(s);
  }
  const DecodeChoices choices = choicesFrom(context.options, selected.size());
  std::vector<ScanDecoder> decoders;
  decoders.reserve(selected.size());
  for (uint32_t s : selected) {
    const ScanDescription& scan = opened.xml.scans[s];
    decoders.emplace_back(*opened.pages, scan, readCompressedVectorLayout(*opened.pages, scan),
                          chooseScanFields(scan, choices, context.file), s);
  }
  checkClaimedRecords(opened, selected, context);
  return decoders;
}

/// The merged cloud's shape: where each scan's points start, which attributes it carries.
struct CloudLayout {
  std::vector<uint64_t> scanStart;  ///< per decoder, its first point in the cloud
  uint64_t total = 0;
  std::array<int, kAttributeCount> attributeIndex{};  ///< into cloud.attributes, or -1
};

/// Sizes the cloud for every record of every decoder; the counts were checked against their
/// binary sections, so the file justifies the allocation.
CloudLayout allocateCloud(const std::vector<ScanDecoder>& decoders, const ReadContext& context,
                          PointCloud& cloud) {
  const ReadOptions* options = context.options;
  CloudLayout layout;
  for (const ScanDecoder& decoder : decoders) {
    layout.scanStart.push_back(layout.total);
    layout.total += decoder.recordCount();
    cloud.hasColor = cloud.hasColor || decoder.hasColor();
  }
  const DecodeChoices choices = choicesFrom(options, decoders.size());
  layout.attributeIndex.fill(-1);
  for (size_t a = 0; a < kAttributeCount; ++a) {
    const bool present = std::any_of(decoders.begin(), decoders.end(), [&](const auto& decoder) {
      return decoder.hasAttribute(Attribute(a));
    });
    if (!choices.attributes[a] || !present) continue;
    layout.attributeIndex[a] = int(cloud.attributes.size());
    cloud.attributes.push_back({.name = attributeName(Attribute(a)), .values = {}});
  }
  for (const ScanDecoder& decoder : decoders) {
    if (const std::optional<glm::dvec3> first = decoder.firstValidPosition()) {
      cloud.origin = originNear(*first);
      break;
    }
  }
  context.requireMemoryForPoints(layout.total, cloud.attributes.size());
  cloud.points.resize(layout.total);
  for (ScalarAttribute& attribute : cloud.attributes) attribute.values.resize(layout.total);
  return layout;
}

/// What the XML declares of the scans read: their record count, the bounds they state (moved
/// by their poses; empty unless every scan states them) and their fields. No binary section is
/// touched.
ReadResult::Declared declaredScans(const OpenedFile& opened, const ReadContext& context,
                                   PointCloud& cloud) {
  ReadResult::Declared declared;
  bool everyScanBounded = true;
  std::array<bool, kAttributeCount> present{};
  uint32_t scansRead = 0;
  for (uint32_t s = 0; s < opened.xml.scans.size(); ++s) {
    if (opened.pickedScan && *opened.pickedScan != s) continue;
    const ScanDescription& scan = opened.xml.scans[s];
    ++scansRead;
    declared.points += scan.recordCount;
    const ScanFields fields = chooseScanFields(scan, choicesFrom(context.options, 1), context.file);
    cloud.hasColor = cloud.hasColor || fields.hasColor();
    for (size_t a = 0; a < kAttributeCount; ++a)
      present[a] = present[a] || fields.attribute[a] >= 0;
    if (!scan.cartesianBounds) {
      everyScanBounded = false;
      continue;
    }
    for (int corner = 0; corner < 8; ++corner) {
      const Box3d& box = *scan.cartesianBounds;
      const glm::dvec3 local(corner & 1 ? box.max.x : box.min.x, corner & 2 ? box.max.y : box.min.y,
                             corner & 4 ? box.max.z : box.min.z);
      declared.worldBounds.extend(scan.pose.rotation * local + scan.pose.translation);
    }
  }
  if (!everyScanBounded) declared.worldBounds = {};
  present[size_t(Attribute::ScanIndex)] = scansRead > 1;
  for (size_t a = 0; a < kAttributeCount; ++a) {
    if (present[a]) cloud.attributes.push_back({.name = attributeName(Attribute(a)), .values = {}});
  }
  return declared;
}

/// A run of one scan's records.
struct Run {
  uint32_t decoder;
  uint64_t first, count;  ///< records of the scan
};

std::vector<Run> runsOf(const std::vector<ScanDecoder>& decoders) {
  std::vector<Run> runs;
  for (uint32_t d = 0; d < decoders.size(); ++d) {
    for (uint64_t first = 0; first < decoders[d].recordCount(); first += kRunRecords) {
      runs.push_back({d, first, std::min(kRunRecords, decoders[d].recordCount() - first)});
    }
  }
  return runs;
}

/// Decodes every run, in slices when the progress has a prefix listener.
RunResult decodeRuns(const std::vector<ScanDecoder>& decoders, const CloudLayout& layout,
                     PointCloud& cloud, const ReadContext& context) {
  const std::vector<Run> runs = runsOf(decoders);
  LoadProgress* progress = context.progress;
  const uint64_t slices = progress && progress->onPrefix
                              ? std::clamp<uint64_t>(layout.total / kMinSlicePoints, 1, kMaxSlices)
                              : 1;
  RunResult total;
  std::mutex merge;
  auto decodeRun = [&](const Run& run) {
    const ScanDecoder& decoder = decoders[run.decoder];
    const uint64_t start = layout.scanStart[run.decoder];
    ScanOutput out{.points = cloud.points.data() + start, .attributes = {}};
    for (size_t a = 0; a < kAttributeCount; ++a) {
      const int index = layout.attributeIndex[a];
      if (index >= 0) out.attributes[a] = cloud.attributes[index].values.data() + start;
    }
    const RunResult result = decoder.decode(run.first, run.count, cloud.origin, out);
    {
      const std::lock_guard lock(merge);
      total.invalidRecords += result.invalidRecords;
      total.worldBounds.extend(result.worldBounds);
    }
    context.advance(decoder.sectionBytes() * run.count / decoder.recordCount());
  };
  for (uint64_t slice = 0; slice < slices; ++slice) {
    const uint64_t begin = runs.size() * slice / slices, end = runs.size() * (slice + 1) / slices;
    parallelFor(
        end - begin,
        [&](uint64_t from, uint64_t to) {
          for (uint64_t r = begin + from; r < begin + to; ++r) decodeRun(runs[r]);
        },
        1);
    if (!progress) continue;
    // parallelFor has joined its workers: the points before `ready` are written and visible.
    const uint64_t ready =
        end == runs.size() ? layout.total : layout.scanStart[runs[end].decoder] + runs[end].first;
    progress->pointsReady.store(ready, std::memory_order_release);
    if (progress->onPrefix) {
      progress->onPrefix(PointPrefix{.points = std::span<const Point>(cloud.points.data(), ready),
                                     .origin = cloud.origin,
                                     .hasColor = cloud.hasColor});
    }
  }
  return total;
}

/// Removes the points decoded as invalid records (and their attribute values), keeping the
/// order of the rest.
void dropInvalidRecords(PointCloud& cloud) {
  uint64_t kept = 0;
  for (uint64_t i = 0; i < cloud.points.size(); ++i) {
    if (isInvalidRecord(cloud.points[i])) continue;
    cloud.points[kept] = cloud.points[i];
    for (ScalarAttribute& attribute : cloud.attributes)
      attribute.values[kept] = attribute.values[i];
    ++kept;
  }
  cloud.points.resize(kept);
  for (ScalarAttribute& attribute : cloud.attributes) attribute.values.resize(kept);
}

}  // namespace
}  // namespace e57

ReadResult readE57(std::span<const uint8_t> bytes, const ReadContext& context) {
  const e57::OpenedFile opened = e57::openFile(bytes, context);
  if (context.headerOnly()) {
    ReadResult result{.format = "E57",
                      .details = e57::describeFile(opened.header, opened.xml, opened.pickedScan),
                      .notes = e57::describeScans(opened.xml, opened.pickedScan)};
    result.declared = e57::declaredScans(opened, context, result.cloud);
    return result;
  }
  const std::vector<e57::ScanDecoder> decoders = e57::scanDecoders(opened, context);
  ReadResult result{.cloud = {},
                    .format = "E57",
                    .details = e57::describeFile(opened.header, opened.xml, opened.pickedScan),
                    .worldBounds = {},
                    .notes = e57::describeScans(opened.xml, opened.pickedScan),
                    .warnings = {}};
  const e57::CloudLayout layout = e57::allocateCloud(decoders, context, result.cloud);
  const e57::RunResult decoded = e57::decodeRuns(decoders, layout, result.cloud, context);
  result.worldBounds = decoded.worldBounds;
  if (decoded.invalidRecords > 0) {
    e57::dropInvalidRecords(result.cloud);
    result.notes.push_back("invalid:    " + std::to_string(decoded.invalidRecords) +
                           " records flagged by cartesianInvalidState or sphericalInvalidState "
                           "(not loaded)");
  }
  return result;
}

}  // namespace pcv::io
