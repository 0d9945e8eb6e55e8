// `pcv vpc` and writeVirtualPointCloud: tiles described from their headers, written as a VPC
// that reads back with the same counts, bounds, hrefs and CRS.
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "io_test_util.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/io/virtual_point_cloud.hpp"
#include "test_support.hpp"
#include "vpc_test_files.hpp"

namespace pcv::test {
namespace {

nlohmann::json readJson(const std::filesystem::path& path) {
  std::ifstream input(path);
  return nlohmann::json::parse(input);
}

void expectNear(const glm::dvec3& a, const glm::dvec3& b) {
  for (int axis = 0; axis < 3; ++axis) EXPECT_NEAR(a[axis], b[axis], 0.001) << axis;
}

TEST(LasCoordinateSystem, ReadsTheWktRecordFromTheHeader) {
  TempDir dir;
  writeTile(dir.file("a.las"), 10, {500000, 5000000, 100}, {500100, 5000100, 120},
            {wktRecord(kUtm33Wkt)});
  writeTile(dir.file("a.laz"), 10, {500000, 5000000, 100}, {500100, 5000100, 120},
            {wktRecord(kUtm33Wkt)}, true);
  EXPECT_EQ(describePointFile(dir.file("a.las")).crs.wkt, kUtm33Wkt);
  EXPECT_EQ(describePointFile(dir.file("a.laz")).crs.wkt, kUtm33Wkt);
}

TEST(LasCoordinateSystem, ReadsEpsgCodesFromGeoTiffKeys) {
  TempDir dir;
  writeTile(dir.file("p.las"), 4, {0, 0, 0}, {1, 1, 1}, {geoKeyRecord(3072, 32633)});
  writeTile(dir.file("g.las"), 4, {0, 0, 0}, {1, 1, 1}, {geoKeyRecord(2048, 4326)});
  writeTile(dir.file("user.las"), 4, {0, 0, 0}, {1, 1, 1}, {geoKeyRecord(3072, 32767)});
  EXPECT_EQ(describePointFile(dir.file("p.las")).crs.epsg, 32633);
  EXPECT_EQ(describePointFile(dir.file("g.las")).crs.epsg, 4326);
  EXPECT_FALSE(describePointFile(dir.file("user.las")).crs.known());
}

TEST(VpcWriter, TilesReadBackWithTheirCountsBoundsAndHrefs) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("sub"));
  const std::vector<std::filesystem::path> files = {dir.file("a.las"), dir.file("sub/b.laz"),
                                                    dir.file("c.copc.laz")};
  writeTile(files[0], 100, {500000, 5000000, 100}, {500100, 5000100, 120}, {wktRecord(kUtm33Wkt)});
  writeTile(files[1], 250, {500100, 5000000, 90}, {500200, 5000100, 140}, {wktRecord(kUtm33Wkt)},
            true);
  writeTile(files[2], 7, {500200, 5000000, 95}, {500300, 5000100, 96}, {wktRecord(kUtm33Wkt)},
            true);
  const VpcBuildSummary built = buildVirtualPointCloud(dir.file("all.vpc"), files);
  EXPECT_EQ(built.totalPoints, 357u);

  const VirtualPointCloud vpc = readVirtualPointCloud(dir.file("all.vpc"));
  ASSERT_EQ(vpc.tiles.size(), 3u);
  EXPECT_EQ(vpc.totalPoints(), 357u);
  const uint64_t counts[3] = {100, 250, 7};
  for (size_t i = 0; i < 3; ++i) {
    const VpcTile& tile = vpc.tiles[i];
    EXPECT_TRUE(std::filesystem::equivalent(tile.location, files[i])) << tile.location;
    EXPECT_EQ(tile.pointCount, counts[i]);
    ASSERT_TRUE(tile.nativeBounds);
    const FileSummary header = describePointFile(files[i]);
    expectNear(tile.nativeBounds->min, header.worldBounds.min);
    expectNear(tile.nativeBounds->max, header.worldBounds.max);
    EXPECT_FALSE(vpc.crsOf(tile).wkt.empty());
  }
  EXPECT_EQ(vpc.tiles[2].id, "c");
  EXPECT_EQ(vpc.coordinateSystems.size(), 1u);

