// The CUDA classifier against the CPU's classifyPoints: the same class for every point, on
// terrains, settings and inputs that exercise each step (empty cells filled over a lake, low
// outliers, windows wider than the grid, a dataset's grid window, points that are not finite,
// duplicates). Skipped where no CUDA device is usable; run on a machine with an NVIDIA GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include <glm/common.hpp>

#include "pcv/core/error.hpp"
#include "pcv/process/point_classifier.hpp"
#include "pcv/process_cuda/cuda_point_classifier.hpp"
#include "synthetic_terrain.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

/// How many points the GPU classes differ from the CPU's on, and where the GPU run ran.
struct Comparison {
  size_t differing = 0;
  std::string ranOn;
};

Comparison compare(const std::vector<glm::dvec3>& points, const ClassifySettings& settings,
                   const GroundGridWindow* window = nullptr) {
  Comparison result;
  const std::vector<uint8_t> cpu = classifyPoints(points, settings, window);
  const std::vector<uint8_t> gpu =
      makeCudaPointClassifier()->classify(points, settings, window, &result.ranOn);
  EXPECT_EQ(gpu.size(), cpu.size());
  for (size_t i = 0; i < cpu.size() && i < gpu.size(); ++i) result.differing += cpu[i] != gpu[i];
  return result;
}

TEST(GpuClassification, TerrainsGetTheCpusClassesOnTheGpu) {
  PCV_REQUIRE_CUDA();
  for (const auto& [seed, origin, side] :
       {std::tuple{7u, glm::dvec3(0.0), 200.0},
        std::tuple{11u, glm::dvec3(512000.0, 5400000.0, 350.0), 160.0},
        std::tuple{3u, glm::dvec3(-40.0, 25.0, -120.0), 90.0}}) {
    const test::SyntheticTerrain terrain = test::makeSyntheticTerrain(seed, origin, side);
    const Comparison c = compare(terrain.points, ClassifySettings{});
    EXPECT_EQ(c.differing, 0u) << "seed " << seed;
    EXPECT_EQ(c.ranOn.rfind("cuda", 0), 0u) << c.ranOn;
  }
}

TEST(GpuClassification, EverySettingGivesTheCpusClasses) {
  PCV_REQUIRE_CUDA();
  const test::SyntheticTerrain terrain = test::makeSyntheticTerrain(5);
  std::vector<ClassifySettings> variants(7);
  variants[0].noise = false;                 // ground alone: nothing excluded
  variants[1].ground = false;                // noise alone
  variants[2].groundFilter.window = 3.0;     // a small window
  variants[3].groundFilter.window = 1000.0;  // wider than the grid: its diagonal
  variants[4].groundFilter.cell = 0.5;       // finer cells: more empty ones to fill
  variants[4].groundFilter.slope = 0.3;
  variants[5].noiseFilter.radius = 0.6;  // more noise
  variants[5].noiseFilter.minNeighbours = 5;
  variants[6].groundFilter.cell = 3.0;  // coarse cells, steep scalar
  variants[6].groundFilter.scalar = 3.0;
  variants[6].groundFilter.threshold = 0.1;
  for (size_t v = 0; v < variants.size(); ++v) {
    EXPECT_EQ(compare(terrain.points, variants[v]).differing, 0u) << "variant " << v;
  }
}

TEST(GpuClassification, ALakeAndPointsThatAreNotFiniteGiveTheCpusClasses) {
  PCV_REQUIRE_CUDA();
  test::SyntheticTerrain terrain = test::makeSyntheticTerrain(9);
  // A lake: no point within 45 m of (100, 100), so hundreds of cells are filled ring by ring.
  std::vector<glm::dvec3> points;
  for (const glm::dvec3& p : terrain.points) {
    if (std::hypot(p.x - 100.0, p.y - 100.0) > 45.0) points.push_back(p);
  }
  // Duplicates (neighbours at distance 0), a far low outlier, and coordinates that are not
  // finite (noise on both sides, never ground).
  for (size_t i = 0; i < 200; ++i) points.push_back(points[i * 37]);
  points.push_back({20.0, 20.0, -80.0});
  points.push_back({std::numeric_limits<double>::quiet_NaN(), 5.0, 1.0});
  points.push_back({5.0, std::numeric_limits<double>::infinity(), 1.0});
  EXPECT_EQ(compare(points, ClassifySettings{}).differing, 0u);
}

TEST(GpuClassification, ADatasetsGridWindowGivesTheCpusClasses) {
  PCV_REQUIRE_CUDA();
  const test::SyntheticTerrain terrain =
      test::makeSyntheticTerrain(8, {500000.0, 5000000.0, 30.0}, 160.0);
  ClassifySettings settings;
  settings.groundFilter.threshold = 0.02;
  glm::dvec3 low(INFINITY), high(-INFINITY);
  for (const glm::dvec3& p : terrain.points) low = glm::min(low, p), high = glm::max(high, p);
  const double cell = settings.groundFilter.cell;
  // A window over part of the points (a tile with its buffer): points outside count in its edge
  // cells.
  const GroundGridWindow window =
      groundGridWindow(low - glm::dvec3(3.0), high, {low.x + 30.0, low.y + 20.0},
                       {low.x + 120.0, low.y + 90.0}, cell);
  EXPECT_EQ(compare(terrain.points, settings, &window).differing, 0u);
}

TEST(GpuClassification, BadInputIsTheCpusError) {
  PCV_REQUIRE_CUDA();
  const auto classifier = makeCudaPointClassifier();
  EXPECT_THROW(classifier->classify({}, ClassifySettings{}), InputError);
  ClassifySettings bad;
  bad.groundFilter.cell = -1.0;
  const std::vector<glm::dvec3> points{{0, 0, 0}, {1, 1, 1}};
  EXPECT_THROW(classifier->classify(points, bad), InputError);
  // A grid too fine for the extent (the noise filter left out: it would take both points as
  // noise, which then shape no grid, on either side).
  ClassifySettings tooFine;
  tooFine.noise = false;
  tooFine.groundFilter.cell = 1e-6;
  const std::vector<glm::dvec3> far{{0, 0, 0}, {1000, 1000, 0}};
  EXPECT_THROW(classifyPoints(far, tooFine), InputError);
  EXPECT_THROW(classifier->classify(far, tooFine), InputError);
}

}  // namespace
}  // namespace pcv
