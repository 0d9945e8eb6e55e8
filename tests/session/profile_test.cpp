// Profiles: the corridor holds exactly the points on a segment (ends included, no round caps)
// within half the width, against a reference computed here; the CSV, LAS and PNG outputs; only
// the COPC nodes and tiles that meet the corridor are read.
#include "pcv/session/profile_extract.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

#include "io_test_util.hpp"
#include "pcv/core/camera_framing.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/cloud_writer.hpp"

namespace pcv {
namespace {

/// (0,0) -> (10,0) -> (10,10), 2 wide: two axis-aligned rectangles, so membership has an exact
/// independent form: 0 <= x <= 10 and |y| <= 1, or 0 <= y <= 10 and |x - 10| <= 1.
ProfileCorridor bentCorridor() {
  return ProfileCorridor({{0.0, 0.0}, {10.0, 0.0}, {10.0, 10.0}}, 2.0);
}

/// The reference: the distance along the line, or NaN outside.
double referenceDistance(double x, double y) {
  if (x >= 0.0 && x <= 10.0 && std::abs(y) <= 1.0) return x;
  if (y >= 0.0 && y <= 10.0 && std::abs(x - 10.0) <= 1.0) return 10.0 + y;
  return NAN;
}

std::shared_ptr<PointCloud> cloudOf(const std::vector<glm::vec3>& offsets,
                                    const glm::dvec3& origin = glm::dvec3(0.0)) {
  auto cloud = std::make_shared<PointCloud>();
  cloud->origin = origin;
  ScalarAttribute& intensity = cloud->attributes.emplace_back();
  intensity.name = "intensity";
  for (size_t i = 0; i < offsets.size(); ++i) {
    cloud->points.push_back({offsets[i].x, offsets[i].y, offsets[i].z, packRgba(1, 2, 3)});
    intensity.values.push_back(float(i));
  }
  return cloud;
}

TEST(ProfileCorridor, EdgeCasesAreExact) {
  const ProfileCorridor corridor = bentCorridor();
  const float above = std::nextafter(1.0f, 2.0f), below = std::nextafter(-1.0f, -2.0f);
  struct Case {
    float x, y;
    double distance;  ///< NaN: outside
  } cases[] = {
      {0.0f, 0.0f, 0.0},    // the first end
      {0.0f, 1.0f, 0.0},    // the first end's corner
      {-0.25f, 0.0f, NAN},  // beyond the first end: no round cap
      {std::nextafter(0.0f, -1.0f), 0.0f, NAN},
      {5.0f, 1.0f, 5.0},  // exactly half the width
      {5.0f, -1.0f, 5.0},
      {5.0f, above, NAN},  // just outside half the width
      {5.0f, below, NAN},
      {10.0f, 0.0f, 10.0},   // the bend: the first segment's distance
      {9.5f, 0.5f, 9.5},     // on both segments: the first one's
      {10.75f, -0.5f, NAN},  // outside the bend, beyond both segments' ends
      {10.5f, 5.0f, 15.0},   // the second segment
      {11.0f, 10.0f, 20.0},  // the last end's corner
      {10.0f, 10.25f, NAN},  // beyond the last end
      {10.0f, std::nextafter(10.0f, 11.0f), NAN},
  };
  for (const Case& c : cases) {
    const std::optional<double> d = corridor.distanceAlong(c.x, c.y);
    if (std::isnan(c.distance)) {
      EXPECT_FALSE(d.has_value()) << c.x << "," << c.y;
    } else {
      ASSERT_TRUE(d.has_value()) << c.x << "," << c.y;
      EXPECT_EQ(*d, c.distance) << c.x << "," << c.y;
    }
  }
}

TEST(ProfileCorridor, RandomPointsMatchTheReference) {
  const ProfileCorridor corridor = bentCorridor();
  std::mt19937 random(5);
  // Quarter steps put many points exactly on the edges and ends.
  std::uniform_int_distribution<int> quarter(-8, 48);
  uint64_t inside = 0;
  for (int i = 0; i < 20000; ++i) {
    const double x = quarter(random) * 0.25, y = quarter(random) * 0.25;
    const double expected = referenceDistance(x, y);
    const std::optional<double> d = corridor.distanceAlong(x, y);
    ASSERT_EQ(d.has_value(), !std::isnan(expected)) << x << "," << y;
    if (d) EXPECT_EQ(*d, expected) << x << "," << y;
    inside += d.has_value();
  }
  EXPECT_GT(inside, 1000u);
  EXPECT_EQ(corridor.length(), 20.0);
}

TEST(ProfileCorridor, ObliqueSegmentsKeepTheirSquareEnds) {
  // (0,0) -> (3,4): unit direction (0.6, 0.8), normal (-0.8, 0.6); 2 wide.
  const ProfileCorridor corridor({{0.0, 0.0}, {3.0, 4.0}}, 2.0);
  auto at = [](double along, double across) {
    return glm::dvec2(0.6 * along - 0.8 * across, 0.8 * along + 0.6 * across);
  };
  for (const auto& [along, across, in] :
       std::vector<std::tuple<double, double, bool>>{{2.5, 0.999, true},
                                                     {2.5, 1.001, false},
                                                     {2.5, -0.999, true},
                                                     {0.001, 0.9, true},
                                                     {-0.001, 0.0, false},
                                                     {4.999, -0.9, true},
                                                     {5.001, 0.0, false}}) {
    const glm::dvec2 p = at(along, across);
    const std::optional<double> d = corridor.distanceAlong(p.x, p.y);
    EXPECT_EQ(d.has_value(), in) << along << "," << across;
    if (d) EXPECT_NEAR(*d, along, 1e-12);
  }
}

TEST(ProfileCorridor, BadLinesAndWidthsAreRefused) {
  EXPECT_THROW(ProfileCorridor({{0.0, 0.0}}, 1.0), InputError);
  EXPECT_THROW(ProfileCorridor({{0.0, 0.0}, {1.0, 0.0}}, 0.0), InputError);
  EXPECT_THROW(ProfileCorridor({{0.0, 0.0}, {1.0, 0.0}}, -1.0), InputError);
  EXPECT_THROW(ProfileCorridor({{0.0, 0.0}, {1.0, 0.0}}, NAN), InputError);
  EXPECT_THROW(ProfileCorridor({{0.0, 0.0}, {0.0, 0.0}}, 1.0), InputError);
  EXPECT_EQ(ProfileCorridor::parseLine("1,2,3.5,-4").size(), 2u);
  EXPECT_THROW(ProfileCorridor::parseLine("1,2,3"), InputError);
  EXPECT_THROW(ProfileCorridor::parseLine("1,2,x,4"), InputError);
  EXPECT_THROW(ProfileCorridor::parseLine(""), InputError);
  EXPECT_THROW(ProfileCorridor::parseLine("1,2,3,inf"), InputError);
}

TEST(ProfileCorridor, BoxesItSaysNoToHoldNoCorridorPoint) {
  const ProfileCorridor corridor({{0.0, 0.0}, {7.0, 3.0}, {2.0, 9.0}}, 1.5);
  std::mt19937 random(9);
  std::uniform_real_distribution<double> coordinate(-3.0, 12.0), size(0.05, 3.0);
  uint64_t met = 0, missed = 0;
  for (int b = 0; b < 3000; ++b) {
    const glm::dvec3 min(coordinate(random), coordinate(random), 0.0);
    const Box3d box{min, min + glm::dvec3(size(random), size(random), 1.0)};
    bool holds = false;
    for (int i = 0; i <= 20 && !holds; ++i) {
      for (int j = 0; j <= 20 && !holds; ++j) {
        holds = corridor.contains(box.min.x + (box.max.x - box.min.x) * i / 20.0,
                                  box.min.y + (box.max.y - box.min.y) * j / 20.0);
      }
    }
    const bool meets = corridor.meets(box);
    if (holds) EXPECT_TRUE(meets) << "box at " << min.x << "," << min.y;
    met += meets;
    missed += !meets;
  }
  EXPECT_GT(met, 100u);
  EXPECT_GT(missed, 100u);  // the test is not vacuous: far boxes are refused
}

TEST(ProfileExtract, KeepsExactlyTheCorridorPointsInDistanceOrder) {
  std::mt19937 random(7);
  std::uniform_int_distribution<int> quarter(-8, 48);
  std::vector<glm::vec3> offsets;
  for (int i = 0; i < 5000; ++i) {
    offsets.push_back({quarter(random) * 0.25f, quarter(random) * 0.25f, float(i % 17)});
  }
  const glm::dvec3 origin(500000.0, 5000000.0, 100.0);
  const ProfileCorridor corridor(
      {{origin.x, origin.y}, {origin.x + 10.0, origin.y}, {origin.x + 10.0, origin.y + 10.0}}, 2.0);
  const ProfilePoints profile = extractProfile(*cloudOf(offsets, origin), corridor);
  std::vector<std::pair<double, size_t>> expected;  // (distance, source index)
  for (size_t i = 0; i < offsets.size(); ++i) {
    const double d = referenceDistance(offsets[i].x, offsets[i].y);
    if (!std::isnan(d)) expected.emplace_back(d, i);
  }
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  ASSERT_EQ(profile.size(), expected.size());
  ASSERT_GT(profile.size(), 200u);
  const ScalarAttribute* index = profile.cloud->findAttribute("intensity");
  ASSERT_NE(index, nullptr);
  for (size_t k = 0; k < expected.size(); ++k) {
    const size_t i = expected[k].second;
    EXPECT_EQ(profile.distances[k], expected[k].first);
    EXPECT_EQ(profile.positions[k], origin + glm::dvec3(offsets[i]));
    EXPECT_EQ(index->values[k], float(i));
  }
}

std::vector<std::string> splitLine(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  for (std::string field; std::getline(stream, field, ',');) fields.push_back(field);
  return fields;
}

TEST(ProfileExtract, CsvHasAHeaderAndExactValues) {
  test::TempDir dir;
  const std::vector<glm::vec3> offsets{
      {5.0f, 0.5f, 2.25f}, {1.0f, -1.0f, 3.0f}, {10.5f, 4.0f, -1.5f}, {20.0f, 0.0f, 0.0f}};
  const glm::dvec3 origin(500000.0, 5000000.0, 100.0);
  const ProfileCorridor corridor(
      {{origin.x, origin.y}, {origin.x + 10.0, origin.y}, {origin.x + 10.0, origin.y + 10.0}}, 2.0);
  const ProfilePoints profile = extractProfile(*cloudOf(offsets, origin), corridor);
  const auto path = dir.file("p.csv");
  writeProfileCsv(profile, path);
  std::ifstream in(path);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(splitLine(line), (std::vector<std::string>{"x", "y", "z", "distance", "intensity"}));
  // Ordered by distance: point 1 (1), point 0 (5), point 2 (14).
  const size_t order[] = {1, 0, 2};
  const double distances[] = {1.0, 5.0, 14.0};
  for (size_t k = 0; k < 3; ++k) {
    ASSERT_TRUE(std::getline(in, line));
    const std::vector<std::string> fields = splitLine(line);
    ASSERT_EQ(fields.size(), 5u) << line;
    const glm::dvec3 world = origin + glm::dvec3(offsets[order[k]]);
    EXPECT_EQ(std::strtod(fields[0].c_str(), nullptr), world.x);
    EXPECT_EQ(std::strtod(fields[1].c_str(), nullptr), world.y);
    EXPECT_EQ(std::strtod(fields[2].c_str(), nullptr), world.z);
    EXPECT_EQ(std::strtod(fields[3].c_str(), nullptr), distances[k]);
    EXPECT_EQ(std::strtod(fields[4].c_str(), nullptr), double(order[k]));
  }
  EXPECT_FALSE(std::getline(in, line));
}

TEST(ProfileExtract, LasHoldsTheCorridorPoints) {
  test::TempDir dir;
  std::vector<glm::vec3> offsets;
  for (int i = 0; i < 400; ++i)
    offsets.push_back(
        {0.05f * float(i) - 5.0f, 0.01f * float(i % 300) - 1.5f, 0.5f * float(i % 7)});
  const glm::dvec3 origin(300000.0, 4000000.0, 50.0);
  const ProfileCorridor corridor({{origin.x - 10.0, origin.y}, {origin.x + 10.0, origin.y}}, 2.0);
  const ProfilePoints profile = extractProfile(*cloudOf(offsets, origin), corridor);
  ASSERT_GT(profile.size(), 100u);
  for (const char* name : {"p.las", "p.laz"}) {
    const auto path = dir.file(name);
    writePointCloud(profile.cloud, path);
    const PointCloud again = readPointCloud(path);
    ASSERT_EQ(again.size(), profile.size()) << name;
    for (size_t k = 0; k < profile.size(); ++k) {
      const Point& p = again.points[k];
      const glm::dvec3 world = again.origin + glm::dvec3(p.x, p.y, p.z);
      EXPECT_NEAR(world.x, profile.positions[k].x, 1e-3) << name << " " << k;
      EXPECT_NEAR(world.y, profile.positions[k].y, 1e-3) << name << " " << k;
      EXPECT_NEAR(world.z, profile.positions[k].z, 1e-3) << name << " " << k;
    }
    EXPECT_NE(again.findAttribute("intensity"), nullptr);
  }
}

TEST(ProfileExtract, ImageDrawsDistanceAgainstHeight) {
  // Two points: the start of the line low, the end high; the image puts them at the left bottom
  // and the right top.
  const glm::vec3 start{0.0f, 0.0f, 0.0f}, end{10.0f, 0.0f, 5.0f};
  const ProfileCorridor corridor({{0.0, 0.0}, {10.0, 0.0}}, 1.0);
  auto cloud = cloudOf({start, end});
  cloud->hasColor = true;
  cloud->points[0].rgba = packRgba(255, 0, 0);
  cloud->points[1].rgba = packRgba(0, 255, 0);
  const ProfilePoints profile = extractProfile(*cloud, corridor);
  std::unique_ptr<Renderer> renderer = createRenderer("cpu");
  RenderSettings settings;
  settings.background = packRgba(0, 0, 0);
  const Image image = renderProfileImage(profile, *renderer, 200, 100, settings);
  int redX = -1, redY = -1, greenX = -1, greenY = -1;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      if (image.at(x, y) == packRgba(255, 0, 0)) redX = x, redY = y;
      if (image.at(x, y) == packRgba(0, 255, 0)) greenX = x, greenY = y;
    }
  }
  ASSERT_GE(redX, 0);
  ASSERT_GE(greenX, 0);
  // True scale, fitted: 10 units across (5 up at aspect 2 needs the same) over 200 px less the
  // framing margin: 200 / 10.5 px per unit, as many up as across.
  const double pixelsPerUnit = 200.0 / (10.0 * kFramingMargin);
  EXPECT_NEAR(double(greenX - redX), 10.0 * pixelsPerUnit, 1.5);
  EXPECT_NEAR(double(greenY - redY), 5.0 * pixelsPerUnit, 1.5);
}

