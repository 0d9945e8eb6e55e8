// E57 in the shape of pcv's readers: header -> XML (scans and their field layouts) -> decode.
// Decoding runs on all cores over equal runs of records taken from every scan at once, each run
// writing its own slice of the merged cloud; with a listener for prefixes, the runs are taken
// in a few consecutive slices so the viewer can show the scans as they arrive.
#include "e57_reader.hpp"

#include <algorithm>
#include <atomic>
#include <memory>

#include "../reader_common.hpp"
#include "compressed_vector.hpp"
#include "file_header.hpp"
#include "paged_file.hpp"
#include "pcv/core/parallel.hpp"
#include "scan_decoder.hpp"
#include "scan_notes.hpp"
#include "xml_section.hpp"

namespace pcv::io::e57 {
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
};

OpenedFile open(std::span<const uint8_t> bytes, const E57Request& request) {
  OpenedFile opened;
  opened.header = readFileHeader(bytes, request.fileName);
  opened.pages =
      std::make_unique<PagedFile>(bytes.first(opened.header.physicalLength), request.fileName);
  std::string text(opened.header.xmlLogicalLength, '\0');
  opened.pages->read(PagedFile::logicalFromPhysical(opened.header.xmlPhysicalOffset), text.size(),
                     reinterpret_cast<uint8_t*>(text.data()), "XML section");
  opened.xml = parseXmlSection(text, request.fileName);
  if (opened.xml.scans.empty()) {
    std::string what = "no 3D scans (the XML section's data3D is empty or absent)";
    if (opened.xml.imageCount > 0) {
      what += "; it holds only " + std::to_string(opened.xml.imageCount) +
              " images (images2D), which pcv does not show";
    }
    opened.pages->fail(what + ", expected at least one scan of points");
  }
  const std::optional<uint32_t> scan = request.options ? request.options->scan : std::nullopt;
  if (scan && *scan >= opened.xml.scans.size()) {
    opened.pages->fail("scan " + std::to_string(*scan) + " asked for, but the file has " +
                       std::to_string(opened.xml.scans.size()) + " (0 to " +
                       std::to_string(opened.xml.scans.size() - 1) + ")");
  }
  return opened;
}

DecodeChoices choicesFrom(const ReadOptions* options, size_t scanCount) {
  DecodeChoices choices;
  choices.colors = !options || options->colors;
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

/// A run of one scan's records and where the merged cloud keeps them.
struct Run {
  uint32_t decoder;       ///< index into the decoders
  uint64_t first, count;  ///< records of the scan
};

}  // namespace

E57Result describeE57(std::span<const uint8_t> bytes, const E57Request& request) {
  const OpenedFile opened = open(bytes, request);
  const std::optional<uint32_t> scan = request.options ? request.options->scan : std::nullopt;
  E57Result result;
  result.details = describeFile(opened.header, opened.xml, scan);
  result.notes = describeScans(opened.xml, scan);
  return result;
}

