// COPC files written by pcv, read back node by node (each chunk sought and decoded alone): every
// input record is there exactly once and unchanged, in a node whose cube holds it; the hierarchy
// adds up to the header; the root holds one point in every occupied cell of its grid and the
// levels grow as a surface's should; a memory budget that forces temporary files gives the same
// octree; failures and cancellation leave no file behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "copc/hierarchy_pages.hpp"
#include "io_test_util.hpp"
#include "laz_test_support.hpp"
#include "pcv/octree/octree_keys.hpp"
#include "pcv/io/copc_hierarchy.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinders.hpp"

namespace pcv::test {
namespace {

PointRecordSource cylinderSource(uint64_t count, uint64_t seed, int format = 7) {
  return [=] {
    CylinderSet scene = makeCylinderSet(seed);
    const Box3d bounds = cylinderSetReach(scene);
    return producedRecords(std::make_shared<CylinderProducer>(std::move(scene), count), bounds,
                           glm::dvec3(0.0), format);
  };
}

/// Every record of a stream, one string each, sorted: the multiset to compare.
std::vector<std::string> recordMultiset(PointRecordStream& stream) {
  std::vector<std::string> all;
  const uint64_t length = stream.format().recordLength;
  const uint8_t* records = nullptr;
  while (const uint64_t n = stream.next(4096, records)) {
    for (uint64_t i = 0; i < n; ++i) {
      all.emplace_back(reinterpret_cast<const char*>(records + i * length), length);
    }
  }
  std::sort(all.begin(), all.end());
  return all;
}

struct CopcContents {
  io::LasHeader header;
  CopcHierarchy hierarchy;
  std::vector<std::vector<std::string>> nodeRecords;  ///< per hierarchy node, sorted
  uint32_t recordLength = 0;
};

/// The nodes of a COPC file, each chunk found through the hierarchy and decoded by itself.
CopcContents readCopc(const std::filesystem::path& path) {
  CopcContents contents;
  const io::MappedFile file(path);
  const io::ReadContext context{.file = path.string()};
  contents.header = io::parseLasHeader(file.bytes(), context);
  contents.hierarchy = readCopcHierarchy(path);
  const io::LasVlr* vlr = contents.header.findVlr(laz::kLaszipUserId, laz::kLaszipRecordId);
  EXPECT_NE(vlr, nullptr);
  if (!vlr) return contents;
  const laz::LaszipVlr laszip =
      laz::parseLaszipVlr(file.bytes().subspan(vlr->payloadOffset, vlr->payloadBytes),
                          contents.header.pointFormat, uint32_t(contents.header.recordLength));
  EXPECT_TRUE(laszip.variableChunks());
  contents.recordLength = uint32_t(contents.header.recordLength);
  laz::ChunkDecoder decoder(laszip, {});
  for (const CopcNode& node : contents.hierarchy.nodes) {
    std::vector<std::string> records;
    if (node.pointCount > 0) {
      std::vector<uint8_t> buffer(node.pointCount * contents.recordLength);
      decoder.start(file.data() + node.chunkOffset, node.chunkBytes, node.pointCount);
      decoder.decode(node.pointCount, buffer.data());
      EXPECT_FALSE(decoder.fault().has_value())
          << "node " << node.key.level << "-" << node.key.x << "-" << node.key.y << "-"
          << node.key.z << ": " << decoder.fault()->what;
      for (uint64_t i = 0; i < node.pointCount; ++i) {
        records.emplace_back(
            reinterpret_cast<const char*>(buffer.data()) + i * contents.recordLength,
            contents.recordLength);
      }
      std::sort(records.begin(), records.end());
    }
    contents.nodeRecords.push_back(std::move(records));
  }
  return contents;
}

std::vector<std::string> allRecords(const CopcContents& contents) {
  std::vector<std::string> all;
  for (const auto& node : contents.nodeRecords) all.insert(all.end(), node.begin(), node.end());
  std::sort(all.begin(), all.end());
  return all;
}

glm::dvec3 worldOf(const std::string& record, const io::LasHeader& header) {
  int32_t xyz[3];
  std::memcpy(xyz, record.data(), 12);
  return {xyz[0] * header.scale[0] + header.offset[0], xyz[1] * header.scale[1] + header.offset[1],
          xyz[2] * header.scale[2] + header.offset[2]};
}

/// Which of the root's 128^3 grid cells a point lies in.
uint64_t rootCellOf(const glm::dvec3& world, const CopcHierarchy& h) {
  const glm::dvec3 corner = h.center - glm::dvec3(h.halfSize);
  const double cell = 2.0 * h.halfSize / kSampleGridCells;
  uint64_t index = 0;
  for (int a = 0; a < 3; ++a) {
    const uint64_t c =
        std::min<uint64_t>(kSampleGridCells - 1, uint64_t((world[a] - corner[a]) / cell));
    index = index * kSampleGridCells + c;
  }
  return index;
}

std::vector<std::string> filesIn(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// Points outside the cube of the node holding them (a grid step of slack), over all nodes.
uint64_t pointsOutsideTheirNodes(const CopcContents& contents) {
  uint64_t outside = 0;
  for (size_t n = 0; n < contents.hierarchy.nodes.size(); ++n) {
    const CopcNode& node = contents.hierarchy.nodes[n];
    for (const std::string& record : contents.nodeRecords[n]) {
      const glm::dvec3 w = worldOf(record, contents.header);
      bool inside = true;
      for (int a = 0; a < 3; ++a) {
        const double slack = contents.header.scale[a];
        inside &= w[a] >= node.bounds.min[a] - slack && w[a] <= node.bounds.max[a] + slack;
      }
      outside += !inside;
    }
  }
  return outside;
}

class CylinderCopc : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    directory_ = new TempDir;
    summary_ = writeCopcFile(cylinderSource(kPoints, 7), path(), {.maxPointsPerNode = kNodePoints});
    contents_ = new CopcContents(readCopc(path()));
  }
  static void TearDownTestSuite() {
    delete contents_;
    delete directory_;
  }
  static std::filesystem::path path() { return directory_->file("cylinders.copc.laz"); }