TEST(ProfileExtract, CopcReadsOnlyTheNodesThatMeetTheCorridor) {
  test::TempDir dir;
  std::mt19937 random(3);
  std::uniform_real_distribution<float> across(0.0f, 200.0f), height(0.0f, 20.0f);
  std::vector<glm::vec3> offsets;
  for (int i = 0; i < 300000; ++i)
    offsets.push_back({across(random), across(random), height(random)});
  const auto cloud = cloudOf(offsets, glm::dvec3(1000.0, 2000.0, 0.0));
  const auto copc = dir.file("area.copc.laz");
  writePointCloud(cloud, copc);
  const ProfileCorridor corridor({{1010.0, 2010.0}, {1060.0, 2030.0}}, 3.0);
  const ProfilePoints fromCopc = extractProfile({copc.string()}, corridor);
  EXPECT_GT(fromCopc.nodesTotal, 1u);
  EXPECT_LT(fromCopc.nodesRead, fromCopc.nodesTotal);
  EXPECT_LT(fromCopc.pointsTested, offsets.size());
  // The same points as the whole file read and cut.
  const PointCloud whole = readPointCloud(copc);
  uint64_t expected = 0;
  for (const Point& p : whole.points) {
    const glm::dvec3 w = whole.origin + glm::dvec3(p.x, p.y, p.z);
    expected += corridor.contains(w.x, w.y);
  }
  EXPECT_EQ(fromCopc.size(), expected);
  EXPECT_GT(expected, 100u);
}

