// A LAS or LAZ file's overview: records read in place (LAS) or the raw first record of every LAZ
// chunk, copied into one block and decoded as a LAS reader decodes records.
#include "pcv/io/point_sample.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/color_values.hpp"
#include "pcv/io/byte_source.hpp"
#include "common/read_context.hpp"
#include "common/record_decoder.hpp"
#include "las/las_header.hpp"
#include "laz/laz_records.hpp"

namespace pcv {
namespace {

/// The sampled records, copied into one block (the decoder reads them as a LAS file's), and the
/// index in the file of each.
struct SampledRecords {
  std::vector<uint8_t> block;
  std::vector<uint64_t> indices;
};

/// Copies the records at `offsets` (fetched together first where the file is remote).
void copyRecords(const ByteSource& file, const std::vector<ByteRange>& ranges,
                 SampledRecords& sampled) {
  file.prefetch(ranges);
  std::vector<uint8_t> storage;
  for (const ByteRange& range : ranges) {
    const std::span<const uint8_t> record = file.read(range.offset, range.length, storage);
    sampled.block.insert(sampled.block.end(), record.begin(), record.end());
  }
}

SampledRecords lasRecords(const ByteSource& file, const io::LasHeader& header, uint64_t wanted,
                          const io::ReadContext& context) {
  const uint64_t size = file.size();
  const uint64_t available =
      (size - std::min<uint64_t>(size, header.pointsOffset)) / header.recordLength;
  if (header.pointCount > available) {
    context.failAt(header.pointsOffset, "header declares " + std::to_string(header.pointCount) +
                                            " points, but only " + std::to_string(available) +
                                            " records follow (truncated?)");
  }
  SampledRecords sampled;
  std::vector<ByteRange> ranges;
  const uint64_t stride = std::max<uint64_t>(1, header.pointCount / std::max<uint64_t>(wanted, 1));
  for (uint64_t i = 0; i < header.pointCount; i += stride) {
    ranges.push_back({header.pointsOffset + i * header.recordLength, header.recordLength});
    sampled.indices.push_back(i);
  }
  copyRecords(file, ranges, sampled);
  return sampled;
}

SampledRecords lazRecords(const ByteSource& file, const io::LasHeader& header,
                          const io::ReadContext& context) {
  const io::LazPointRecords chunks(file, header, context);
  SampledRecords sampled;
  std::vector<ByteRange> ranges;
  // Without a chunk table only the first chunk's place is known.
  const size_t count =
      chunks.sequential() ? std::min<size_t>(1, chunks.chunkCount()) : chunks.chunkCount();
  for (size_t chunk = 0; chunk < count; ++chunk) {
    const laz::ChunkLocation& where = chunks.layout().chunks[chunk];
    if (where.pointCount == 0 || where.offset + header.recordLength > file.size()) continue;
    ranges.push_back({where.offset, header.recordLength});
    sampled.indices.push_back(where.firstPoint);
  }
  copyRecords(file, ranges, sampled);
  return sampled;
}

}  // namespace

PointSample readPointSample(const std::filesystem::path& path, uint64_t lasPoints,
                            const ReadOptions& options) {
  // Without read-ahead: a sample reads a few hundred records of a file; reading the whole file
  // ahead would read every tile from a cold disk to show a sample of each.
  const std::shared_ptr<const ByteSource> file = openSparseByteSource(path.string());
  const io::ReadContext context{path.string(), nullptr, &options};
  std::vector<uint8_t> storage;
  if (file->size() < 4 || std::memcmp(file->read(0, 4, storage).data(), "LASF", 4) != 0) {
    context.failAt(0, "expected a LAS or LAZ file (\"LASF\") to sample");
  }
  const io::LasHeader header = io::parseLasHeader(*file, context);
  const bool compressed = header.compressed() || header.findVlr("laszip encoded", 22204);
  SampledRecords sampled = compressed ? lazRecords(*file, header, context)
                                      : lasRecords(*file, header, lasPoints, context);
  std::vector<uint8_t>& block = sampled.block;
  io::RecordDecoder decoder(io::lasRecordLayout(header, &options), context);
  const uint64_t count = sampled.indices.size();
  if (decoder.needsChannelScale()) {
    decoder.setChannelScale(
        io::colorScaleFor(io::ScalarType::UInt16, decoder.maxChannelValue(block.data(), count)));
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
    for (auto& attribute : sample.cloud.attributes) attribute.moveValue(out, i);
    kept.push_back(sampled.indices[i]);
    ++out;
  }
  sample.cloud.points.resize(out);
  for (auto& attribute : sample.cloud.attributes) attribute.resize(out);
  sample.recordIndices = std::move(kept);
  return sample;
}

}  // namespace pcv
