// COPC 1.0: the info VLR (user "copc", record 1, 160 bytes) and the hierarchy: pages of 32-byte
// entries (key level, x, y, z as int32; offset u64; byte size i32; point count i32) where a
// count of -1 points to a child page instead of a chunk.
#include "copc_reader.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

#include "pcv/io/byte_source.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/core/error.hpp"

namespace pcv {

uint32_t CopcHierarchy::levelCount() const {
  int32_t deepest = -1;
  for (const CopcNode& node : nodes) deepest = std::max(deepest, node.key.level);
  return uint32_t(deepest + 1);
}

std::vector<uint64_t> CopcHierarchy::pointsPerLevel() const {
  std::vector<uint64_t> points(levelCount(), 0);
  for (const CopcNode& node : nodes) points[node.key.level] += node.pointCount;
  return points;
}

Box3d CopcHierarchy::boundsOf(const CopcNodeKey& key) const {
  const double cell = 2.0 * halfSize / std::ldexp(1.0, key.level);
  const glm::dvec3 rootMin = center - glm::dvec3(halfSize);
  Box3d box;
  box.min = rootMin + cell * glm::dvec3(key.x, key.y, key.z);
  box.max = box.min + glm::dvec3(cell);
  return box;
}

bool isCopcFile(const std::filesystem::path& path) {
  std::error_code error;
  if (!isRemoteLocation(path.string()) && !std::filesystem::is_regular_file(path, error)) {
    return false;
  }
  try {
    // A URL's end (chunk table, hierarchy) comes in the round trip of its header: the reader
    // that follows asks for it next.
    const std::shared_ptr<const ByteSource> file = isRemoteLocation(path.string())
                                                       ? openRemotePointFile(path.string())
                                                       : openSparseByteSource(path.string());
    const io::ReadContext context{.file = path.string()};
    return io::findCopcInfo(io::parseLasHeader(*file, context)) != nullptr;
  } catch (const RemoteError&) {
    throw;  // a URL that cannot be read is no answer: its error (status, cause) goes on
  } catch (const InputError&) {
    return false;  // not LAS at all, or a broken header: its reader says what is wrong
  }
}

CopcHierarchy readCopcHierarchy(const std::filesystem::path& path,
                                const CopcHierarchyFetch& fetch) {
  // The header, the VLRs and the hierarchy pages only: read where they are, no mapping that
  // reads the whole file ahead (a dataset reads a thousand hierarchies at open).
  const std::shared_ptr<const ByteSource> file = openSparseByteSource(path.string());
  const io::ReadContext context{.file = path.string()};
  const io::LasHeader header = io::parseLasHeader(*file, context);
  return io::parseCopcHierarchy(*file, header, context, fetch.rootChunk);
}

}  // namespace pcv

