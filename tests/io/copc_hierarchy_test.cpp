// The COPC octree read from the info VLR and hierarchy pages: its nodes are the file's chunks
// (same offsets, sizes and point counts as the chunk table), every point of a node's chunk lies
// in the node's cube, pages that point to other pages are followed, and broken hierarchies are
// InputErrors naming the byte.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>

#include "io_test_util.hpp"
#include "laz_test_support.hpp"
#include "pcv/io/copc_hierarchy.hpp"

namespace pcv::test {
namespace {

const char* kCopcFiles[] = {"lone-star.copc.laz", "1.2-with-color.copc.laz",
                            "simple_with_page.copc.laz"};

TEST(CopcHierarchy, NodesAreTheChunksAndHoldTheirPoints) {
  PCV_REQUIRE_LAZ_CORPUS();
  for (const char* name : kCopcFiles) {
    SCOPED_TRACE(name);
    const std::filesystem::path path = lazCorpusDir() / name;
    ASSERT_TRUE(isCopcFile(path));
    const CopcHierarchy hierarchy = readCopcHierarchy(path);
    const io::MappedFile file(path);
    const io::ReadContext context{.file = name};
    const io::LasHeader header = io::parseLasHeader(file.bytes(), context);
    io::LazPointRecords records(file.bytes(), header, context);
    std::map<uint64_t, size_t> chunkAt;  // file offset -> chunk index
    for (size_t c = 0; c < records.chunkCount(); ++c)
      chunkAt[records.layout().chunks[c].offset] = c;
    uint64_t points = 0;
    auto decoder = records.makeDecoder({});
    std::vector<uint8_t> buffer(4096 * records.recordLength());
    for (const CopcNode& node : hierarchy.nodes) {
      if (node.pointCount == 0) continue;
      points += node.pointCount;
      ASSERT_EQ(chunkAt.count(node.chunkOffset), 1u) << "a node's chunk is a chunk of the table";
      const size_t c = chunkAt[node.chunkOffset];
      const laz::ChunkLocation& chunk = records.layout().chunks[c];
      EXPECT_EQ(chunk.byteCount, node.chunkBytes);
      EXPECT_EQ(chunk.pointCount, node.pointCount);
      // Every point of the chunk lies in the node's cube (the cube is closed: points on a face
      // belong to one of the nodes that share it).
      uint64_t outside = 0;
      records.decodeChunk(
          c, *decoder, buffer.data(), 4096, [&](const uint8_t* data, uint64_t, uint64_t count) {
            for (uint64_t i = 0; i < count; ++i) {
              for (int a = 0; a < 3; ++a) {
                int32_t raw;
                std::memcpy(&raw, data + i * records.recordLength() + 4 * a, 4);
                const double world = raw * header.scale[a] + header.offset[a];
                const double slack = header.scale[a];
                outside += world < node.bounds.min[a] - slack || world > node.bounds.max[a] + slack;
              }
            }
          });
      EXPECT_EQ(outside, 0u) << "node " << node.key.level << "-" << node.key.x << "-" << node.key.y
                             << "-" << node.key.z;
    }
    EXPECT_EQ(points, header.pointCount);
  }
}

TEST(CopcHierarchy, FollowsChildPages) {
  PCV_REQUIRE_LAZ_CORPUS();
  const CopcHierarchy paged = readCopcHierarchy(lazCorpusDir() / "simple_with_page.copc.laz");
  const CopcHierarchy flat = readCopcHierarchy(lazCorpusDir() / "1.2-with-color.copc.laz");
  EXPECT_EQ(paged.pageCount, 2u);
  EXPECT_EQ(flat.pageCount, 1u);
  // The same octree of the same points, one stored in two pages.
  EXPECT_EQ(paged.pointsPerLevel(), flat.pointsPerLevel());
  EXPECT_EQ(paged.levelCount(), flat.levelCount());
}

TEST(CopcHierarchy, RootCubeAndLevels) {
  PCV_REQUIRE_LAZ_CORPUS();
  const CopcHierarchy h = readCopcHierarchy(lazCorpusDir() / "1.2-with-color.copc.laz");
  ASSERT_FALSE(h.nodes.empty());
  const Box3d root = h.boundsOf({});
  EXPECT_DOUBLE_EQ(root.max.x - root.min.x, 2.0 * h.halfSize);
  const Box3d child = h.boundsOf({.level = 1, .x = 1, .y = 0, .z = 1});
  EXPECT_DOUBLE_EQ(child.min.x, h.center.x);
  EXPECT_DOUBLE_EQ(child.max.y, h.center.y);
  EXPECT_DOUBLE_EQ(child.min.z, h.center.z);
  EXPECT_GT(h.levelCount(), 1u);
}

TEST(CopcHierarchy, InfoShowsTheOctree) {
  PCV_REQUIRE_LAZ_CORPUS();
  const FileSummary summary = summarizePointCloud(lazCorpusDir() / "lone-star.copc.laz");
  EXPECT_EQ(summary.format, "COPC");
  std::string notes;
  for (const std::string& line : summary.notes) notes += line + "\n";
  EXPECT_NE(notes.find("COPC octree:"), std::string::npos) << notes;
  EXPECT_NE(notes.find("COPC points per level: 0: "), std::string::npos) << notes;
}

TEST(CopcHierarchy, RejectsBrokenHierarchies) {
  PCV_REQUIRE_LAZ_CORPUS();
  TempDir dir;
  std::ifstream in(lazCorpusDir() / "1.2-with-color.copc.laz", std::ios::binary);
  const std::vector<uint8_t> original(std::istreambuf_iterator<char>(in), {});
  // The info VLR's payload starts at 375 + 54; the root page offset and size at +40 and +48.
  constexpr size_t kInfo = 375 + 54;
  uint64_t rootOffset;
  std::memcpy(&rootOffset, original.data() + kInfo + 40, 8);
  struct Patch {
    size_t offset;
    uint64_t value;
    int bytes;
    const char* expected;
  };
  const Patch cases[] = {
      {kInfo + 40, original.size() + 100, 8, "hierarchy page"},  // root page past the end
      {kInfo + 48, 33, 8, "32-byte entries"},                    // not whole entries
      {size_t(rootOffset), 40, 4, "level 0-30"},                 // key level 40
      {size_t(rootOffset) + 28, uint64_t(-5) & 0xFFFFFFFF, 4, "count of -1 or more"},
  };
  for (const Patch& patch : cases) {
    std::vector<uint8_t> bytes = original;
    std::memcpy(bytes.data() + patch.offset, &patch.value, patch.bytes);
    writeBytes(dir.file("h.copc.laz"), bytes);
    try {
      readCopcHierarchy(dir.file("h.copc.laz"));
      ADD_FAILURE() << "read a broken hierarchy: " << patch.expected;
    } catch (const InputError& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find("byte "), std::string::npos) << message;
      EXPECT_NE(message.find(patch.expected), std::string::npos) << message;
    }
    // The points still load through the chunk table, with the problem as a warning.
    const FileSummary summary = summarizePointCloud(dir.file("h.copc.laz"));
    EXPECT_EQ(summary.pointCount, 1065u);
    EXPECT_FALSE(summary.warnings.empty());
  }
}

TEST(CopcHierarchy, RefusesFilesThatAreNotCopc) {
  PCV_REQUIRE_LAZ_CORPUS();
  EXPECT_FALSE(isCopcFile(lazCorpusDir() / "simple.laz"));
  EXPECT_THROW(readCopcHierarchy(lazCorpusDir() / "simple.laz"), InputError);
}

}  // namespace
}  // namespace pcv::test
