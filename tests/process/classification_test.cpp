// The ground and noise filters on synthetic terrain with known classes, their determinism, and
// their errors; the disk opening against a brute-force reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include <glm/common.hpp>

#include "elevation_grid.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/process/point_classes.hpp"
#include "synthetic_terrain.hpp"

namespace pcv {
namespace {

using test::Truth;

struct Scores {
  double groundRight = 0.0;   ///< share of ground points called ground
  double objectsRight = 0.0;  ///< share of building and vegetation points not called ground
  size_t noiseMissed = 0;     ///< planted noise points not called noise
  size_t groundCalledNoise = 0;
};

Scores score(const test::SyntheticTerrain& terrain, const std::vector<uint8_t>& classes) {
  size_t ground = 0, groundRight = 0, objects = 0, objectsRight = 0;
  Scores result;
  for (size_t i = 0; i < classes.size(); ++i) {
    switch (terrain.truth[i]) {
      case Truth::Ground:
        ++ground;
        groundRight += classes[i] == kClassGround;
        result.groundCalledNoise += classes[i] == kClassNoise;
        break;
      case Truth::Building:
      case Truth::Vegetation:
        ++objects;
        objectsRight += classes[i] != kClassGround;
        break;
      case Truth::Noise:
        result.noiseMissed += classes[i] != kClassNoise;
        break;
    }
  }
  result.groundRight = double(groundRight) / double(ground);
  result.objectsRight = double(objectsRight) / double(objects);
  return result;
}

TEST(Classification, FindsGroundAndNoiseOfSyntheticTerrain) {
  const test::SyntheticTerrain terrain = test::makeSyntheticTerrain(7);
  const std::vector<uint8_t> classes = classifyPoints(terrain.points, ClassifySettings{});
  ASSERT_EQ(classes.size(), terrain.points.size());
  const Scores scores = score(terrain, classes);
  EXPECT_GE(scores.groundRight, 0.97);
  EXPECT_GE(scores.objectsRight, 0.97);
  EXPECT_EQ(scores.noiseMissed, 0u);
  EXPECT_EQ(scores.groundCalledNoise, 0u);
}

TEST(Classification, WorksFarFromTheOriginAndOnAnotherTerrain) {
  // Projected coordinates (hundreds of km) and another seed: floats relative to the lowest
  // point keep the grid exact.
  const test::SyntheticTerrain terrain =
      test::makeSyntheticTerrain(11, glm::dvec3(512000.0, 5400000.0, 350.0), 160.0);
  const Scores scores = score(terrain, classifyPoints(terrain.points, ClassifySettings{}));
  EXPECT_GE(scores.groundRight, 0.97);
  EXPECT_GE(scores.objectsRight, 0.97);
  EXPECT_EQ(scores.noiseMissed, 0u);
  EXPECT_EQ(scores.groundCalledNoise, 0u);
}

TEST(Classification, GroundFilterAloneRemovesBuildings) {
  const test::SyntheticTerrain terrain = test::makeSyntheticTerrain(3);
  ClassifySettings settings;
  settings.noise = false;
  const std::vector<uint8_t> classes = classifyPoints(terrain.points, settings);
  size_t roofsAsGround = 0, roofs = 0;
  for (size_t i = 0; i < classes.size(); ++i) {
    EXPECT_NE(classes[i], kClassNoise);
    if (terrain.truth[i] == Truth::Building) ++roofs, roofsAsGround += classes[i] == kClassGround;
  }
  EXPECT_GT(roofs, 1000u);
  EXPECT_LT(double(roofsAsGround) / double(roofs), 0.01);
}

TEST(Classification, SmallWindowKeepsWideBuildingsAsGround) {
  // The window bounds the objects removed: a 3 m window cannot open a 20 m roof, so the
  // parameter is what decides (a check that it reaches the filter).
  const test::SyntheticTerrain terrain = test::makeSyntheticTerrain(3);
  ClassifySettings settings;
  settings.noise = false;
  settings.groundFilter.window = 3.0;
  const std::vector<uint8_t> classes = classifyPoints(terrain.points, settings);
  size_t roofsAsGround = 0, roofs = 0;
  for (size_t i = 0; i < classes.size(); ++i) {
    if (terrain.truth[i] == Truth::Building) ++roofs, roofsAsGround += classes[i] == kClassGround;
  }
  EXPECT_GT(double(roofsAsGround) / double(roofs), 0.5);
}

TEST(Classification, SameLabelsInAnyOrderAndOnAnyThreadCount) {
  const test::SyntheticTerrain terrain = test::makeSyntheticTerrain(5, {0, 0, 0}, 120.0);
  const std::vector<uint8_t> classes = classifyPoints(terrain.points, ClassifySettings{});
  std::vector<size_t> order(terrain.points.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::shuffle(order.begin(), order.end(), std::mt19937_64(99));
  std::vector<glm::dvec3> shuffled;
  for (size_t i : order) shuffled.push_back(terrain.points[i]);
  std::vector<uint8_t> shuffledClasses;
  {
    WorkerLimit oneThread(1);
    shuffledClasses = classifyPoints(shuffled, ClassifySettings{});
  }
  size_t differing = 0;
  for (size_t k = 0; k < order.size(); ++k) differing += shuffledClasses[k] != classes[order[k]];
  EXPECT_EQ(differing, 0u);
}

TEST(Classification, NoiseFilterCountsNeighboursWithinTheRadius) {
  // A pair 1.5 m apart and a lone point: with radius 2 the pair's points have one neighbour
  // each; asking for 1 keeps them, asking for 2 calls them noise too.
  const std::vector<glm::dvec3> points = {{0, 0, 0}, {1.5, 0, 0}, {10, 10, 10}};
  NoiseFilterSettings settings{.radius = 2.0, .minNeighbours = 1};
  EXPECT_EQ(noisePoints(points, settings), (std::vector<uint8_t>{0, 0, 1}));
  settings.minNeighbours = 2;
  EXPECT_EQ(noisePoints(points, settings), (std::vector<uint8_t>{1, 1, 1}));
  settings = {.radius = 1.4, .minNeighbours = 1};
  EXPECT_EQ(noisePoints(points, settings), (std::vector<uint8_t>{1, 1, 1}));
}

TEST(Classification, BadSettingsAndEmptyInputAreInputErrors) {
  const std::vector<glm::dvec3> points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const auto withGround = [](auto change) {
    ClassifySettings settings;
    change(settings.groundFilter);
    return settings;
  };
  const std::vector<ClassifySettings> bad = {
      withGround([](GroundFilterSettings& s) { s.cell = 0.0; }),
      withGround([](GroundFilterSettings& s) { s.cell = -1.0; }),
      withGround([](GroundFilterSettings& s) { s.cell = NAN; }),
      withGround([](GroundFilterSettings& s) { s.window = 0.5; }),
      withGround([](GroundFilterSettings& s) { s.slope = -0.1; }),
      withGround([](GroundFilterSettings& s) { s.threshold = -1.0; }),
      withGround([](GroundFilterSettings& s) { s.scalar = INFINITY; }),
      ClassifySettings{.noiseFilter = {.radius = 0.0}},
      ClassifySettings{.noiseFilter = {.minNeighbours = 0}},
      ClassifySettings{.ground = false, .noise = false},
  };
  for (const ClassifySettings& settings : bad) {
    EXPECT_THROW(checkClassifySettings(settings), InputError);
    EXPECT_THROW(classifyPoints(points, settings), InputError);
  }
  EXPECT_NO_THROW(classifyPoints(points, ClassifySettings{}));
  EXPECT_THROW(classifyPoints({}, ClassifySettings{}), InputError);
  EXPECT_THROW(groundPoints({}), InputError);
  EXPECT_THROW(noisePoints({}), InputError);
}

TEST(Classification, GridTooFineForTheExtentIsAnInputError) {
  const std::vector<glm::dvec3> points = {{0, 0, 0}, {1e6, 1e6, 0}};
  EXPECT_THROW(groundPoints(points, {.cell = 1.0, .window = 18.0}), InputError);
  EXPECT_THROW(noisePoints(points, {.radius = 1e-3}), InputError);
}

TEST(Classification, MergedClassReplacesStaleGroundAndNoise) {
  const ClassifySettings both;
  EXPECT_EQ(mergedClass(6, kClassGround, both), kClassGround);
  EXPECT_EQ(mergedClass(6, kClassUnclassified, both), 6);
  EXPECT_EQ(mergedClass(kClassGround, kClassUnclassified, both), kClassUnclassified);
  EXPECT_EQ(mergedClass(kClassNoise, kClassUnclassified, both), kClassUnclassified);
  const ClassifySettings groundOnly{.noise = false};
  EXPECT_EQ(mergedClass(kClassNoise, kClassUnclassified, groundOnly), kClassNoise);
}

TEST(ElevationGrid, DiskOpeningMatchesBruteForce) {
  std::mt19937 random(4);
  std::uniform_real_distribution<float> height(0.0f, 10.0f);
  process::ElevationGrid grid{23, 17, {}};
  for (int i = 0; i < 23 * 17; ++i) grid.z.push_back(height(random));
  for (int radius : {1, 2, 5}) {
    const auto extreme = [&](const process::ElevationGrid& in, bool takeMax) {
      process::ElevationGrid out = in;
      for (int64_t y = 0; y < in.height; ++y) {
        for (int64_t x = 0; x < in.width; ++x) {
          float value = takeMax ? -INFINITY : INFINITY;
          for (int64_t dy = -radius; dy <= radius; ++dy) {
            for (int64_t dx = -radius; dx <= radius; ++dx) {
              if (dx * dx + dy * dy > radius * radius) continue;
              const int64_t nx = x + dx, ny = y + dy;
              if (nx < 0 || ny < 0 || nx >= in.width || ny >= in.height) continue;
              value = takeMax ? std::max(value, in.at(nx, ny)) : std::min(value, in.at(nx, ny));
            }
          }
          out.at(x, y) = value;
        }
      }
      return out;
    };
    const process::ElevationGrid expected = extreme(extreme(grid, false), true);
    EXPECT_EQ(process::openWithDisk(grid, radius).z, expected.z) << "radius " << radius;
  }
}

TEST(ElevationGrid, FillingKeepsFilledCellsAndStaysWithinTheirRange) {
  process::ElevationGrid grid{9, 7, std::vector<float>(63, process::kEmptyCell)};
  grid.at(1, 1) = 2.0f;
  grid.at(7, 5) = 6.0f;
  grid.at(4, 6) = 3.0f;
  process::fillEmptyCells(grid);
  EXPECT_EQ(grid.at(1, 1), 2.0f);
  EXPECT_EQ(grid.at(7, 5), 6.0f);
  for (float z : grid.z) {
    EXPECT_GE(z, 2.0f);
    EXPECT_LE(z, 6.0f);
  }
}

}  // namespace
}  // namespace pcv

namespace pcv {
namespace {

TEST(Classification, DefaultLengthsTurnIntoTheMapUnitAndGivenOnesStay) {
  const ClassifySettings feet = withDefaultLengthsIn(ClassifySettings{}, 0.3048, {.cell = true});
  EXPECT_EQ(feet.groundFilter.cell, 1.0);
  EXPECT_DOUBLE_EQ(feet.groundFilter.window, 18.0 / 0.3048);
  EXPECT_DOUBLE_EQ(feet.groundFilter.threshold, 0.5 / 0.3048);
  EXPECT_DOUBLE_EQ(feet.noiseFilter.radius, 2.0 / 0.3048);
  EXPECT_EQ(feet.groundFilter.slope, 0.15);  // a ratio: no unit
  EXPECT_EQ(feet.groundFilter.scalar, 1.25);
  const ClassifySettings metres = withDefaultLengthsIn(ClassifySettings{}, 1.0, {});
  EXPECT_EQ(metres.groundFilter.window, 18.0);
  const ClassifySettings unknown = withDefaultLengthsIn(ClassifySettings{}, 0.0, {});
  EXPECT_EQ(unknown.noiseFilter.radius, 2.0);
}

}  // namespace
}  // namespace pcv

namespace pcv {
namespace {

TEST(Classification, WindowWiderThanTheGridRunsAsItsDiagonal) {
  // 60 m square at 1 m: a diagonal of 85 cells. A window of a billion cells would take hours if
  // every radius ran; past the diagonal the opening no longer changes, so it gives the same.
  const test::SyntheticTerrain terrain = test::makeSyntheticTerrain(13, {0, 0, 0}, 60.0);
  ClassifySettings huge;
  huge.groundFilter.window = 1e9;
  ClassifySettings diagonal;
  diagonal.groundFilter.window = 86.0;
  EXPECT_EQ(classifyPoints(terrain.points, huge), classifyPoints(terrain.points, diagonal));
}

}  // namespace
}  // namespace pcv

namespace pcv {
namespace {

// A dataset's grid window: a part of the points (a tile and the points within a buffer of it)
// classified on the window of the whole extent's grid gives the tile's points the classes the
// whole set gives them; off the dataset's grid (each part on a grid of its own points) it does
// not, and the window is found, snapped and checked as documented.
TEST(GroundGridWindow, ATileWithItsBufferGetsTheWholeSetsClasses) {
  const test::SyntheticTerrain terrain =
      test::makeSyntheticTerrain(8, {500000.0, 5000000.0, 30.0}, 160.0);
  ClassifySettings settings;
  settings.groundFilter.threshold = 0.02;  // most points within millimetres of the threshold
  glm::dvec3 low(INFINITY), high(-INFINITY);
  for (const glm::dvec3& p : terrain.points) low = glm::min(low, p), high = glm::max(high, p);
  const double cell = settings.groundFilter.cell;
  const GroundGridWindow all = groundGridWindow(low, high, glm::dvec2(low), glm::dvec2(high), cell);
  const std::vector<uint8_t> whole = classifyPoints(terrain.points, settings, &all);

  // The tile: 40 m squares from the corner, with the default buffer (40 m) around them.
  const double buffer = 2.0 * settings.groundFilter.window + 4.0 * cell;
  size_t differing = 0, differingOffGrid = 0, tilePoints = 0;
  for (double x0 = low.x; x0 < high.x; x0 += 40.0) {
    for (double y0 = low.y; y0 < high.y; y0 += 40.0) {
      const GroundGridWindow window = groundGridWindow(
          low, high, {x0 - buffer, y0 - buffer}, {x0 + 40.0 + buffer, y0 + 40.0 + buffer}, cell);
      std::vector<glm::dvec3> part, around;  // the tile's points first, then its buffer's
      std::vector<size_t> tile;              // indices into the whole set of the tile's points
      for (size_t i = 0; i < terrain.points.size(); ++i) {
        const glm::dvec3& p = terrain.points[i];
        if (p.x >= x0 && p.x < x0 + 40.0 && p.y >= y0 && p.y < y0 + 40.0) {
          tile.push_back(i);
          part.push_back(p);
        } else if (window.holds(p.x, p.y, cell)) {
          around.push_back(p);
        }
      }
      part.insert(part.end(), around.begin(), around.end());
      if (tile.empty()) continue;
      const std::vector<uint8_t> onWindow = classifyPoints(part, settings, &window);
      const std::vector<uint8_t> offGrid = classifyPoints(part, settings);
      for (size_t k = 0; k < tile.size(); ++k) {
        differing += onWindow[k] != whole[tile[k]];
        differingOffGrid += offGrid[k] != whole[tile[k]];
      }
      tilePoints += tile.size();
    }
  }
  EXPECT_EQ(tilePoints, terrain.points.size());
  EXPECT_EQ(differing, 0u);
  EXPECT_GT(differingOffGrid, 0u) << "the test would not see a grid of the part's own";
}

TEST(GroundGridWindow, IsSnappedToTheCellAndClippedToTheDataset) {
  const GroundGridWindow window =
      groundGridWindow({10.3, 20.7, 5.5}, {110.2, 80.1, 9.0}, {0.0, 50.2}, {30.0, 500.0}, 2.0);
  EXPECT_EQ(window.origin, glm::dvec3(10.0, 20.0, 4.0));
  EXPECT_EQ(window.firstColumn, 0);     // clipped at the dataset's first column
  EXPECT_EQ(window.columns, 11);        // columns 0..10: up to x = 30 (cell 10 starts at 30)
  EXPECT_EQ(window.firstRow, 15);       // y = 50.2 lies in row 15 (50..52)
  EXPECT_EQ(window.rows, 30 - 15 + 1);  // clipped at the row of y = 80.1
  EXPECT_TRUE(window.holds(10.0, 50.0, 2.0));
  EXPECT_FALSE(window.holds(10.0, 49.9, 2.0));
  EXPECT_FALSE(window.holds(32.0, 60.0, 2.0));
  // Outside the dataset, a bad cell.
  EXPECT_THROW(groundGridWindow({0, 0, 0}, {10, 10, 1}, {20, 20}, {30, 30}, 1.0), InputError);
  EXPECT_THROW(groundGridWindow({0, 0, 0}, {10, 10, 1}, {0, 0}, {10, 10}, 0.0), InputError);
}

}  // namespace
}  // namespace pcv