TEST(ProfileExtract, TilesThatMissTheCorridorAreNotRead) {
  test::TempDir dir;
  std::filesystem::create_directories(dir.file("tiles"));
  writePointCloud(cloudOf({{0.0f, 0.0f, 1.0f}, {5.0f, 0.5f, 2.0f}}), dir.file("tiles/near.las"));
  writePointCloud(cloudOf({{0.0f, 0.0f, 1.0f}, {5.0f, 0.5f, 2.0f}}, glm::dvec3(0.0, 500.0, 0.0)),
                  dir.file("tiles/far.las"));
  const ProfilePoints profile =
      extractProfile({dir.file("tiles").string()}, ProfileCorridor({{-1.0, 0.0}, {6.0, 0.0}}, 2.0));
  EXPECT_EQ(profile.filesRead, 1u);
  EXPECT_EQ(profile.filesSkipped, 1u);
  EXPECT_EQ(profile.size(), 2u);
}

TEST(ProfileExtract, OutputKindComesFromTheName) {
  EXPECT_EQ(profileFileKindFor("a.CSV"), ProfileFileKind::Csv);
  EXPECT_EQ(profileFileKindFor("a.las"), ProfileFileKind::Las);
  EXPECT_EQ(profileFileKindFor("a.laz"), ProfileFileKind::Laz);
  EXPECT_EQ(profileFileKindFor("a.png"), ProfileFileKind::Png);
  EXPECT_THROW(profileFileKindFor("a.ply"), InputError);
  EXPECT_THROW(profileFileKindFor("a"), InputError);
}

}  // namespace
}  // namespace pcv