  // QGIS resolves hrefs against the VPC's folder and places tiles by the 3D proj:bbox.
  const nlohmann::json json = readJson(dir.file("all.vpc"));
  EXPECT_EQ(json["type"], "FeatureCollection");
  EXPECT_EQ(json["features"][0]["assets"]["data"]["href"], "./a.las");
  EXPECT_EQ(json["features"][1]["assets"]["data"]["href"], "./sub/b.laz");
  EXPECT_EQ(json["features"][0]["properties"]["proj:bbox"].size(), 6u);
  EXPECT_EQ(json["features"][0]["properties"]["pc:count"], 100);
}

TEST(VpcWriter, WritesWgs84GeometryWhenTheCrsTransforms) {
  if (!coordinateTransformsAvailable()) GTEST_SKIP() << "PROJ is not built in, or finds no database";
  TempDir dir;
  writeTile(dir.file("a.las"), 10, {500000, 5000000, 100}, {500100, 5000100, 120},
            {wktRecord(kUtm33Wkt)});
  const std::vector<std::filesystem::path> files = {dir.file("a.las")};
  EXPECT_TRUE(buildVirtualPointCloud(dir.file("a.vpc"), files).geographic);
  const VirtualPointCloud vpc = readVirtualPointCloud(dir.file("a.vpc"));
  ASSERT_TRUE(vpc.tiles[0].geographicBounds);
  // Easting 500000 is the zone's central meridian, 15 degrees east; northing 5000000 is about
  // 45.15 degrees north.
  const GeographicBox& box = *vpc.tiles[0].geographicBounds;
  EXPECT_NEAR(box.west, 15.0, 1e-6);
  EXPECT_GT(box.east, 15.0);
  EXPECT_NEAR(box.south, 45.15, 0.05);
  EXPECT_GT(box.north, box.south);
  EXPECT_EQ(box.minZ, 100.0);
  const nlohmann::json json = readJson(dir.file("a.vpc"));
  EXPECT_EQ(json["features"][0]["geometry"]["type"], "Polygon");
  // proj:wkt2 is WKT2, converted from the file's WKT1.
  const std::string wkt2 = json["features"][0]["properties"]["proj:wkt2"];
  EXPECT_EQ(wkt2.rfind("PROJCRS[", 0), 0u) << wkt2;
}

TEST(VpcWriter, WritesTheEpsgCodeOfGeoTiffKeys) {
  TempDir dir;
  writeTile(dir.file("p.las"), 4, {500000, 5000000, 0}, {500001, 5000001, 1},
            {geoKeyRecord(3072, 32633)});
  const std::vector<std::filesystem::path> files = {dir.file("p.las")};
  buildVirtualPointCloud(dir.file("p.vpc"), files);
  const VirtualPointCloud vpc = readVirtualPointCloud(dir.file("p.vpc"));
  EXPECT_EQ(vpc.crsOf(vpc.tiles[0]).epsg, 32633);
  EXPECT_EQ(vpc.tiles[0].geographicBounds.has_value(), coordinateTransformsAvailable());
}

TEST(VpcWriter, HrefsLeadBackUpWhenTheVpcIsInASubfolder) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("index"));
  writeTile(dir.file("a.las"), 3, {0, 0, 0}, {1, 1, 1}, {});
  const std::vector<std::filesystem::path> files = {dir.file("a.las")};
  buildVirtualPointCloud(dir.file("index/a.vpc"), files);
  EXPECT_EQ(readJson(dir.file("index/a.vpc"))["features"][0]["assets"]["data"]["href"], "../a.las");
  const VirtualPointCloud vpc = readVirtualPointCloud(dir.file("index/a.vpc"));
  EXPECT_TRUE(std::filesystem::equivalent(vpc.tiles[0].location, files[0]));
  EXPECT_FALSE(vpc.crsOf(vpc.tiles[0]).known());
}

