// A COPC file's nodes decoded one chunk at a time: the LAZ chunk decoder into a buffer of raw LAS
// records, then the record decoder into points, exactly as the LAZ reader decodes a chunk.
#include "pcv/io/copc_file.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>

#include "common/color_values.hpp"
#include "copc_reader.hpp"
#include "las/las_header.hpp"
#include "laz/laz_field_choice.hpp"
#include "laz/laz_records.hpp"
#include "pcv/io/byte_source.hpp"
#include "common/record_decoder.hpp"

namespace pcv {

struct CopcFile::State {
  std::filesystem::path path;
  std::shared_ptr<const ByteSource> file;  ///< mapped, or fetched by ranges for a URL
  io::ReadContext context;
  io::LasHeader header;
  io::FieldChoice choice;
  std::unique_ptr<io::LazPointRecords> records;
  std::unique_ptr<io::RecordDecoder> decoder;
  CopcHierarchy hierarchy;
  std::vector<size_t> chunkOfNode;  // hierarchy node -> chunk of the chunk table
  glm::dvec3 origin{0.0};
  std::vector<std::string> attributeNames;
  /// 16-bit colours to 8 bits, decided once from the root's records: given at the opening, or by
  /// the root's first decode, or by a scan of the root when another node is decoded first.
  mutable double channelScale = 1.0;
  mutable std::once_flag scaleDecided;
  mutable std::atomic<bool> scaleKnown{false};
  mutable std::atomic<uint64_t> chunksDecoded{0};

  /// Decodes chunk `chunk`, handing its records to `sink` in pieces of `pieceRecords` at most.
  void decodeRecords(size_t chunk, const io::LazPointRecords::RecordSink& sink,
                     uint64_t pieceRecords = kPiecePoints) const;
  PointCloud decode(size_t node) const;
  /// The points of `node`, whose records are chunk `chunk`, with the colour scale `scale`; with
  /// none (the root while the scale is not known), the chunk's records decoded in one piece
  /// decide it (their largest channel) before its points are made: one decode where a scan and
  /// a decode were two.
  PointCloud pointsOf(size_t node, size_t chunk, std::optional<double> scale) const;
  /// The scale, decided now (rootChannelScale) when no decode of the root decided it.
  double decidedChannelScale() const;
  void decide(double scale) const;
  /// 16-bit channels written as 0..255 exist: the root, an even sample of the whole cloud, says
  /// which the file holds, so every node is scaled alike (as a LAS file by its maximum).
  double rootChannelScale() const;
  /// The largest colour channel of `count` records at `data` (16-bit channels).
  uint32_t channelMaximum(const uint8_t* data, uint64_t count) const;
  /// The scale the largest channel of `count` records at `data` asks for.
  double scaleOfRecords(const uint8_t* data, uint64_t count) const;
  /// Whether the root must be read for the scale: 16-bit channels are decoded, none given.
  bool scaleNeedsRoot() const;

