// COPC 1.0: the info VLR (160 bytes: center x, y, z, half-size, spacing, root hierarchy page
// offset and size, GPS time minimum and maximum, 88 reserved bytes) must follow the header
// directly; the LASzip VLR says chunks vary in size; the hierarchy is the EVLR "copc" 1000.
#include "copc_file_writer.hpp"

#include <cstring>
#include <limits>
#include <string>

#include "pcv/core/error.hpp"

namespace pcv::io {
namespace {

LasWriteFormat withCopcVlrs(const LasWriteFormat& records) {
  if (records.pointFormat < 6 || records.pointFormat > 8 || records.versionMinor != 4) {
    throw Error("COPC stores point formats 6, 7 and 8 in LAS 1.4, not point format " +
                std::to_string(records.pointFormat) + " in LAS 1." +
                std::to_string(records.versionMinor));
  }
  LasWriteFormat format = records;
  format.vlrs.clear();
  format.vlrs.push_back({.userId = kCopcUserId,
                         .recordId = kCopcInfoRecordId,
                         .description = "COPC info",
                         .payload = std::vector<uint8_t>(kCopcInfoBytes, 0)});
  for (const LasVariableRecord& vlr : records.vlrs) format.vlrs.push_back(vlr);
  format.evlrs.clear();
  return format;
}

template <typename T>
void store(std::vector<uint8_t>& bytes, size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof(T));
}

}  // namespace

CopcFileWriter::CopcFileWriter(const std::filesystem::path& path, const LasWriteFormat& format)
    : las_(path, withCopcVlrs(format), LasCompression::Laz, kLasVariableChunks),
      evlrs_(format.evlrs) {}

void CopcFileWriter::writeNodes(std::span<const CopcNodeRecords> nodes) {
  std::vector<LasChunkRecords> chunks;
  chunks.reserve(nodes.size());
  for (const CopcNodeRecords& node : nodes) {
    if (node.count > uint64_t(std::numeric_limits<int32_t>::max())) {
      throw Error("COPC node " + std::to_string(node.key.level) + "-" + std::to_string(node.key.x) +
                  "-" + std::to_string(node.key.y) + "-" + std::to_string(node.key.z) +
                  " would hold " + std::to_string(node.count) +
                  " points, more than a hierarchy entry can count (2^31 - 1)");
    }
    chunks.push_back({.records = node.records, .count = node.count});
  }
  const std::vector<LasChunkPlacement> placements = las_.writeChunks(chunks);
  for (size_t i = 0; i < nodes.size(); ++i) {
    entries_.push_back({.key = nodes[i].key,
                        .chunkOffset = placements[i].offset,
                        .chunkBytes = placements[i].bytes,
                        .pointCount = nodes[i].count});
    pointsWritten_ += nodes[i].count;
  }
  nodesWritten_ += nodes.size();
}

void CopcFileWriter::addEmptyNode(const CopcNodeKey& key) {
  entries_.push_back({.key = key});
}

void CopcFileWriter::finish(const CopcCube& cube, double spacing, double gpsTimeMin,
                            double gpsTimeMax) {
  constexpr uint64_t kEvlrHeaderBytes = 60;
  const uint64_t evlrStart = las_.finishPoints();
  const uint64_t payloadOffset = evlrStart + kEvlrHeaderBytes;
  PackedCopcHierarchy hierarchy = packCopcHierarchy(entries_, payloadOffset);
  std::vector<uint8_t> info(kCopcInfoBytes, 0);
  store(info, 0, cube.center.x);
  store(info, 8, cube.center.y);
  store(info, 16, cube.center.z);
  store(info, 24, cube.halfSize);
  store(info, 32, spacing);
  store(info, 40, payloadOffset);
  store(info, 48, hierarchy.rootPageBytes);
  store(info, 56, gpsTimeMin);
  store(info, 64, gpsTimeMax);
  las_.replaceVlrPayload(0, std::move(info));
  std::vector<LasVariableRecord> evlrs;
  evlrs.push_back({.userId = kCopcUserId,
                   .recordId = kCopcHierarchyRecordId,
                   .description = "COPC hierarchy",
                   .payload = std::move(hierarchy.payload)});
  for (LasVariableRecord& evlr : evlrs_) evlrs.push_back(std::move(evlr));
  las_.setEvlrs(std::move(evlrs));
  las_.finish();
}

}  // namespace pcv::io
