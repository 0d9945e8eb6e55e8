// libFuzzer target for one reader, chosen at build time (PCV_FUZZ_FORMAT: 0 PLY, 1 LAS, 2 PCD,
// 3 text, 4 E57, 5 LAZ, 6 COPC streamed, 7 VPC): the reader on arbitrary bytes must return or throw
// pcv::Error, never crash, hang, read out of bounds or allocate without bound. LAZ and COPC
// files read whole go through the LAS reader as they do in pcv; their target differs by its seed
// corpus of compressed files. The COPC target opens the input as the streaming viewer does (the
// hierarchy pages, then each node's chunk on its own). The LAS target also reads the input as a
// file of records, as pcv convert, edit and the record sink do: in order, and plain LAS by
// ranges from several threads' readAt.
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "e57/crc32c.hpp"
#include "pcv/core/error.hpp"
#include "common/cloud_checks.hpp"
#include "las/las_header.hpp"
#include "pcv/io/copc_file.hpp"
#include "pcv/io/point_records.hpp"
#include "common/readers.hpp"
#include "pcv/io/uri_reference.hpp"
#include "pcv/io/virtual_point_cloud.hpp"

namespace {

pcv::io::ReadResult readFuzzInput(std::span<const uint8_t> bytes,
                                  const pcv::io::ReadContext& context) {
#if PCV_FUZZ_FORMAT == 0
  return pcv::io::readPly(bytes, context);
#elif PCV_FUZZ_FORMAT == 1 || PCV_FUZZ_FORMAT == 5
  return pcv::io::readLas(bytes, context);
#elif PCV_FUZZ_FORMAT == 2
  return pcv::io::readPcd(bytes, context);
#elif PCV_FUZZ_FORMAT == 3
  return pcv::io::readText(bytes, context, ".xyz");
#else
  // Every E57 page ends in a CRC-32C: a mutation would almost always stop at the first page's
  // check, so the pages are resealed first and the fuzzer reaches the structure behind them.
  // The unit tests cover the check itself.
  std::vector<uint8_t> sealed(bytes.begin(), bytes.end());
  for (size_t page = 0; page + 1024 <= sealed.size(); page += 1024) {
    const uint32_t crc = pcv::io::e57::crc32c(sealed.data() + page, 1020);
    for (int b = 0; b < 4; ++b) sealed[page + 1020 + b] = uint8_t(crc >> (24 - 8 * b));
  }
  return pcv::io::readE57(sealed, context);
#endif
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // One decoding thread keeps libFuzzer's coverage feedback free of thread timing; the unit
  // tests and the sanitizer run cover the multi-threaded decoding.
  setenv("PCV_THREADS", "1", 1);
  return 0;
}

/// A few bytes of zeros are a valid LAZ chunk of millions of identical points: such inputs only
/// measure decoding speed, so the LAZ target leaves out those that declare more than this.
constexpr uint64_t kMaxFuzzedLazPoints = 1 << 18;

/// A COPC file opened for streaming, as `pcv view` opens one: the hierarchy, then every node
/// decoded alone (the first few hundred). CopcFile maps a path, so the input goes to a file.
void streamCopcInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/pcv-fuzz-copc-" + std::to_string(::getpid()) + ".laz";
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), std::streamsize(size));
  const pcv::CopcFile file(path);
  const size_t nodes = std::min<size_t>(file.hierarchy().nodes.size(), 256);
  uint64_t points = 0;
  for (size_t node = 0; node < nodes && points <= kMaxFuzzedLazPoints; ++node) {
    points += file.hierarchy().nodes[node].pointCount;
    if (points > kMaxFuzzedLazPoints) break;  // zeros decode as millions of points: speed only
    try {
      file.decodeNode(node);
    } catch (const pcv::Error&) {
      // A broken node is reported and the others still decode, as in the viewer.
    }
  }
}

