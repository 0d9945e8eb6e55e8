// The GPU LAZ decoder against the CPU decoder, whose functions it runs: every file of the shared
// LAZ corpus and files pcv writes (point10 and point14, RGB, NIR, GPS time, extra bytes) decode
// to the same bytes, broken chunks are the same chunks, and the readers give the same clouds and
// the same errors either way. Skips without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <span>
#include <filesystem>
#include <random>

#include "cuda_laz_decoder.hpp"
#include "field_layer_plan.hpp"
#include "io_test_util.hpp"
#include "laz/point14_fields.hpp"
#include "laz_test_support.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io_cuda/cuda_laz.hpp"

namespace pcv::test {
namespace {

/// A LAZ file opened as the readers open it.
struct OpenLaz {
  explicit OpenLaz(const std::filesystem::path& path)
      : file(path),
        context{.file = path.string()},
        header(io::parseLasHeader(file.bytes(), context)),
        records(file.bytes(), header, context) {}
  io::MappedFile file;
  io::ReadContext context;
  io::LasHeader header;
  io::LazPointRecords records;

  std::vector<laz::BatchChunk> batch() const {
    std::vector<laz::BatchChunk> chunks;
    for (const laz::ChunkLocation& c : records.layout().chunks) {
      chunks.push_back({c.offset, c.byteCount, c.pointCount});
    }
    return chunks;
  }
};

/// Chunks the CPU decoder fails on, each decoded alone with a fresh decoder.
std::vector<size_t> cpuBrokenChunks(OpenLaz& laz, const laz::FieldSelection& fields) {
  std::vector<size_t> broken;
  const uint64_t length = laz.records.recordLength();
  std::vector<uint8_t> buffer(4096 * length);
  for (size_t c = 0; c < laz.records.chunkCount(); ++c) {
    if (laz.records.layout().chunks[c].pointCount == 0) continue;
    auto decoder = laz.records.makeDecoder(fields);
    try {
      laz.records.decodeChunk(c, *decoder, buffer.data(), 4096, [](auto...) {});
    } catch (const InputError&) {
      broken.push_back(c);
    }
  }
  return broken;
}

/// Every record the CPU decodes, chunk by chunk (broken chunks' records left zero).
std::vector<uint8_t> cpuRecords(OpenLaz& laz, const laz::FieldSelection& fields) {
  const uint64_t length = laz.records.recordLength();
  std::vector<uint8_t> all(laz.header.pointCount * length, 0);
  std::vector<uint8_t> buffer(4096 * length);
  for (size_t c = 0; c < laz.records.chunkCount(); ++c) {
    auto decoder = laz.records.makeDecoder(fields);
    try {
      laz.records.decodeChunk(c, *decoder, buffer.data(), 4096,
                              [&](const uint8_t* data, uint64_t first, uint64_t count) {
                                std::memcpy(all.data() + first * length, data, count * length);
                              });
    } catch (const InputError&) {
    }
  }
  return all;
}

/// Decodes `path` on both sides with `fields` and compares records and broken chunks; false when
/// the GPU decoder does not take the file.
bool compareDecoders(const std::filesystem::path& path, const laz::FieldSelection& fields,
                     const laz::cuda::CudaLazSettings& settings = {}) {
  OpenLaz laz(path);
  laz::cuda::CudaLazDecoder gpu(settings);
  if (laz.records.sequential() || !gpu.supports(laz.records.vlr())) return false;
  const std::vector<laz::BatchChunk> chunks = laz.batch();
  const uint64_t length = laz.records.recordLength();
  uint64_t points = 0;
  for (const auto& c : chunks) points += c.pointCount;
  std::vector<uint8_t> gpuRecords(points * length, 0);
  const std::vector<size_t> gpuBroken =
      gpu.decode(laz.records.vlr(), fields, laz.file.bytes(), chunks, gpuRecords.data());
  const std::vector<size_t> cpuBroken = cpuBrokenChunks(laz, fields);
  EXPECT_EQ(gpuBroken, cpuBroken);
  const std::vector<uint8_t> expected = cpuRecords(laz, fields);
  EXPECT_EQ(expected.size(), gpuRecords.size());
  // Records of broken chunks are unspecified: compare the others.
  uint64_t first = 0, differing = 0;
  for (size_t c = 0; c < chunks.size(); ++c) {
    const bool broken = std::find(gpuBroken.begin(), gpuBroken.end(), c) != gpuBroken.end();
    const uint64_t end = std::min<uint64_t>(first + chunks[c].pointCount, expected.size() / length);
    for (uint64_t i = first; !broken && i < end; ++i) {
      differing +=
          std::memcmp(expected.data() + i * length, gpuRecords.data() + i * length, length) != 0;
    }
    first += chunks[c].pointCount;
  }
  EXPECT_EQ(differing, 0u) << "records differ between the CPU and the GPU decoder";
  return true;
}

laz::FieldSelection positionsOnly() {
  laz::FieldSelection f;
  f.z = f.classification = f.flags = f.intensity = f.scanAngle = f.userData = f.pointSource =
      f.gpsTime = f.rgb = f.nir = f.wavePacket = f.extraBytes = false;
  f.z = true;
  return f;
}

/// A mix that leaves out layers of every layered item: z, classification, scan angle, user data,
/// point source and RGB stay at the chunk's first values.
laz::FieldSelection someFields() {
  laz::FieldSelection f = positionsOnly();
  f.z = false;
  f.flags = f.intensity = f.gpsTime = f.nir = f.extraBytes = true;
  return f;
}

/// Whether the cases run small (PCV_LAZ_GPU_TESTS_SMALL set, as scripts/gpu-check.sh does):
/// under compute-sanitizer each chunk's serial decode runs a hundred times slower, and which
/// accesses a kernel makes does not depend on how long its chunks are. The corpus files up to
/// 40 kB, and written files of 3 000 points in chunks of at most 1 000.
bool smallRuns() {
  const char* small = std::getenv("PCV_LAZ_GPU_TESTS_SMALL");
  return small != nullptr && *small != '\0' && std::string(small) != "0";
}

std::vector<std::filesystem::path> corpusLazFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(lazCorpusDir())) {
    if (entry.path().extension() != ".laz") continue;
    if (smallRuns() && entry.file_size() > 40000) continue;
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Each test runs twice: on the device (skipped without one), and as the host emulation, which
/// runs the kernels' per-chunk code on the CPU one chunk after the other (no GPU needed), so
/// that the table building, the slot layout and the device-side byte items are checked anywhere.
class CudaLaz : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    std::string why;
    if (!emulated() && !io::cudaLazDecodeUsable(&why)) GTEST_SKIP() << why;
  }
  bool emulated() const { return GetParam(); }
  laz::cuda::CudaLazSettings settings() const {
    laz::cuda::CudaLazSettings s;
    s.emulateOnHost = emulated();
    return s;
  }
  std::shared_ptr<laz::ChunkBatchDecoder> decoder() const {
    return std::make_shared<laz::cuda::CudaLazDecoder>(settings());
  }
};