  static constexpr uint64_t kPiecePoints = 1 << 14;  // records decoded per call
};

namespace {

/// Chunk of the chunk table that holds each node, by the nodes' chunk offsets.
std::vector<size_t> chunksOfNodes(const CopcHierarchy& hierarchy,
                                  const io::LazPointRecords& records,
                                  const io::ReadContext& context) {
  std::map<uint64_t, size_t> chunkAt;
  for (size_t c = 0; c < records.chunkCount(); ++c) chunkAt[records.layout().chunks[c].offset] = c;
  std::vector<size_t> chunks(hierarchy.nodes.size(), SIZE_MAX);
  for (size_t n = 0; n < hierarchy.nodes.size(); ++n) {
    const CopcNode& node = hierarchy.nodes[n];
    if (node.pointCount == 0) continue;
    const auto found = chunkAt.find(node.chunkOffset);
    if (found == chunkAt.end() ||
        records.layout().chunks[found->second].pointCount != node.pointCount) {
      context.failAt(node.chunkOffset, "the hierarchy's node " + std::to_string(node.key.level) +
                                           "-" + std::to_string(node.key.x) + "-" +
                                           std::to_string(node.key.y) + "-" +
                                           std::to_string(node.key.z) +
                                           " names no chunk of the chunk table with its " +
                                           std::to_string(node.pointCount) + " points");
    }
    chunks[n] = found->second;
  }
  return chunks;
}

}  // namespace

void CopcFile::State::decodeRecords(size_t chunk, const io::LazPointRecords::RecordSink& sink,
                                    uint64_t pieceRecords) const {
  std::unique_ptr<laz::ChunkDecoder> chunkDecoder = records->makeDecoder(choice.fields);
  const uint64_t count = records->layout().chunks[chunk].pointCount;
  std::vector<uint8_t> buffer(std::min(count, pieceRecords) * records->recordLength());
  chunksDecoded.fetch_add(1, std::memory_order_relaxed);
  // decodeChunk changes nothing of a file with a chunk table (COPC always has one), so threads
  // may share the records.
  const_cast<io::LazPointRecords&>(*records).decodeChunk(chunk, *chunkDecoder, buffer.data(),
                                                         pieceRecords, sink);
}

PointCloud CopcFile::State::decode(size_t node) const {
  const size_t chunk = chunkOfNode.at(node);
  if (chunk == SIZE_MAX) {
    PointCloud none = decoder->describeCloud();
    none.lasPointFormat = header.pointFormat;
    return none;
  }
  if (node == 0 && !scaleKnown.load(std::memory_order_acquire)) {
    return pointsOf(node, chunk, std::nullopt);
  }
  return pointsOf(node, chunk, decidedChannelScale());
}

PointCloud CopcFile::State::pointsOf(size_t node, size_t chunk, std::optional<double> scale) const {
  io::RecordDecoder points = *decoder;
  if (scale) points.setChannelScale(*scale);
  PointCloud cloud = points.allocateCloud(hierarchy.nodes[node].pointCount, origin, context);
  cloud.lasPointFormat = header.pointFormat;
  const laz::ChunkLocation& location = records->layout().chunks[chunk];
  // Deciding the scale, the whole chunk comes in one piece (a few bytes per point more than the
  // cloud it makes, for as long as the decode lasts): its records are all seen before any
  // point's colour is made.
  const bool deciding = !scale;
  decodeRecords(
      chunk,
      [&](const uint8_t* piece, uint64_t firstPoint, uint64_t count) {
        if (!scale) {
          scale = scaleOfRecords(piece, count);
          points.setChannelScale(*scale);
        }
        points.decode(piece, 0, count, cloud, firstPoint - location.firstPoint);
      },
      deciding ? std::max<uint64_t>(location.pointCount, 1) : kPiecePoints);
  // Decided once the chunk proved whole. Another thread may have decided meanwhile, from the
  // same records: the same scale.
  if (deciding) decide(scale.value_or(1.0));
  // The chunk's pages are not needed again soon: a streamed file larger than memory must not
  // fill it with pages it has read.
  file->release(location.offset, location.byteCount);
  return cloud;
}

void CopcFile::State::decide(double scale) const {
  std::call_once(scaleDecided, [&] {
    channelScale = scale;
    scaleKnown.store(true, std::memory_order_release);
  });
}

double CopcFile::State::decidedChannelScale() const {
  if (!scaleKnown.load(std::memory_order_acquire)) {
    // call_once, not decide(): the scan runs once, whichever thread asks first.
    std::call_once(scaleDecided, [&] {
      channelScale = rootChannelScale();
      scaleKnown.store(true, std::memory_order_release);
    });
  }
  return channelScale;
}

bool CopcFile::State::scaleNeedsRoot() const {
  return io::redOffset(choice.layout) >= 0 && decoder->needsChannelScale() &&
         !hierarchy.nodes.empty() && chunkOfNode[0] != SIZE_MAX;
}

uint32_t CopcFile::State::channelMaximum(const uint8_t* data, uint64_t count) const {
  const int64_t red = io::redOffset(choice.layout);
  const uint64_t length = records->recordLength();
  uint32_t maximum = 0;
  for (uint64_t i = 0; i < count; ++i) {
    for (int c = 0; c < 3; ++c) {
      maximum = std::max<uint32_t>(maximum, io::loadLe<uint16_t>(data + i * length + red + 2 * c));
    }
  }
  return maximum;
}

double CopcFile::State::scaleOfRecords(const uint8_t* data, uint64_t count) const {
  if (!scaleNeedsRoot()) return 1.0;
  return io::colorScaleFor(io::ScalarType::UInt16, double(channelMaximum(data, count)));
}

double CopcFile::State::rootChannelScale() const {
  if (!scaleNeedsRoot()) return 1.0;
  uint32_t maximum = 0;
  decodeRecords(chunkOfNode[0], [&](const uint8_t* piece, uint64_t, uint64_t count) {
    maximum = std::max(maximum, channelMaximum(piece, count));
  });
  return io::colorScaleFor(io::ScalarType::UInt16, double(maximum));
}

CopcFile::CopcFile(const std::filesystem::path& path, const ReadOptions& options)
    : CopcFile(path, options, -1.0) {}

CopcFile::CopcFile(const std::filesystem::path& path, const ReadOptions& options,
                   double channelScale)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.path = path;
  s.file = openByteSource(path.string());
  s.context = {path.string(), nullptr, nullptr};
  s.header = io::parseLasHeader(*s.file, s.context);
  if (!io::findCopcInfo(s.header)) s.context.fail("is not COPC: it has no COPC info VLR");
  s.choice = io::chooseFields(s.header, &options);
  s.records = std::make_unique<io::LazPointRecords>(*s.file, s.header, s.context);
  s.decoder = std::make_unique<io::RecordDecoder>(s.choice.layout, s.context);
  // A first opening decodes the root next (its colour scale, and a stream draws it first): a
  // remote root chunk comes with the pages below the root page.
  s.hierarchy = io::parseCopcHierarchy(*s.file, s.header, s.context, channelScale < 0.0);
  s.chunkOfNode = chunksOfNodes(s.hierarchy, *s.records, s.context);
  s.origin = originNear(s.hierarchy.center);
  s.attributeNames = s.choice.layout.attributeNames;
  // A negative scale: none known yet. The root decides, when it is first decoded (which a
  // stream does first) or when a node or channelScale() needs it before.
  if (channelScale >= 0.0) {
    s.decide(channelScale);
  } else if (!s.scaleNeedsRoot()) {
    s.decide(1.0);
  }
}