/// A LAS file's records as the record streams hand them out: every batch in order, then, where
/// the records lie at known offsets, ranges read at the start, middle and end, and one past the
/// end (refused). The stream maps a path, so the input goes to a file.
void streamLasRecords(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/pcv-fuzz-las-" + std::to_string(::getpid()) + ".las";
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), std::streamsize(size));
  const std::unique_ptr<pcv::PointRecordStream> stream = pcv::openLasRecords(path);
  if (!stream->randomAccess()) return;  // LAZ: the LAZ target's decoder
  const uint64_t length = stream->format().recordLength;
  uint64_t checksum = 0;
  const uint8_t* batch = nullptr;
  for (uint64_t count; (count = stream->next(4096, batch)) > 0;)
    checksum += batch[count * length - 1];
  const uint64_t points = stream->pointCount();
  std::vector<uint8_t> range(std::max<uint64_t>(std::min<uint64_t>(points, 16), 1) * length);
  for (const uint64_t first : {uint64_t(0), points / 2, points - std::min<uint64_t>(points, 16)}) {
    const uint64_t count = std::min<uint64_t>(points - first, 16);
    stream->readAt(first, count, range.data());
    if (count > 0) checksum += range[count * length - 1];
  }
  try {
    stream->readAt(points, 1, range.data());
    std::abort();  // a range past the last record let through
  } catch (const pcv::Error&) {
  }
  static volatile uint64_t sink;
  sink = checksum;
}

/// A VPC parsed as `pcv` reads one; its tiles' fields are read so that a bad value the parser
/// let through shows under the sanitizers.
void parseVpcInput(const uint8_t* data, size_t size, const std::string& base,
                   const pcv::VpcHrefRules& rules) {
  std::istringstream text(std::string(reinterpret_cast<const char*>(data), size));
  const pcv::VirtualPointCloud vpc = pcv::parseVirtualPointCloud(text, "fuzz-input", base, rules);
  uint64_t checksum = vpc.totalPoints();
  for (const pcv::VpcTile& tile : vpc.tiles) {
    checksum += tile.location.size() + tile.overviews.size() + vpc.crsOf(tile).label().size();
    if (tile.nativeBounds && tile.nativeBounds->empty()) std::abort();  // min above max let in
    // A remote VPC names web resources only: a local path let through is a bug.
    if (pcv::isUrl(base) && !pcv::isUrl(tile.location)) std::abort();
  }
  static volatile uint64_t sink;  // keeps the reads from being optimized away
  sink = checksum;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Every field a file holds (LAS extra bytes described by their VLR, every LAZ layer), as
  // Python's pcv.read and pcv info ask for them: the widest path through each reader.
  static const pcv::ReadOptions everyField{.allAttributes = true};
  const pcv::io::ReadContext context{"fuzz-input", nullptr, &everyField};
#if PCV_FUZZ_FORMAT == 7
  // As a local VPC, then as one read over HTTP (its hrefs through the RFC 3986 resolver).
  try {
    parseVpcInput(data, size, "/vpc", {});
  } catch (const pcv::Error&) {
  }
  try {
    parseVpcInput(data, size, "https://user:pw@host:8443/a/b/index.vpc?sig=1#f",
                  {.sameOrigin = size % 2 == 0});
  } catch (const pcv::Error&) {
  }
  // The resolver and the message form on the bytes themselves (split in two: base, reference).
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string base = text.substr(0, size / 2), reference = text.substr(size / 2);
  const std::string resolved = pcv::resolveUriReference(base, reference);
  const std::string encoded = pcv::percentEncodeUri(text);
  if (pcv::percentEncodeUri(encoded) != encoded) std::abort();  // encoding twice changes nothing
  const std::string shown = pcv::locationForMessages(text, 64);
  if (shown.find_first_of("\r\n") != std::string::npos) std::abort();  // a raw line break let out
  static volatile size_t lengths;
  lengths = resolved.size() + pcv::uriOrigin(text).size() + shown.size() +
            pcv::removeDotSegments(reference).size();
  return 0;
#endif
#if PCV_FUZZ_FORMAT == 6
  try {
    streamCopcInput(data, size);
  } catch (const pcv::Error&) {
  }
  return 0;
#endif
  try {
#if PCV_FUZZ_FORMAT == 5
    if (pcv::io::parseLasHeader(std::span<const uint8_t>(data, size), context).pointCount >
        kMaxFuzzedLazPoints) {
      return 0;
    }
#endif
    pcv::PointCloud cloud = readFuzzInput(std::span<const uint8_t>(data, size), context).cloud;
    pcv::io::dropNonFinitePoints(cloud);
  } catch (const pcv::Error&) {
  }
#if PCV_FUZZ_FORMAT == 1
  try {
    streamLasRecords(data, size);
  } catch (const pcv::Error&) {
  }
#endif
  return 0;
}