E57Result readE57(std::span<const uint8_t> bytes, const E57Request& request) {
  const OpenedFile opened = open(bytes, request);
  const PagedFile& file = *opened.pages;
  const std::optional<uint32_t> picked = request.options ? request.options->scan : std::nullopt;

  std::vector<uint32_t> selected;
  for (uint32_t s = 0; s < opened.xml.scans.size(); ++s) {
    if (!picked || *picked == s) selected.push_back(s);
  }
  const DecodeChoices choices = choicesFrom(request.options, selected.size());
  std::vector<ScanDecoder> decoders;
  decoders.reserve(selected.size());
  for (uint32_t s : selected) {
    const ScanDescription& scan = opened.xml.scans[s];
    decoders.emplace_back(file, scan, readCompressedVectorLayout(file, scan), choices, s);
  }

  E57Result result;
  result.details = describeFile(opened.header, opened.xml, picked);
  result.notes = describeScans(opened.xml, picked);
  PointCloud& cloud = result.cloud;
  std::vector<uint64_t> scanStart;  // each decoder's first point in the cloud
  uint64_t total = 0;
  for (const ScanDecoder& decoder : decoders) {
    scanStart.push_back(total);
    total += decoder.recordCount();
    cloud.hasColor = cloud.hasColor || decoder.hasColor();
  }
  for (const ScanDecoder& decoder : decoders) {
    if (const std::optional<glm::dvec3> first = decoder.firstValidPosition()) {
      cloud.origin = originNear(*first);
      break;
    }
  }
  std::array<int, kAttributeCount> attributeIndex;
  attributeIndex.fill(-1);
  for (size_t a = 0; a < kAttributeCount; ++a) {
    if (!choices.attributes[a]) continue;
    const bool present = std::any_of(decoders.begin(), decoders.end(), [&](const ScanDecoder& d) {
      return d.hasAttribute(Attribute(a));
    });
    if (!present) continue;
    attributeIndex[a] = int(cloud.attributes.size());
    cloud.attributes.push_back({.name = attributeName(Attribute(a)), .values = {}});
  }
  // Every count was checked against its binary section, so the file justifies these sizes.
  cloud.points.resize(total);
  for (ScalarAttribute& attribute : cloud.attributes) attribute.values.resize(total);

  std::vector<Run> runs;
  for (uint32_t d = 0; d < decoders.size(); ++d) {
    for (uint64_t first = 0; first < decoders[d].recordCount(); first += kRunRecords) {
      runs.push_back({d, first, std::min(kRunRecords, decoders[d].recordCount() - first)});
    }
  }
  LoadProgress* progress = request.progress;
  if (progress) progress->bytesDone = 0;
  const bool publishes = progress && progress->onPrefix;
  const uint64_t sliceCount =
      publishes ? std::clamp<uint64_t>(total / kMinSlicePoints, 1, kMaxSlices) : 1;
  std::atomic<uint64_t> invalid{0};
  auto decodeRun = [&](const Run& run) {
    const ScanDecoder& decoder = decoders[run.decoder];
    const uint64_t start = scanStart[run.decoder];
    ScanOutput out{.points = cloud.points.data() + start};
    for (size_t a = 0; a < kAttributeCount; ++a) {
      if (attributeIndex[a] >= 0) {
        out.attributes[a] = cloud.attributes[attributeIndex[a]].values.data() + start;
      }
    }
    invalid += decoder.decode(run.first, run.count, cloud.origin, out);
    if (progress) {
      progress->bytesDone.fetch_add(decoder.sectionBytes() * run.count / decoder.recordCount(),
                                    std::memory_order_relaxed);
      if (progress->cancel.load(std::memory_order_relaxed)) {
        throw LoadCancelled(request.fileName + ": loading cancelled");
      }
    }
  };
  for (uint64_t slice = 0; slice < sliceCount; ++slice) {
    const uint64_t begin = runs.size() * slice / sliceCount;
    const uint64_t end = runs.size() * (slice + 1) / sliceCount;
    parallelFor(
        end - begin,
        [&](uint64_t from, uint64_t to) {
          for (uint64_t r = begin + from; r < begin + to; ++r) decodeRun(runs[r]);
        },
        1);
    if (progress) {
      const uint64_t ready =
          end == runs.size() ? total : scanStart[runs[end].decoder] + runs[end].first;
      progress->pointsReady.store(ready, std::memory_order_release);
      if (progress->onPrefix) {
        progress->onPrefix(PointPrefix{.points = std::span<const Point>(cloud.points.data(), ready),
                                       .origin = cloud.origin,
                                       .hasColor = cloud.hasColor});
      }
    }
  }
  if (invalid > 0) {
    dropInvalidRecords(cloud);
    result.notes.push_back("invalid:    " + std::to_string(invalid.load()) +
                           " points flagged invalid by cartesianInvalidState or "
                           "sphericalInvalidState (not loaded)");
  }
  return result;
}

}  // namespace pcv::io::e57