double CopcFile::channelScale() const {
  return state_->decidedChannelScale();
}

std::optional<double> CopcFile::knownChannelScale() const {
  if (!state_->scaleKnown.load(std::memory_order_acquire)) return std::nullopt;
  return state_->channelScale;
}

uint64_t CopcFile::chunksDecoded() const {
  return state_->chunksDecoded.load(std::memory_order_relaxed);
}

CopcFile::~CopcFile() = default;

const std::filesystem::path& CopcFile::path() const {
  return state_->path;
}
const CopcHierarchy& CopcFile::hierarchy() const {
  return state_->hierarchy;
}
const glm::dvec3& CopcFile::origin() const {
  return state_->origin;
}
bool CopcFile::hasColor() const {
  return state_->decoder->hasColor();
}
const std::vector<std::string>& CopcFile::attributeNames() const {
  return state_->attributeNames;
}
uint64_t CopcFile::pointCount() const {
  return state_->header.pointCount;
}

Box3d CopcFile::statedBounds() const {
  const Box3d stated = io::declaredByHeader(state_->header).worldBounds;
  if (!stated.empty()) return stated;
  const CopcHierarchy& tree = state_->hierarchy;
  Box3d cube;
  cube.extend(tree.center - glm::dvec3(tree.halfSize));
  cube.extend(tree.center + glm::dvec3(tree.halfSize));
  return cube;
}

PointCloud CopcFile::decodeNode(size_t node) const {
  return state_->decode(node);
}

std::optional<uint64_t> CopcFile::firstRecordOf(size_t node) const {
  if (node >= state_->chunkOfNode.size() || state_->chunkOfNode[node] == SIZE_MAX) {
    return std::nullopt;
  }
  return state_->records->layout().chunks[state_->chunkOfNode[node]].firstPoint;
}

void CopcFile::prefetchNodes(const std::vector<size_t>& nodes) const {
  std::vector<ByteRange> ranges;
  for (const size_t node : nodes) {
    if (node >= state_->hierarchy.nodes.size()) continue;
    const CopcNode& n = state_->hierarchy.nodes[node];
    if (n.pointCount > 0) ranges.push_back({n.chunkOffset, n.chunkBytes});
  }
  state_->file->prefetch(ranges);
}

}  // namespace pcv