TEST_P(CudaLaz, DecodesEveryCorpusFileAsTheCpuDoes) {
  PCV_REQUIRE_LAZ_CORPUS();
  int compared = 0;
  for (const auto& path : corpusLazFiles()) {
    SCOPED_TRACE(path.filename().string());
    try {
      if (!compareDecoders(path, {}, settings())) continue;
      compareDecoders(path, positionsOnly(), settings());
      compareDecoders(path, someFields(), settings());
      ++compared;
    } catch (const InputError&) {
      // The header or chunk layout is broken: no chunk to decode on either side.
    }
  }
  EXPECT_GE(compared, smallRuns() ? 8 : 15);
}

/// Records of point format `format` with `extra` extra bytes: random walks and changing fields,
/// so that every model of the codecs sees use.
std::vector<uint8_t> makeRecords(int format, uint16_t length, uint64_t count, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<uint8_t> records(count * length, 0);
  int32_t x = 1000, y = 2000, z = 300;
  double time = 1000.0;
  const bool point14 = format >= 6;
  const uint16_t base = lasFormatRecordBytes(format);
  for (uint64_t i = 0; i < count; ++i) {
    uint8_t* r = records.data() + i * length;
    x += int32_t(random() % 2001) - 1000;
    y += int32_t(random() % 201) - 100;
    z += int32_t(random() % 21) - 10;
    std::memcpy(r, &x, 4);
    std::memcpy(r + 4, &y, 4);
    std::memcpy(r + 8, &z, 4);
    const uint16_t intensity = uint16_t(random() % 4096);
    std::memcpy(r + 12, &intensity, 2);
    const uint32_t returns = 1 + random() % 4, number = 1 + random() % returns;
    if (random() % 3 == 0) time += 0.001 * (random() % 100);
    if (!point14) {
      r[14] = uint8_t(number | (returns << 3) | ((random() % 2) << 6));
      r[15] = uint8_t(random() % 8);
      r[16] = uint8_t(random() % 60);
      r[17] = uint8_t(random() % 4);
      r[18] = uint8_t(random() % 3);
      uint16_t next = 20;
      if (format == 1 || format == 3) {
        std::memcpy(r + next, &time, 8);
        next += 8;
      }
      if (format == 2 || format == 3) {
        for (int c = 0; c < 3; ++c) {
          const uint16_t v = uint16_t((random() % 256) * 257);
          std::memcpy(r + next + 2 * c, &v, 2);
        }
      }
    } else {
      r[14] = uint8_t(number | (returns << 4));
      const uint32_t channel = random() % 8 == 0 ? random() % 4 : 0;
      r[15] = uint8_t((random() % 4) | (channel << 4) | ((random() % 2) << 6));
      r[16] = uint8_t(random() % 20);
      r[17] = uint8_t(random() % 4);
      const int16_t angle = int16_t(random() % 200) - 100;
      std::memcpy(r + 18, &angle, 2);
      const uint16_t source = uint16_t(random() % 3);
      std::memcpy(r + 20, &source, 2);
      std::memcpy(r + 22, &time, 8);
      if (format >= 7) {
        for (int c = 0; c < (format == 8 ? 4 : 3); ++c) {
          const uint16_t v = uint16_t(random() % 65536);
          std::memcpy(r + 30 + 2 * c, &v, 2);
        }
      }
    }
    for (uint16_t b = base; b < length; ++b) r[b] = uint8_t(random() % (b % 2 ? 256 : 4));
  }
  return records;
}