TEST(VpcWriter, PlacesAutzenInOregon) {
  // Autzen stadium, Eugene, Oregon, in UTM zone 10N (EPSG:26910 by GeoTIFF keys): shared data.
  const std::filesystem::path file = testDataDir() / "las" / "point-color.las";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " absent";
  if (!coordinateTransformsAvailable()) GTEST_SKIP() << "PROJ is not built in, or finds no database";
  TempDir dir;
  const std::vector<std::filesystem::path> files = {file};
  buildVirtualPointCloud(dir.file("autzen.vpc"), files);
  const VirtualPointCloud vpc = readVirtualPointCloud(dir.file("autzen.vpc"));
  EXPECT_TRUE(std::filesystem::equivalent(vpc.tiles[0].location, file));
  EXPECT_EQ(vpc.crsOf(vpc.tiles[0]).epsg, 26910);
  ASSERT_TRUE(vpc.tiles[0].geographicBounds);
  EXPECT_NEAR(vpc.tiles[0].geographicBounds->west, -123.07, 0.02);
  EXPECT_NEAR(vpc.tiles[0].geographicBounds->south, 44.05, 0.02);
}

TEST(VpcWriter, RefusesMixedCoordinateSystemsNamingTwoTiles) {
  TempDir dir;
  writeTile(dir.file("utm.las"), 3, {500000, 5000000, 0}, {500001, 5000001, 1},
            {wktRecord(kUtm33Wkt)});
  writeTile(dir.file("other.las"), 3, {0, 0, 0}, {1, 1, 1}, {geoKeyRecord(3072, 2154)});
  const std::vector<std::filesystem::path> files = {dir.file("utm.las"), dir.file("other.las")};
  try {
    buildVirtualPointCloud(dir.file("mixed.vpc"), files);
    FAIL() << "mixed CRS accepted";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("utm.las"), std::string::npos) << message;
    EXPECT_NE(message.find("other.las"), std::string::npos) << message;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("mixed.vpc")));
}

TEST(VpcWriter, RefusesFilesWhoseHeaderDeclaresNoBounds) {
  TempDir dir;
  writeText(dir.file("a.xyz"), "1 2 3\n");
  const std::vector<std::filesystem::path> files = {dir.file("a.xyz")};
  EXPECT_THROW(buildVirtualPointCloud(dir.file("a.vpc"), files), InputError);
}

TEST(VpcCli, WritesAVpcOfAFolderOfTiles) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("tiles"));
  for (int i = 0; i < 4; ++i) {
    writeTile(dir.file("tiles/t" + std::to_string(i) + ".laz"), 10 + i,
              {500000 + 100 * i, 5000000, 0}, {500100 + 100 * i, 5000100, 10},
              {wktRecord(kUtm33Wkt)}, true);
  }
  std::string output;
  ASSERT_EQ(runCommand(pcvExecutable().string() + " vpc " + dir.file("out.vpc").string() + " " +
                           dir.file("tiles").string(),
                       &output),
            0)
      << output;
  const VirtualPointCloud vpc = readVirtualPointCloud(dir.file("out.vpc"));
  ASSERT_EQ(vpc.tiles.size(), 4u);
  EXPECT_EQ(vpc.totalPoints(), 10u + 11u + 12u + 13u);
  EXPECT_EQ(readJson(dir.file("out.vpc"))["features"][3]["assets"]["data"]["href"],
            "./tiles/t3.laz");
}

TEST(VpcCli, FailsWithoutWritingWhenATileCannotBeRead) {
  TempDir dir;
  writeTile(dir.file("a.las"), 3, {0, 0, 0}, {1, 1, 1}, {});
  writeText(dir.file("broken.las"), "LASF but not a header");
  std::string output;
  EXPECT_NE(runCommand(pcvExecutable().string() + " vpc " + dir.file("out.vpc").string() + " " +
                           dir.file("a.las").string() + " " + dir.file("broken.las").string(),
                       &output),
            0)
      << output;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.vpc")));
}

}  // namespace
}  // namespace pcv::test