namespace pcv::io {
namespace {

constexpr uint64_t kInfoBytes = 160;
constexpr uint64_t kEntryBytes = 32;
/// Deeper levels would need more than 2^30 cells per axis; no real octree gets near.
constexpr int32_t kMaxLevel = 30;

struct PageRef {
  uint64_t offset, bytes;
};

void readInfo(const ByteSource& file, const LasVlr& info, const ReadContext& context,
              CopcHierarchy& h, PageRef& root) {
  if (info.payloadBytes < kInfoBytes) {
    context.failAt(info.payloadOffset, "COPC info VLR has " + std::to_string(info.payloadBytes) +
                                           " bytes, expected 160");
  }
  std::vector<uint8_t> storage;
  const uint8_t* p = file.read(info.payloadOffset, kInfoBytes, storage).data();
  h.center = {loadLe<double>(p), loadLe<double>(p + 8), loadLe<double>(p + 16)};
  h.halfSize = loadLe<double>(p + 24);
  h.spacing = loadLe<double>(p + 32);
  root = {loadLe<uint64_t>(p + 40), loadLe<uint64_t>(p + 48)};
  h.gpsTimeMin = loadLe<double>(p + 56);
  h.gpsTimeMax = loadLe<double>(p + 64);
  if (!std::isfinite(h.center.x) || !std::isfinite(h.center.y) || !std::isfinite(h.center.z) ||
      !std::isfinite(h.halfSize) || !(h.halfSize > 0.0)) {
    context.failAt(info.payloadOffset,
                   "COPC info VLR: the octree's center and half-size must "
                   "be finite and the half-size positive");
  }
}

void checkPage(const PageRef& page, uint64_t fileSize, const ReadContext& context, uint64_t where) {
  if (page.offset > fileSize || page.bytes > fileSize - page.offset || page.bytes % kEntryBytes) {
    context.failAt(where, "COPC hierarchy page of " + std::to_string(page.bytes) +
                              " bytes at byte " + std::to_string(page.offset) +
                              ": expected whole 32-byte entries inside the " +
                              std::to_string(fileSize) + "-byte file");
  }
}

CopcNode readEntry(const uint8_t* e, uint64_t fileSize, const ReadContext& context, uint64_t at,
                   const CopcHierarchy& h, int32_t& pointCount) {
  CopcNode node;
  node.key = {loadLe<int32_t>(e), loadLe<int32_t>(e + 4), loadLe<int32_t>(e + 8),
              loadLe<int32_t>(e + 12)};
  node.chunkOffset = loadLe<uint64_t>(e + 16);
  const int32_t byteSize = loadLe<int32_t>(e + 24);
  pointCount = loadLe<int32_t>(e + 28);
  const CopcNodeKey& k = node.key;
  const int64_t cells = k.level >= 0 && k.level <= kMaxLevel ? int64_t(1) << k.level : 0;
  if (cells == 0 || k.x < 0 || k.y < 0 || k.z < 0 || k.x >= cells || k.y >= cells || k.z >= cells) {
    context.failAt(at, "COPC hierarchy entry with key " + std::to_string(k.level) + "-" +
                           std::to_string(k.x) + "-" + std::to_string(k.y) + "-" +
                           std::to_string(k.z) +
                           ": expected a level 0-30 and x, y, z below 2^level");
  }
  if (pointCount < -1 || byteSize < 0 || node.chunkOffset > fileSize ||
      uint64_t(byteSize) > fileSize - node.chunkOffset) {
    context.failAt(at, "COPC hierarchy entry " + std::to_string(k.level) + "-" +
                           std::to_string(k.x) + "-" + std::to_string(k.y) + "-" +
                           std::to_string(k.z) + ": " + std::to_string(byteSize) +
                           " bytes at byte " + std::to_string(node.chunkOffset) + ", " +
                           std::to_string(pointCount) +
                           " points: expected a range inside the file and a count of -1 or more");
  }
  node.chunkBytes = uint64_t(byteSize);
  node.pointCount = pointCount > 0 ? uint64_t(pointCount) : 0;
  node.bounds = h.boundsOf(k);
  return node;
}

}  // namespace

const LasVlr* findCopcInfo(const LasHeader& header) {
  for (const LasVlr& vlr : header.vlrs) {
    if (vlr.userId == "copc" && vlr.recordId == 1) return &vlr;
  }
  return nullptr;
}

namespace {

/// A remote file's pages fetched level by level, each level's pages in one go (several
/// requests in flight), before they are parsed one by one from the cache. Only the pointers to
/// child pages (and, with `withRootChunk`, the root node's chunk, fetched with the level below
/// the root page) are read here; whatever looks wrong is left for the parse to report.
void prefetchPages(const ByteSource& file, const PageRef& root, bool withRootChunk) {
  std::vector<PageRef> level{root};
  std::vector<ByteRange> alongside;  // fetched with the next level
  std::set<uint64_t> seen;
  std::vector<uint8_t> storage;
  const uint64_t size = file.size();
  while (!level.empty() || !alongside.empty()) {
    std::vector<ByteRange> ranges = std::exchange(alongside, {});
    for (const PageRef& page : level) ranges.push_back({page.offset, page.bytes});
    file.prefetch(ranges);
    std::vector<PageRef> next;
    for (const PageRef& page : level) {
      if (!seen.insert(page.offset).second || page.offset > size || page.bytes > size - page.offset ||
          page.bytes % kEntryBytes) {
        continue;
      }
      const std::span<const uint8_t> bytes = file.read(page.offset, page.bytes, storage);
      for (uint64_t at = 0; at < page.bytes; at += kEntryBytes) {
        const uint8_t* entry = bytes.data() + at;
        const auto chunk = ByteRange{loadLe<uint64_t>(entry + 16),
                                     uint64_t(std::max(0, loadLe<int32_t>(entry + 24)))};
        const int32_t points = loadLe<int32_t>(entry + 28);
        if (points == -1) {
          next.push_back({chunk.offset, chunk.length});
        } else if (withRootChunk && points > 0 && loadLe<int32_t>(entry) == 0 &&
                   chunk.offset <= size && chunk.length <= size - chunk.offset) {
          alongside.push_back(chunk);
          withRootChunk = false;  // one root
        }
      }
    }
    level = std::move(next);
  }
}

}  // namespace

CopcHierarchy parseCopcHierarchy(std::span<const uint8_t> file, const LasHeader& header,
                                 const ReadContext& context) {
  return parseCopcHierarchy(SpanByteSource(file, context.file), header, context);
}

CopcHierarchy parseCopcHierarchy(const ByteSource& file, const LasHeader& header,
                                 const ReadContext& context, bool withRootChunk) {
  const LasVlr* info = findCopcInfo(header);
  if (!info) context.fail("is not COPC: it has no COPC info VLR (user id 'copc', record 1)");
  CopcHierarchy h;
  PageRef root{};
  readInfo(file, *info, context, h, root);
  checkPage(root, file.size(), context, info->payloadOffset + 40);
  if (file.whole().empty()) prefetchPages(file, root, withRootChunk);
  std::vector<uint8_t> storage;
  // Pages are visited once each (a page listed twice would loop), so the work is bounded by
  // the file's size.
  std::vector<PageRef> pending{root};
  std::set<uint64_t> visited;
  // Pages that do not overlap hold at most this many entries; more means they overlap.
  const uint64_t maxEntries = file.size() / kEntryBytes;
  uint64_t entries = 0;
  while (!pending.empty()) {
    const PageRef page = pending.back();
    pending.pop_back();
    if (!visited.insert(page.offset).second) {
      context.failAt(page.offset, "COPC hierarchy page at byte " + std::to_string(page.offset) +
                                      " is listed twice");
    }
    ++h.pageCount;
    entries += page.bytes / kEntryBytes;
    if (entries > maxEntries) {
      context.failAt(page.offset,
                     "COPC hierarchy pages overlap (more entries than the file holds)");
    }
    const uint8_t* pageBytes = file.read(page.offset, page.bytes, storage).data();
    for (uint64_t at = page.offset; at < page.offset + page.bytes; at += kEntryBytes) {
      int32_t pointCount = 0;
      CopcNode node =
          readEntry(pageBytes + (at - page.offset), file.size(), context, at, h, pointCount);
      if (pointCount == -1) {
        const PageRef child{node.chunkOffset, node.chunkBytes};
        checkPage(child, file.size(), context, at + 16);
        pending.push_back(child);
      } else {
        h.nodes.push_back(node);
      }
    }
  }
  return h;
}

std::vector<std::string> describeCopc(const CopcHierarchy& h) {
  uint64_t withPoints = 0, points = 0;
  for (const CopcNode& node : h.nodes) {
    withPoints += node.pointCount > 0;
    points += node.pointCount;
  }
  char cube[160];
  std::snprintf(cube, sizeof cube, "center %.3f %.3f %.3f, half-size %.3f, spacing %.4g",
                h.center.x, h.center.y, h.center.z, h.halfSize, h.spacing);
  std::vector<std::string> lines;
  lines.push_back("COPC octree: " + std::to_string(h.levelCount()) + " levels, " +
                  std::to_string(h.nodes.size()) + " nodes (" + std::to_string(withPoints) +
                  " with points), " + std::to_string(points) + " points in " +
                  std::to_string(h.pageCount) + " hierarchy page" + (h.pageCount == 1 ? "" : "s") +
                  "; " + cube);
  const std::vector<uint64_t> counts = h.pointsPerLevel();
  std::vector<uint64_t> nodesPerLevel(counts.size(), 0);
  for (const CopcNode& node : h.nodes) nodesPerLevel[node.key.level] += node.pointCount > 0;
  std::string pointLine = "COPC points per level:", nodeLine = "COPC nodes per level:",
              spacingLine = "COPC spacing per level:";
  for (size_t level = 0; level < counts.size(); ++level) {
    const std::string prefix = (level ? ", " : " ") + std::to_string(level) + ": ";
    pointLine += prefix + std::to_string(counts[level]);
    nodeLine += prefix + std::to_string(nodesPerLevel[level]);
    // The spacing halves at each level.
    char value[32];
    std::snprintf(value, sizeof value, "%.4g", std::ldexp(h.spacing, -int(level)));
    spacingLine += prefix + value;
  }
  lines.push_back(pointLine);
  lines.push_back(nodeLine);
  lines.push_back(spacingLine);
  return lines;
}

}  // namespace pcv::io