struct WrittenCase {
  int format;
  uint16_t extraBytes;
  uint32_t chunkPoints;
};

std::filesystem::path writeLaz(const WrittenCase& c, uint64_t count, const std::string& name) {
  // A folder of this process's own: the device and host-emulation cases, and sanitizer runs of
  // one case side by side, write files of the same names.
  static const TempDir folder;
  const std::filesystem::path path = folder.file(name);
  LasWriteFormat format;
  format.pointFormat = c.format;
  format.recordLength = uint16_t(lasFormatRecordBytes(c.format) + c.extraBytes);
  format.versionMinor = minimumLasMinorVersion(c.format);
  LasFileWriter writer(path, format, LasCompression::Laz, c.chunkPoints);
  const std::vector<uint8_t> records =
      makeRecords(c.format, format.recordLength, count, uint32_t(c.format * 100 + c.extraBytes));
  writer.write(records.data(), count);
  writer.finish();
  return path;
}

const WrittenCase kWrittenCases[] = {
    {0, 0, 5000}, {1, 0, 5000}, {2, 0, 5000}, {3, 0, 5000}, {3, 5, 3000},  {0, 2, 50000},
    {6, 0, 5000}, {7, 0, 5000}, {8, 0, 5000}, {7, 3, 4000}, {6, 1, 50000},
};

TEST_P(CudaLaz, DecodesFilesPcvWritesAsTheCpuDoes) {
  for (const WrittenCase& c : kWrittenCases) {
    const std::string name =
        "gpu-laz-pf" + std::to_string(c.format) + "-x" + std::to_string(c.extraBytes) + ".laz";
    SCOPED_TRACE(name);
    const std::filesystem::path path = smallRuns()
                                           ? writeLaz({c.format, c.extraBytes, 1000}, 3000, name)
                                           : writeLaz(c, 23456, name);
    EXPECT_TRUE(compareDecoders(path, {}, settings()))
        << "the GPU decoder should take pcv's own files";
    compareDecoders(path, positionsOnly(), settings());
    compareDecoders(path, someFields(), settings());
    std::filesystem::remove(path);
  }
}

