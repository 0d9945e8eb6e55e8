// A LAS or LAZ file's overview: records read in place (LAS) or the raw first record of every LAZ
// chunk, copied into one block and decoded as a LAS reader decodes records.
#include "pcv/io/point_sample.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/colour_values.hpp"
#include "common/mapped_file.hpp"
#include "common/read_context.hpp"
#include "common/record_decoder.hpp"
#include "las/las_header.hpp"
#include "laz/laz_records.hpp"

namespace pcv {
namespace {

/// Where each sampled record lies and its index in the file.
struct SampledRecords {
  std::vector<const uint8_t*> records;
  std::vector<uint64_t> indices;
};

SampledRecords lasRecords(std::span<const uint8_t> bytes, const io::LasHeader& header,
                          uint64_t wanted, const io::ReadContext& context) {
  const uint64_t available =
      (bytes.size() - std::min<uint64_t>(bytes.size(), header.pointsOffset)) / header.recordLength;
  if (header.pointCount > available) {
    context.failAt(header.pointsOffset, "header declares " + std::to_string(header.pointCount) +
                                            " points, but only " + std::to_string(available) +
                                            " records follow (truncated?)");
  }
  SampledRecords sampled;
  const uint64_t stride = std::max<uint64_t>(1, header.pointCount / std::max<uint64_t>(wanted, 1));
  for (uint64_t i = 0; i < header.pointCount; i += stride) {
    sampled.records.push_back(bytes.data() + header.pointsOffset + i * header.recordLength);
    sampled.indices.push_back(i);
  }
  return sampled;
}

SampledRecords lazRecords(std::span<const uint8_t> bytes, const io::LasHeader& header,
                          const io::ReadContext& context) {
  const io::LazPointRecords chunks(bytes, header, context);
  SampledRecords sampled;
  // Without a chunk table only the first chunk's place is known.
  const size_t count =
      chunks.sequential() ? std::min<size_t>(1, chunks.chunkCount()) : chunks.chunkCount();
  for (size_t chunk = 0; chunk < count; ++chunk) {
    const laz::ChunkLocation& where = chunks.layout().chunks[chunk];
    if (where.pointCount == 0 || where.offset + header.recordLength > bytes.size()) continue;
    sampled.records.push_back(chunks.firstRecordOf(chunk));
    sampled.indices.push_back(where.firstPoint);
  }
  return sampled;
}

}  // namespace

PointSample readPointSample(const std::filesystem::path& path, uint64_t lasPoints,
                            const ReadOptions& options) {
  const io::MappedFile file(path);
  const io::ReadContext context{path.string(), nullptr, &options};
  const std::span<const uint8_t> bytes = file.bytes();
  if (bytes.size() < 4 || std::memcmp(bytes.data(), "LASF", 4) != 0) {
    context.failAt(0, "expected a LAS or LAZ file (\"LASF\") to sample");
  }
  const io::LasHeader header = io::parseLasHeader(bytes, context);
  const bool compressed = header.compressed() || header.findVlr("laszip encoded", 22204);
  const SampledRecords sampled = compressed ? lazRecords(bytes, header, context)
                                            : lasRecords(bytes, header, lasPoints, context);
  // One block of the raw records, so the decoder reads them as it reads a LAS file's.
  std::vector<uint8_t> block(sampled.records.size() * header.recordLength);
  for (size_t i = 0; i < sampled.records.size(); ++i) {
    std::memcpy(block.data() + i * header.recordLength, sampled.records[i], header.recordLength);
  }
  io::RecordDecoder decoder(io::lasRecordLayout(header), context);
  const uint64_t count = sampled.records.size();
  if (decoder.needsChannelScale()) {
    decoder.setChannelScale(
        io::colourScaleFor(io::ScalarType::UInt16, decoder.maxChannelValue(block.data(), count)));
  }
  PointSample sample;
  sample.cloud = decoder.allocateCloud(count, decoder.originOf(block.data(), count), context);
  decoder.decode(block.data(), 0, count, sample.cloud, 0);
  // Non-finite positions are left out, as readers drop them; their indices go with them.
  std::vector<uint64_t> kept;
  size_t out = 0;
  for (size_t i = 0; i < count; ++i) {
    const Point& p = sample.cloud.points[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
    sample.cloud.points[out] = p;
    for (auto& attribute : sample.cloud.attributes) attribute.values[out] = attribute.values[i];
    kept.push_back(sampled.indices[i]);
    ++out;
  }
  sample.cloud.points.resize(out);
  for (auto& attribute : sample.cloud.attributes) attribute.values.resize(out);
  sample.recordIndices = std::move(kept);
  return sample;
}

}  // namespace pcv
