// Export of the selection: the records a clip box and filters keep, exactly, against a
// reference made here from the records' own bytes; from LAS, LAZ, COPC (only the nodes that meet
// the box read) and several tiles.
#include "pcv/session/selection_export.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <tuple>

#include "io_test_util.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/session/copc_conversion.hpp"
#include "polygon_reference.hpp"

namespace pcv {
namespace {

constexpr uint16_t kRecordLength = 30;  // point format 6
constexpr double kScale = 0.001;

/// Point format 6 records written here byte by byte: | X Y Z (int32) | intensity (16) |
/// returns (8: number | count << 4) | flags | class | user data | scan angle (16) | source (16) |
/// GPS time (double) |.
struct Records {
  std::vector<uint8_t> bytes;
  uint64_t count() const { return bytes.size() / kRecordLength; }
  const uint8_t* at(uint64_t i) const { return bytes.data() + i * kRecordLength; }
};

template <typename T>
T load(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

/// Flat as airborne scans are (x 0-100, y 0-50, z 0-0.5), so the octree's levels fill.
Records makeRecords(uint32_t seed, uint64_t count, double xOffset) {
  std::mt19937 random(seed);
  Records records;
  records.bytes.resize(count * kRecordLength, 0);
  for (uint64_t i = 0; i < count; ++i) {
    uint8_t* r = records.bytes.data() + i * kRecordLength;
    const int32_t xyz[3] = {int32_t((xOffset + (random() % 100000) * 0.001) / kScale),
                            int32_t(random() % 50000), int32_t(random() % 500)};
    std::memcpy(r, xyz, 12);
    const uint16_t intensity = uint16_t(random() % 4000);
    std::memcpy(r + 12, &intensity, 2);
    const uint32_t returns = 1 + random() % 3;
    r[14] = uint8_t((1 + random() % returns) | returns << 4);
    r[16] = uint8_t(1 + random() % 8);
    const double gps = 1.0e8 + double(i) * 0.25;
    std::memcpy(r + 22, &gps, 8);
  }
  return records;
}

std::filesystem::path writeRecords(const std::filesystem::path& path, const Records& records,
                                   LasCompression compression) {
  LasWriteFormat format{.pointFormat = 6, .recordLength = kRecordLength, .versionMinor = 4,
                        .scale = glm::dvec3(kScale), .offset = glm::dvec3(0.0)};
  LasFileWriter writer(path, format, compression, 5000);
  writer.write(records.bytes.data(), records.count());
  writer.finish();
  return path;
}

/// The test's own reading of the selection below: box [10, 60] x [5, 40] x [0, 20], classes 2-4,
/// first returns, GPS time up to 1.0e8 + 15000.
bool selected(const uint8_t* r) {
  const double x = load<int32_t>(r) * kScale, y = load<int32_t>(r + 4) * kScale,
               z = load<int32_t>(r + 8) * kScale;
  const bool inBox = x >= 10 && x <= 60 && y >= 5 && y <= 40 && z >= 0 && z <= 20;
  return inBox && r[16] >= 2 && r[16] <= 4 && (r[14] & 0x0f) == 1 &&
         load<double>(r + 22) <= 1.0e8 + 15000;
}

PointSelection theSelection() {
  PointSelection selection;
  selection.clip.box = ClipBox{{10, 5, 0}, {60, 40, 20}};
  selection.filter.classes = parseClassList("2-4", "--classes");
  selection.filter.returns = ReturnChoice::First;
  selection.filter.ranges = {parseAttributeRange("gps_time=:100015000")};
  return selection;
}

Records expectedOf(const std::vector<const Records*>& inputs) {
  Records expected;
  for (const Records* records : inputs) {
    for (uint64_t i = 0; i < records->count(); ++i) {
      if (selected(records->at(i)))
        expected.bytes.insert(expected.bytes.end(), records->at(i),
                              records->at(i) + kRecordLength);
    }
  }
  return expected;
}

Records readAll(const std::filesystem::path& path) {
  std::unique_ptr<PointRecordStream> stream = openLasRecords(path);
  EXPECT_EQ(stream->format().recordLength, kRecordLength);
  Records records;
  const uint8_t* batch = nullptr;
  while (const uint64_t n = stream->next(1 << 16, batch)) {
    records.bytes.insert(records.bytes.end(), batch, batch + n * kRecordLength);
  }
  return records;
}

/// Records as world positions and fields, sorted: what a COPC file keeps when it reorders.
using Decoded = std::tuple<int64_t, int64_t, int64_t, int, int, double>;
std::vector<Decoded> decoded(const Records& records, const glm::dvec3& scale,
                             const glm::dvec3& offset) {
  std::vector<Decoded> out;
  for (uint64_t i = 0; i < records.count(); ++i) {
    const uint8_t* r = records.at(i);
    auto mm = [&](int axis) {
      return std::llround((load<int32_t>(r + 4 * axis) * scale[axis] + offset[axis]) / kScale);
    };
    out.emplace_back(mm(0), mm(1), mm(2), r[16], r[14], load<double>(r + 22));
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(SelectionExport, LasAndLazHoldExactlyTheSelectedRecordsInOrder) {
  test::TempDir dir;
  const Records input = makeRecords(1, 60'000, 0.0);
  const Records expected = expectedOf({&input});
  ASSERT_GT(expected.count(), 100u);
  ASSERT_LT(expected.count(), input.count() / 10);
  for (const char* name : {"in.las", "in.laz"}) {
    const auto source = writeRecords(dir.file(name), input,
                                     std::string(name) == "in.laz" ? LasCompression::Laz
                                                                   : LasCompression::None);
    for (const char* out : {"out.las", "out.laz"}) {
      const ExportSummary summary =
          exportSelection({source.string()}, dir.file(out).string(), theSelection());
      EXPECT_EQ(summary.points, expected.count()) << name << " -> " << out;
      const Records written = readAll(dir.file(out));
      EXPECT_TRUE(written.bytes == expected.bytes) << name << " -> " << out;
    }
  }
}

TEST(SelectionExport, FromCopcOnlyTheNodesMeetingTheBoxAreRead) {
  test::TempDir dir;
  const Records input = makeRecords(2, 80'000, 0.0);
  const auto las = writeRecords(dir.file("in.las"), input, LasCompression::None);
  const auto copc = dir.file("in.copc.laz");
  convertFilesToCopc({las.string()}, copc.string(), {.maxPointsPerNode = 2000});
  // A corner of the cloud: the nodes away from it are not read (the parents above it are).
  const Box3d corner{.min = {1, 1, 0}, .max = {9, 4, 20}};
  EXPECT_LT(openLasRecords(copc, corner)->pointCount(), input.count() / 2);
  const ExportSummary summary =
      exportSelection({copc.string()}, dir.file("out.las").string(), theSelection());
  const Records expected = expectedOf({&input});
  EXPECT_EQ(summary.points, expected.count());
  std::unique_ptr<PointRecordStream> written = openLasRecords(dir.file("out.las"));
  EXPECT_EQ(decoded(readAll(dir.file("out.las")), written->format().scale, written->format().offset),
            decoded(expected, glm::dvec3(kScale), glm::dvec3(0.0)));
  // And into COPC, whose count is known first.
  const ExportSummary intoCopc =
      exportSelection({copc.string()}, dir.file("out.copc.laz").string(), theSelection());
  EXPECT_EQ(intoCopc.points, expected.count());
  EXPECT_EQ(intoCopc.format, "COPC");
}

TEST(SelectionExport, TilesAwayFromTheBoxAreNotRead) {
  test::TempDir dir;
  const Records near = makeRecords(3, 20'000, 0.0), far = makeRecords(4, 20'000, 500.0);
  const auto a = writeRecords(dir.file("a.laz"), near, LasCompression::Laz);
  const auto b = writeRecords(dir.file("b.laz"), far, LasCompression::Laz);
  const Box3d box{.min = {10, 5, 0}, .max = {60, 40, 20}};
  EXPECT_EQ(openLasRecords(b, box)->pointCount(), 0u);
  const uint8_t* records = nullptr;
  EXPECT_EQ(openLasRecords(b, box)->next(1000, records), 0u);
  const ExportSummary summary = exportSelection({a.string(), b.string()},
                                                dir.file("out.las").string(), theSelection());
  const Records expected = expectedOf({&near, &far});
  EXPECT_EQ(summary.points, expected.count());
  EXPECT_TRUE(readAll(dir.file("out.las")).bytes == expected.bytes);
}

TEST(SelectionExport, ClipOutsideAndSlabFollowTheRenderersRule) {
  ClipSettings clip;
  clip.box = ClipBox{{0, 0, 0}, {1, 1, 1}};
  EXPECT_TRUE(clipKeeps(clip, {0.5, 1.0, 0.0}));
  EXPECT_FALSE(clipKeeps(clip, {0.5, 1.001, 0.0}));
  clip.keep = ClipKeep::Outside;
  EXPECT_FALSE(clipKeeps(clip, {0.5, 0.5, 0.5}));
  EXPECT_FALSE(selectionRegion(clip).has_value());  // everywhere else may be kept
  ClipSettings slab;
  slab.slab = ClipSlab{.normal = {0, 0, 2}, .centre = {0, 0, 10}, .thickness = 2};
  EXPECT_TRUE(clipKeeps(slab, {5, 5, 11}));
  EXPECT_FALSE(clipKeeps(slab, {5, 5, 11.01}));
  // What may hold points the slab keeps: boxes reaching within its thickness of its plane.
  const RegionTest region = selectionRegionTest(slab);
  ASSERT_TRUE(region);
  EXPECT_TRUE(region(Box3d{{0, 0, 10.5}, {1, 1, 20}}));
  EXPECT_TRUE(region(Box3d{{0, 0, 0}, {1, 1, 9.2}}));
  EXPECT_FALSE(region(Box3d{{0, 0, 11.2}, {1, 1, 20}}));
  EXPECT_FALSE(region(Box3d{{-5, -5, 0}, {5, 5, 8.9}}));
  // A tilted slab: the box's corner nearest the plane counts.
  ClipSettings tilted;
  tilted.slab = ClipSlab{.normal = {1, 1, 0}, .centre = {0, 0, 0}, .thickness = 0.2};
  EXPECT_TRUE(selectionRegionTest(tilted)(Box3d{{0.0, -1.0, 0}, {1.0, 0.0, 1}}));
  EXPECT_FALSE(selectionRegionTest(tilted)(Box3d{{1.0, 1.0, 0}, {2.0, 2.0, 1}}));
  tilted.keep = ClipKeep::Outside;  // the rest of space: anywhere
  EXPECT_FALSE(selectionRegionTest(tilted));
}

/// A concave plan polygon over part of the cloud (x 0-100, y 0-50), and the test's own
/// point-in-polygon (even-odd, in doubles) for it.
const std::vector<glm::dvec2> kPolygon = {{12, 4}, {45, 9}, {30, 22}, {58, 44}, {20, 38}};

bool insidePolygon(double x, double y) {
  return test::insidePolygon(kPolygon, x, y);
}

Records polygonExpected(const Records& input, bool keepInside) {
  Records expected;
  for (uint64_t i = 0; i < input.count(); ++i) {
    const uint8_t* r = input.at(i);
    const double x = load<int32_t>(r) * kScale, y = load<int32_t>(r + 4) * kScale;
    if (insidePolygon(x, y) == keepInside && r[16] >= 2 && r[16] <= 4) {
      expected.bytes.insert(expected.bytes.end(), r, r + kRecordLength);
    }
  }
  return expected;
}

PointSelection polygonSelection(bool keepInside) {
  PointSelection selection;
  selection.clip.polygon = PolygonSelection::plan(kPolygon, keepInside);
  selection.filter.classes = parseClassList("2-4", "--classes");
  return selection;
}

TEST(SelectionExport, PolygonKeepsExactlyThePointsOverItInsideOrOutside) {
  test::TempDir dir;
  // Coordinates on a 1 mm grid: none lies on an edge at the precision the tests compare.
  const Records input = makeRecords(6, 60'000, 0.0);
  const auto laz = writeRecords(dir.file("in.laz"), input, LasCompression::Laz);
  for (const bool keepInside : {true, false}) {
    const Records expected = polygonExpected(input, keepInside);
    ASSERT_GT(expected.count(), 1000u);
    const ExportSummary summary =
        exportSelection({laz.string()}, dir.file("out.las").string(), polygonSelection(keepInside));
    EXPECT_EQ(summary.points, expected.count()) << keepInside;
    EXPECT_TRUE(readAll(dir.file("out.las")).bytes == expected.bytes) << keepInside;
  }
}

TEST(SelectionExport, FromCopcOnlyTheNodesThePolygonMayMeetAreRead) {
  test::TempDir dir;
  const Records input = makeRecords(7, 80'000, 0.0);
  const auto las = writeRecords(dir.file("in.las"), input, LasCompression::None);
  const auto copc = dir.file("in.copc.laz");
  convertFilesToCopc({las.string()}, copc.string(), {.maxPointsPerNode = 2000});
  const RegionTest region = selectionRegionTest(polygonSelection(true).clip);
  ASSERT_TRUE(region);
  // The upper levels of the octree span the whole extent and are read for any polygon; the
  // nodes below them are read only where they meet it.
  EXPECT_LT(openLasRecords(copc, region)->pointCount(), input.count());
  PointSelection corner;
  corner.clip.polygon = PolygonSelection::plan({{1, 1}, {9, 1}, {1, 9}});
  EXPECT_LT(openLasRecords(copc, selectionRegionTest(corner.clip))->pointCount(),
            input.count() / 2);
  EXPECT_FALSE(selectionRegionTest(polygonSelection(false).clip));  // outside: everywhere
  const ExportSummary summary =
      exportSelection({copc.string()}, dir.file("out.las").string(), polygonSelection(true));
  const Records expected = polygonExpected(input, true);
  EXPECT_EQ(summary.points, expected.count());
  std::unique_ptr<PointRecordStream> written = openLasRecords(dir.file("out.las"));
  EXPECT_EQ(decoded(readAll(dir.file("out.las")), written->format().scale, written->format().offset),
            decoded(expected, glm::dvec3(kScale), glm::dvec3(0.0)));
  // A tile the polygon cannot reach is not read at all.
  const Records far = makeRecords(8, 5'000, 500.0);
  const auto b = writeRecords(dir.file("far.laz"), far, LasCompression::Laz);
  EXPECT_EQ(openLasRecords(b, region)->pointCount(), 0u);
}

TEST(SelectionExport, PolygonAndBoxBothApply) {
  ClipSettings clip;
  clip.box = ClipBox{{0, 0, 0}, {100, 100, 1}};
  clip.polygon = PolygonSelection::plan(kPolygon);
  EXPECT_TRUE(clipKeeps(clip, {30, 15, 0.5}));
  EXPECT_FALSE(clipKeeps(clip, {30, 15, 1.5}));  // over the polygon, above the box
  EXPECT_FALSE(clipKeeps(clip, {50, 20, 0.5}));  // in the box, beside the polygon's notch
  EXPECT_TRUE(clipKeeps(clip, {30, 15, -1e6}) == false);
  clip.box.reset();
  EXPECT_TRUE(clipKeeps(clip, {30, 15, -1e6}));  // the prism is unbounded in z
}

TEST(SelectionExport, CancelLeavesNoFileAndBadRangesAreRefused) {
  test::TempDir dir;
  const Records input = makeRecords(5, 10'000, 0.0);
  const auto las = writeRecords(dir.file("in.las"), input, LasCompression::None);
  CopcWriteProgress progress;
  progress.cancel = true;
  PointSelection everything;
  everything.filter.classes = parseClassList("0-255", "--classes");
  everything.clip.box = ClipBox{{-1e9, -1e9, -1e9}, {1e9, 1e9, 1e9}};
  EXPECT_THROW(exportSelection({las.string()}, dir.file("out.las").string(), everything,
                               &progress),
               ConversionCancelled);
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.las")));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.file("")),
                          std::filesystem::directory_iterator()),
            1);  // only the input
  PointSelection bad;
  bad.filter.ranges = {parseAttributeRange("colour=1:2")};
  EXPECT_THROW(exportSelection({las.string()}, dir.file("bad.las").string(), bad), InputError);
}

}  // namespace
}  // namespace pcv