  static constexpr uint64_t kPoints = 400000;
  static constexpr uint32_t kNodePoints = 4000;
  static inline TempDir* directory_ = nullptr;
  static inline CopcWriteSummary summary_;
  static inline CopcContents* contents_ = nullptr;
};

TEST_F(CylinderCopc, EveryPointIsPresentOnceAndUnchanged) {
  auto input = cylinderSource(kPoints, 7)();
  EXPECT_EQ(allRecords(*contents_), recordMultiset(*input));
  EXPECT_EQ(summary_.pointCount, kPoints);
  EXPECT_EQ(contents_->header.pointFormat, 7);
  EXPECT_EQ(contents_->header.versionMinor, 4);
}

TEST_F(CylinderCopc, NodesHoldOnlyPointsOfTheirCube) {
  ASSERT_GT(contents_->hierarchy.levelCount(), 3u);
  EXPECT_EQ(pointsOutsideTheirNodes(*contents_), 0u);
  for (const CopcNode& node : contents_->hierarchy.nodes) {
    if (node.pointCount == 0) continue;
    if (node.key.level == 0) continue;
    // Leaves hold at most the limit; nodes above, one point per cell of their grid.
    EXPECT_LE(node.pointCount, uint64_t(kSampleGridCells) * kSampleGridCells * kSampleGridCells);
  }
}

TEST_F(CylinderCopc, HierarchyCountsAddUpToTheHeader) {
  uint64_t sum = 0, withPoints = 0;
  for (const CopcNode& node : contents_->hierarchy.nodes) {
    sum += node.pointCount;
    withPoints += node.pointCount > 0;
  }
  EXPECT_EQ(sum, contents_->header.pointCount);
  EXPECT_EQ(withPoints, summary_.nodeCount);
  EXPECT_EQ(contents_->hierarchy.pointsPerLevel(), summary_.pointsPerLevel);
  // Every node but the root has its parent listed, so readers walking down reach it.
  std::set<std::tuple<int, int, int, int>> keys;
  for (const CopcNode& node : contents_->hierarchy.nodes) {
    EXPECT_TRUE(keys.insert({node.key.level, node.key.x, node.key.y, node.key.z}).second);
  }
  for (const CopcNode& node : contents_->hierarchy.nodes) {
    if (node.key.level == 0) continue;
    EXPECT_TRUE(
        keys.contains({node.key.level - 1, node.key.x / 2, node.key.y / 2, node.key.z / 2}));
  }
}

TEST_F(CylinderCopc, TheRootCoversTheCloudEvenly) {
  const CopcHierarchy& h = contents_->hierarchy;
  EXPECT_DOUBLE_EQ(h.spacing, 2.0 * h.halfSize / kSampleGridCells);
  std::set<uint64_t> occupied;
  for (const std::string& record : allRecords(*contents_)) {
    occupied.insert(rootCellOf(worldOf(record, contents_->header), h));
  }
  std::set<uint64_t> rootCells;
  size_t rootNode = h.nodes.size();
  for (size_t n = 0; n < h.nodes.size(); ++n) {
    if (h.nodes[n].key.level == 0) rootNode = n;
  }
  ASSERT_LT(rootNode, h.nodes.size());
  for (const std::string& record : contents_->nodeRecords[rootNode]) {
    EXPECT_TRUE(rootCells.insert(rootCellOf(worldOf(record, contents_->header), h)).second)
        << "two root points in one cell";
  }
  EXPECT_EQ(rootCells, occupied) << "the root holds a point in every occupied cell of its grid";
}

TEST_F(CylinderCopc, LevelSizesGrowAsASurfaceDoes) {
  // A level of nodes above the leaves holds about the cells its grid adds to those of the levels
  // above: a surface's four times as many cells per level, less where the grid does not resolve
  // the cylinders' curvature yet or the points run out (a line would give 1, a volume 7). Levels
  // where leaves (which keep every point they have) hold a tenth of the points are left out.
  const CopcHierarchy& h = contents_->hierarchy;
  const std::vector<uint64_t> perLevel = h.pointsPerLevel();
  std::vector<uint64_t> inLeaves(perLevel.size(), 0);
  for (const CopcNode& node : h.nodes) {
    const bool hasChildren = std::any_of(h.nodes.begin(), h.nodes.end(), [&](const CopcNode& c) {
      return c.key.level == node.key.level + 1 && c.key.x / 2 == node.key.x &&
             c.key.y / 2 == node.key.y && c.key.z / 2 == node.key.z;
    });
    if (!hasChildren) inLeaves[node.key.level] += node.pointCount;
  }
  int checked = 0;
  for (size_t level = 1; level < perLevel.size(); ++level) {
    if (inLeaves[level] * 10 > perLevel[level] || inLeaves[level - 1] * 10 > perLevel[level - 1])
      continue;
    const double growth = double(perLevel[level]) / double(perLevel[level - 1]);
    EXPECT_GT(growth, 2.2) << "level " << level;
    EXPECT_LT(growth, 5.0) << "level " << level;
    ++checked;
  }
  EXPECT_GE(checked, 2) << "the test cloud should have levels above its leaves";
}

TEST_F(CylinderCopc, OpensAsLazAndAsCopc) {
  EXPECT_TRUE(isCopcFile(path()));
  const FileSummary summary = summarizePointCloud(path());
  EXPECT_EQ(summary.format, "COPC");
  EXPECT_EQ(summary.pointCount, kPoints);
  EXPECT_TRUE(summary.hasColor);
  // Whole-file decoding goes through the chunk table, which lists the nodes' chunks.
  io::LasHeader header;
  const std::vector<uint8_t> records = decodeAllRecords(path(), {}, 777, &header);
  EXPECT_EQ(records.size(), kPoints * header.recordLength);
}

TEST_F(CylinderCopc, LeavesNoTemporaryFiles) {
  EXPECT_EQ(filesIn(path().parent_path()), std::vector<std::string>{"cylinders.copc.laz"});
  EXPECT_EQ(summary_.temporaryBytes, 0u);
  EXPECT_EQ(summary_.partsBuilt, 1u);
}

TEST(CopcWriter, ASmallMemoryBudgetGivesTheSameOctreeThroughTemporaryFiles) {
  TempDir dir;
  constexpr uint64_t kPoints = 150000;
  const CopcWriteSummary inMemory = writeCopcFile(
      cylinderSource(kPoints, 3), dir.file("memory.copc.laz"), {.maxPointsPerNode = 2000});
  // 2.5 MiB: parts of about 25 000 points, so the level-3 cells (up to 512) are built apart and
  // the largest is split again.
  const CopcWriteSummary onDisk = writeCopcFile(
      cylinderSource(kPoints, 3), dir.file("disk.copc.laz"),
      {.memoryBytes = 2560 << 10, .tempDirectory = dir.file(""), .maxPointsPerNode = 2000});
  EXPECT_EQ(inMemory.temporaryBytes, 0u);
  EXPECT_GE(onDisk.temporaryBytes, kPoints * 36) << "every point went through a temporary file";
  EXPECT_GT(onDisk.partsBuilt, 4u);
  EXPECT_EQ(onDisk.pointsPerLevel, inMemory.pointsPerLevel);
  const CopcContents a = readCopc(dir.file("memory.copc.laz"));
  const CopcContents b = readCopc(dir.file("disk.copc.laz"));
  std::map<std::tuple<int, int, int, int>, const std::vector<std::string>*> nodesOfA;
  for (size_t n = 0; n < a.hierarchy.nodes.size(); ++n) {
    const CopcNodeKey& k = a.hierarchy.nodes[n].key;
    nodesOfA[{k.level, k.x, k.y, k.z}] = &a.nodeRecords[n];
  }
  ASSERT_EQ(a.hierarchy.nodes.size(), b.hierarchy.nodes.size());
  for (size_t n = 0; n < b.hierarchy.nodes.size(); ++n) {
    const CopcNodeKey& k = b.hierarchy.nodes[n].key;
    const auto it = nodesOfA.find({k.level, k.x, k.y, k.z});
    ASSERT_NE(it, nodesOfA.end()) << "node " << k.level << "-" << k.x << "-" << k.y << "-" << k.z;
    EXPECT_EQ(*it->second, b.nodeRecords[n])
        << "node " << k.level << "-" << k.x << "-" << k.y << "-" << k.z;
  }
  EXPECT_EQ(filesIn(dir.file("")), (std::vector<std::string>{"disk.copc.laz", "memory.copc.laz"}));
}

/// A stream that fails, cancels or lies about its bounds or count part of the way through another.
class MisbehavingStream : public PointRecordStream {
 public:
  enum class Fault {
    FailOnThirdBatch,
    CancelAfterFirstBatch,
    DeclareHalfTheBounds,
    DeclareHalfThePoints
  };