/// Chunks sharing a warp, each on its own lane (the automatic choice takes them for batches of
/// many times the chunks the device holds warps for): the same records as the CPU's, pointwise
/// and layered, at 2 to 32 per warp.
TEST_P(CudaLaz, ChunksSharingAWarpDecodeAsTheCpuDoes) {
  if (emulated()) GTEST_SKIP() << "the host emulation decodes one chunk after the other";
  const uint32_t points = smallRuns() ? 3000 : 40000, chunk = smallRuns() ? 200 : 1000;
  for (const WrittenCase c : {WrittenCase{3, 0, chunk}, WrittenCase{7, 3, chunk}}) {
    const std::string name = "gpu-laz-shared-warp-pf" + std::to_string(c.format) + ".laz";
    const std::filesystem::path path = writeLaz(c, points, name);
    for (const uint32_t perWarp : {2u, 4u, 8u, 32u}) {
      SCOPED_TRACE(name + ", " + std::to_string(perWarp) + " chunks per warp");
      laz::cuda::CudaLazSettings s = settings();
      s.chunksPerWarp = perWarp;
      EXPECT_TRUE(compareDecoders(path, {}, s));
      compareDecoders(path, someFields(), s);
    }
    std::filesystem::remove(path);
  }
}

/// One chunk per warp for small batches; more only where the batch fills the device's warps
/// many times over, up to the bound.
TEST(CudaLazSettings, ChunksShareAWarpOnlyInBatchesOfManyWaves) {
  using laz::cuda::autoChunksPerWarp;
  constexpr laz::cuda::WarpSharing layered{4, 5}, pointwise{4, 1}, pairs{2, 5};
  EXPECT_EQ(autoChunksPerWarp(32, 4224, layered), 1u);  // a streaming frame's batch
  EXPECT_EQ(autoChunksPerWarp(8448, 4224, layered), 1u);
  EXPECT_EQ(autoChunksPerWarp(21119, 4224, layered), 1u);
  EXPECT_EQ(autoChunksPerWarp(21120, 4224, layered), 2u);
  EXPECT_EQ(autoChunksPerWarp(42239, 4224, layered), 2u);
  EXPECT_EQ(autoChunksPerWarp(42240, 4224, layered), 4u);
  EXPECT_EQ(autoChunksPerWarp(1u << 20, 4224, layered), 4u);
  EXPECT_EQ(autoChunksPerWarp(1u << 20, 4224, pairs), 2u);
  EXPECT_EQ(autoChunksPerWarp(3000, 3300, pointwise), 1u);
  EXPECT_EQ(autoChunksPerWarp(3300, 3300, pointwise), 2u);
  EXPECT_EQ(autoChunksPerWarp(13147, 3300, pointwise), 4u);
  EXPECT_EQ(autoChunksPerWarp(100, 0, layered), 4u);  // no occupancy known: the bound
  EXPECT_THROW(laz::cuda::CudaLazDecoder({.chunksPerWarp = 3}), std::invalid_argument);
  EXPECT_THROW(laz::cuda::CudaLazDecoder({.chunksPerWarp = 64}), std::invalid_argument);
  EXPECT_NO_THROW(laz::cuda::CudaLazDecoder({.chunksPerWarp = 16}));
}

/// The cloud the public reader gives, on the CPU or with `decoder`.
PointCloud readWith(const std::filesystem::path& path,
                    std::shared_ptr<laz::ChunkBatchDecoder> decoder, std::string* error) {
  ReadOptions options;
  options.lazDecoder = std::move(decoder);
  try {
    return readPointCloud(path, options, nullptr, nullptr);
  } catch (const InputError& e) {
    *error = e.what();
    return {};
  }
}