  MisbehavingStream(std::unique_ptr<PointRecordStream> inner, Fault fault,
                    CopcWriteProgress* progress)
      : inner_(std::move(inner)), fault_(fault), progress_(progress) {
    format_ = inner_->format();
    pointCount_ = inner_->pointCount();
    bounds_ = inner_->bounds();
    if (fault == Fault::DeclareHalfTheBounds) bounds_.max = bounds_.center();
    if (fault == Fault::DeclareHalfThePoints) pointCount_ /= 2;
  }
  uint64_t next(uint64_t maxPoints, const uint8_t*& records) override {
    ++batches_;
    if (fault_ == Fault::FailOnThirdBatch && batches_ == 3) {
      throw InputError("broken.las: byte 1234: a record that cannot be read");
    }
    if (fault_ == Fault::CancelAfterFirstBatch && batches_ == 2) progress_->cancel = true;
    return inner_->next(std::min<uint64_t>(maxPoints, 20000), records);
  }

 private:
  std::unique_ptr<PointRecordStream> inner_;
  Fault fault_;
  CopcWriteProgress* progress_;
  int batches_ = 0;
};

TEST(CopcWriter, FailureAndCancellationLeaveNoFiles) {
  using Fault = MisbehavingStream::Fault;
  for (const uint64_t memory : {uint64_t(0), uint64_t(2560) << 10}) {
    for (const Fault fault : {Fault::FailOnThirdBatch, Fault::CancelAfterFirstBatch}) {
      SCOPED_TRACE(::testing::Message() << "memory " << memory << ", fault " << int(fault));
      TempDir dir;
      CopcWriteProgress progress;
      const PointRecordSource source = [&] {
        return std::make_unique<MisbehavingStream>(cylinderSource(100000, 2)(), fault, &progress);
      };
      const std::filesystem::path out = dir.file("out.copc.laz");
      const CopcWriteOptions options{.memoryBytes = memory, .maxPointsPerNode = 2000};
      if (fault == Fault::FailOnThirdBatch) {
        EXPECT_THROW(writeCopcFile(source, out, options, &progress), InputError);
      } else {
        EXPECT_THROW(writeCopcFile(source, out, options, &progress), ConversionCancelled);
      }
      EXPECT_TRUE(filesIn(dir.file("")).empty())
          << "left: " << ::testing::PrintToString(filesIn(dir.file("")));
    }
  }
}

TEST(CopcWriter, BoundsOrCountsDeclaredWrongAreMeasured) {
  TempDir dir;
  using Fault = MisbehavingStream::Fault;
  for (const Fault fault : {Fault::DeclareHalfTheBounds, Fault::DeclareHalfThePoints}) {
    // In memory (the keys made while reading, from the declared cube, must be made again), then
    // through temporary files.
    for (const uint64_t memoryBytes : {uint64_t(0), uint64_t(2560) << 10}) {
      SCOPED_TRACE(::testing::Message()
                   << (fault == Fault::DeclareHalfTheBounds ? "half the bounds" : "half the points")
                   << (memoryBytes ? ", through temporary files" : ", in memory"));
      const PointRecordSource source = [fault] {
        return std::make_unique<MisbehavingStream>(cylinderSource(60000, 4)(), fault, nullptr);
      };
      const CopcWriteSummary summary = writeCopcFile(
          source, dir.file("out.copc.laz"), {.memoryBytes = memoryBytes, .maxPointsPerNode = 2000});
      if (memoryBytes && fault == Fault::DeclareHalfTheBounds) {
        EXPECT_GT(summary.temporaryBytes, 0u);
      }
      const CopcContents contents = readCopc(dir.file("out.copc.laz"));
      auto input = cylinderSource(60000, 4)();
      EXPECT_EQ(allRecords(contents), recordMultiset(*input));
      EXPECT_EQ(pointsOutsideTheirNodes(contents), 0u);
      const glm::dvec3 corner = contents.hierarchy.center - glm::dvec3(contents.hierarchy.halfSize);
      const Box3d& bounds = input->bounds();
      for (int a = 0; a < 3; ++a) EXPECT_LE(corner[a], bounds.max[a]);
    }
  }
}

TEST(CopcWriter, KeepsTheRecordsOfLasAndLazFiles) {
  PCV_REQUIRE_LAZ_CORPUS();
  for (const char* name : {"lone-star.copc.laz", "extrabytes.laz", "point-time.las",
                           "1.2-with-color.copc.laz", "autzen_trim.laz"}) {
    SCOPED_TRACE(name);
    const std::filesystem::path input = lazCorpusDir() / name;
    TempDir dir;
    const PointRecordSource source = [&] { return openLasRecords(input); };
    const CopcWriteSummary summary =
        writeCopcFile(source, dir.file("out.copc.laz"), {.maxPointsPerNode = 5000});
    auto original = openLasRecords(input);
    const LasWriteFormat format = copcFormatFor(original->format());
    EXPECT_EQ(summary.pointFormat, format.pointFormat);
    auto expected = reformatRecords(std::move(original), format);
    const CopcContents contents = readCopc(dir.file("out.copc.laz"));
    EXPECT_EQ(contents.recordLength, format.recordLength);
    EXPECT_EQ(allRecords(contents), recordMultiset(*expected));
    // The input's VLRs (coordinate system, extra bytes) come along, after the COPC info.
    const io::LasHeader& header = contents.header;
    ASSERT_FALSE(header.vlrs.empty());
    EXPECT_EQ(header.vlrs[0].userId, "copc");
    EXPECT_EQ(header.vlrs[0].recordId, 1);
    EXPECT_EQ(header.vlrs[0].payloadOffset, 375u + 54u) << "the info VLR follows the header";
  }
}

TEST(CopcWriter, RefusesPointFormatsCopcCannotHold) {
  TempDir dir;
  EXPECT_THROW(writeCopcFile(cylinderSource(100, 1), dir.file("x.copc.laz"), {.pointFormat = 3}),
               InputError);
  EXPECT_THROW(writeCopcFile(cylinderSource(100, 1), dir.file("x.copc.laz"),
                             {.memoryBytes = 1 << 20, .maxPointsPerNode = 100000}),
               InputError)
      << "too little memory for the nodes";
  EXPECT_TRUE(filesIn(dir.file("")).empty());
}

TEST(CopcWriter, AnEmptyInputGivesAnEmptyOctree) {
  TempDir dir;
  const CopcWriteSummary summary = writeCopcFile(cylinderSource(0, 1), dir.file("e.copc.laz"));
  EXPECT_EQ(summary.pointCount, 0u);
  const CopcHierarchy h = readCopcHierarchy(dir.file("e.copc.laz"));
  ASSERT_EQ(h.nodes.size(), 1u);
  EXPECT_EQ(h.nodes[0].pointCount, 0u);
}

TEST(CopcHierarchyPages, PagesHoldEveryEntryAndPointToEachOther) {
  // A full octree three levels deep (1 + 8 + 64 + 512 nodes) in pages of at most 80 entries.
  std::vector<io::CopcHierarchyEntry> entries;
  for (int level = 0; level <= 3; ++level) {
    const int cells = 1 << level;
    for (int x = 0; x < cells; ++x)
      for (int y = 0; y < cells; ++y)
        for (int z = 0; z < cells; ++z) {
          entries.push_back({.key = {.level = level, .x = x, .y = y, .z = z},
                             .chunkOffset = uint64_t(1000 + entries.size()),
                             .chunkBytes = 10,
                             .pointCount = uint64_t(level + 1)});
        }
  }
  constexpr uint64_t kPayloadOffset = 5000;
  const io::PackedCopcHierarchy packed = io::packCopcHierarchy(entries, kPayloadOffset, 80);
  EXPECT_GT(packed.pageCount, 1u);
  // Walk the pages from the root as a reader does.
  std::map<std::tuple<int, int, int, int>, io::CopcHierarchyEntry> found;
  std::vector<std::pair<uint64_t, uint64_t>> pages{{kPayloadOffset, packed.rootPageBytes}};
  while (!pages.empty()) {
    const auto [offset, bytes] = pages.back();
    pages.pop_back();
    ASSERT_GE(offset, kPayloadOffset);
    ASSERT_LE(offset - kPayloadOffset + bytes, packed.payload.size());
    EXPECT_LE(bytes / 32, 80u + 8u);
    for (uint64_t at = offset - kPayloadOffset; at < offset - kPayloadOffset + bytes; at += 32) {
      int32_t key[4], byteSize, pointCount;
      uint64_t chunk;
      std::memcpy(key, packed.payload.data() + at, 16);
      std::memcpy(&chunk, packed.payload.data() + at + 16, 8);
      std::memcpy(&byteSize, packed.payload.data() + at + 24, 4);
      std::memcpy(&pointCount, packed.payload.data() + at + 28, 4);
      if (pointCount == -1) {
        pages.push_back({chunk, uint64_t(byteSize)});
        continue;
      }
      EXPECT_TRUE(found
                      .insert({{key[0], key[1], key[2], key[3]},
                               {.key = {key[0], key[1], key[2], key[3]},
                                .chunkOffset = chunk,
                                .chunkBytes = uint64_t(byteSize),
                                .pointCount = uint64_t(pointCount)}})
                      .second);
    }
  }
  ASSERT_EQ(found.size(), entries.size());
  for (const auto& e : entries) {
    const auto& f = found.at({e.key.level, e.key.x, e.key.y, e.key.z});
    EXPECT_EQ(f.chunkOffset, e.chunkOffset);
    EXPECT_EQ(f.pointCount, e.pointCount);
  }
}

TEST(CopcHierarchyPages, MissingParentsAreListedWithoutPoints) {
  const io::PackedCopcHierarchy packed =
      io::packCopcHierarchy({{.key = {.level = 2, .x = 3, .y = 1, .z = 0},
                              .chunkOffset = 9,
                              .chunkBytes = 4,
                              .pointCount = 7}},
                            100);
  ASSERT_EQ(packed.payload.size(), 3u * 32u);  // the root, 1-1-0-0 and the node
  EXPECT_THROW(io::packCopcHierarchy({{.key = {}}, {.key = {}}}, 0), Error);
}

}  // namespace
}  // namespace pcv::test