void expectSameClouds(const PointCloud& a, const PointCloud& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a.origin, b.origin);
  EXPECT_EQ(a.hasColor, b.hasColor);
  EXPECT_EQ(std::memcmp(a.points.data(), b.points.data(), a.size() * sizeof(Point)), 0);
  ASSERT_EQ(a.attributes.size(), b.attributes.size());
  for (size_t i = 0; i < a.attributes.size(); ++i) {
    EXPECT_EQ(a.attributes[i].name, b.attributes[i].name);
    ASSERT_EQ(a.attributes[i].values.size(), b.attributes[i].values.size());
    EXPECT_EQ(std::memcmp(a.attributes[i].values.data(), b.attributes[i].values.data(),
                          a.attributes[i].values.size() * sizeof(float)),
              0)
        << a.attributes[i].name;
  }
}

TEST_P(CudaLaz, ReaderGivesTheCpusCloudsAndErrors) {
  PCV_REQUIRE_LAZ_CORPUS();
  const auto gpu = decoder();
  for (const auto& path : corpusLazFiles()) {
    SCOPED_TRACE(path.filename().string());
    std::string cpuError, gpuError;
    const PointCloud cpu = readWith(path, nullptr, &cpuError);
    const PointCloud device = readWith(path, gpu, &gpuError);
    EXPECT_EQ(gpuError, cpuError);
    if (cpuError.empty()) expectSameClouds(cpu, device);
  }
}

/// Bytes of `path` changed in place.
void patchFile(const std::filesystem::path& path, uint64_t offset, std::span<const uint8_t> bytes) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekp(std::streamoff(offset));
  file.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

TEST_P(CudaLaz, BrokenChunksAreTheCpusAndFailAlike) {
  const uint32_t chunkPoints = smallRuns() ? 400 : 2000;
  for (const WrittenCase& c : {WrittenCase{3, 0, chunkPoints}, WrittenCase{7, 0, chunkPoints}}) {
    const std::string name = "gpu-laz-broken-pf" + std::to_string(c.format) + ".laz";
    SCOPED_TRACE(name);
    const std::filesystem::path path = writeLaz(c, 10 * chunkPoints, name);
    std::vector<laz::ChunkLocation> chunks;
    {
      OpenLaz laz(path);
      chunks = laz.records.layout().chunks;
    }
    ASSERT_GE(chunks.size(), 8u);
    // Chunk 3: garbage in the middle of its compressed data. Chunk 6: a layered chunk's first
    // layer size, or a pointwise chunk's bytes from its first record on, overwritten.
    const std::vector<uint8_t> garbage(64, 0xA7);
    patchFile(path, chunks[3].offset + chunks[3].byteCount / 2, garbage);
    const std::vector<uint8_t> huge = {0xFF, 0xFF, 0xFF, 0x7F};
    const uint64_t recordLength = lasFormatRecordBytes(c.format);
    patchFile(path, chunks[6].offset + recordLength + 4, huge);
    EXPECT_TRUE(compareDecoders(path, {}, settings()));
    std::string cpuError, gpuError;
    readWith(path, nullptr, &cpuError);
    readWith(path, decoder(), &gpuError);
    EXPECT_FALSE(cpuError.empty());
    EXPECT_EQ(gpuError, cpuError);
    std::filesystem::remove(path);
  }
}

/// The second pass's plan for 40 layered chunks (POINT14, RGB14, a BYTE14 of two bytes): one
/// item per wanted, non-empty layer of each good chunk, one layer kind per warp, longest first,
/// state for the channels used, launches within the budget.
TEST(FieldLayerPlan, GroupsOneKindPerWarpWithinTheStateBudget) {
  using namespace laz::cuda;
  const ItemSlot slots[] = {{SlotKind::Point14, 0, 30, 0, 3, 0},
                            {SlotKind::Rgb14, 30, 6, 9, 3, 0},
                            {SlotKind::Byte14, 36, 2, 10, 4, 0}};
  constexpr uint32_t kLayers = 12, kChunks = 40;
  std::vector<DeviceChunk> chunks;
  std::vector<LayerSpan> spans(kChunks * kLayers, LayerSpan{100, 10});
  std::vector<uint32_t> faulty(kChunks, 0), channels(kChunks, 0x11);
  uint64_t first = 0;
  for (uint32_t i = 0; i < kChunks; ++i) {
    const uint64_t points = 1000 + 37 * ((i * 11) % kChunks);
    chunks.push_back({0, 0, points, first, i * kLayers, 0});
    first += points;
  }
  spans[3 * kLayers + laz::kFlagsLayer].size = 0;  // an empty layer: nothing to decode
  faulty[5] = 1;                                   // broken in the first pass
  chunks[6].skip = 1;                              // broken on the host
  chunks[8].pointCount = 1;                        // no layers
  channels[7] = 0x13;  // points on channels 0 and 1, the other items on 0 (version 3)
  FieldWanted wanted;
  wanted.point14Layers = (1u << laz::kZLayer) | (1u << laz::kFlagsLayer);
  wanted.rgb = wanted.extraBytes = true;
  // Less than a warp of z items: those launch alone.
  const uint64_t budget = uint64_t(2) << 20;
  const FieldLayerPlan plan =
      planFieldLayers(slots, chunks, spans, faulty, channels, wanted, budget);

  EXPECT_EQ(plan.decodedItems, 37u * 5 - 1);
  ASSERT_EQ(plan.items.size() % kFieldGroup, 0u);
  uint64_t decoded = 0;
  for (size_t g = 0; g < plan.items.size(); g += kFieldGroup) {
    const FieldItem& lead = plan.items[g];
    ASSERT_NE(lead.kind, FieldKind::None);
    bool padded = false;
    for (size_t i = g; i < g + kFieldGroup; ++i) {
      const FieldItem& item = plan.items[i];
      if (item.kind == FieldKind::None) {
        padded = true;
        continue;
      }
      ++decoded;
      EXPECT_FALSE(padded) << "padding comes last";
      EXPECT_EQ(item.kind, lead.kind) << "item " << i;
      if (i > g) {
        EXPECT_LE(chunks[item.chunk].pointCount, chunks[plan.items[i - 1].chunk].pointCount);
      }
      EXPECT_TRUE(item.chunk != 5 && item.chunk != 6 && item.chunk != 8) << item.chunk;
      EXPECT_FALSE(item.chunk == 3 && item.kind == FieldKind::Flags);
      const bool pointLayer = item.kind == FieldKind::Z || item.kind == FieldKind::Flags;
      EXPECT_EQ(item.contexts, item.chunk == 7 && pointLayer ? 2u : 1u);
      EXPECT_EQ(item.version, item.kind == FieldKind::ExtraByte ? 4u : 3u);
      if (item.kind == FieldKind::ExtraByte) {
        EXPECT_TRUE(item.offset == 36 || item.offset == 37);
      }
      if (item.kind == FieldKind::Rgb) {
        EXPECT_EQ(item.offset, 30u);
      }
    }
  }
  EXPECT_EQ(decoded, plan.decodedItems);
  EXPECT_GT(plan.launches.size(), 1u);
  uint32_t next = 0;
  for (const FieldLaunch& launch : plan.launches) {
    EXPECT_EQ(launch.firstItem, next);
    next += launch.itemCount;
    EXPECT_TRUE(launch.stateBytes <= budget || launch.itemCount == kFieldGroup);
    EXPECT_LE(launch.stateBytes, plan.maxStateBytes);
    // Each item's state inside the launch's and apart from the others'.
    uint64_t end = 0;
    for (uint32_t i = launch.firstItem; i < launch.firstItem + launch.itemCount; ++i) {
      const FieldItem& item = plan.items[i];
      if (item.kind == FieldKind::None) continue;
      EXPECT_GE(item.state, end);
      end = item.state + item.contexts * fieldContextBytes(item.kind);
      EXPECT_LE(end, launch.stateBytes);
    }
  }
  EXPECT_EQ(next, plan.items.size());
}

INSTANTIATE_TEST_SUITE_P(Modes, CudaLaz, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "HostEmulation" : "Device");
                         });

}  // namespace
}  // namespace pcv::test
