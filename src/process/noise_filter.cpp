// Neighbours are found on a hash of cubes one radius wide: every point within the radius of a
// point lies in its cube or one of the 26 around it. The cubes are the sorted list of their
// keys, so a lookup is a binary search and the memory is two words per point.
#include "pcv/process/noise_filter.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <glm/common.hpp>
#include <glm/ext/vector_int3_sized.hpp>

#include "classify_math.hpp"
#include "noise_cubes.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"

namespace pcv {
namespace {

using process::cubeKey;
constexpr int64_t kAxisCubes = process::kCubeAxisCount;

bool usable(const glm::dvec3& p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

}  // namespace

namespace process {

void checkNoiseCubes(const glm::dvec3& low, const glm::dvec3& high,
                     const NoiseFilterSettings& settings) {
  const glm::dvec3 cubes = glm::floor((high - low) / settings.radius) + 1.0;
  if (std::max({cubes.x, cubes.y, cubes.z}) > double(kAxisCubes)) {
    std::ostringstream message;
    message << "noise filter: a radius of " << settings.radius << " spans the points' extent ("
            << high.x - low.x << " x " << high.y - low.y << " x " << high.z - low.z
            << ") in more than " << kAxisCubes << " steps on an axis: expected a larger radius";
    throw InputError(message.str());
  }
}

}  // namespace process

void checkNoiseFilterSettings(const NoiseFilterSettings& settings) {
  if (!std::isfinite(settings.radius) || settings.radius <= 0.0) {
    std::ostringstream message;
    message << "noise filter: radius " << settings.radius << ": expected a length > 0";
    throw InputError(message.str());
  }
  if (settings.minNeighbours < 1) {
    throw InputError("noise filter: minimum neighbours 0: expected at least 1");
  }
}

std::vector<uint8_t> noisePoints(std::span<const glm::dvec3> points,
                                 const NoiseFilterSettings& settings) {
  checkNoiseFilterSettings(settings);
  if (points.empty()) throw InputError("noise filter: no points to classify");

  glm::dvec3 low(INFINITY), high(-INFINITY);
  for (const glm::dvec3& p : points) {
    if (!usable(p)) continue;
    low = glm::min(low, p);
    high = glm::max(high, p);
  }
  // Points with a coordinate that is not a number have no neighbours: noise.
  std::vector<uint8_t> noise(points.size(), 1);
  if (!std::isfinite(low.x)) return noise;
  process::checkNoiseCubes(low, high, settings);
  const auto cubeOf = [&](const glm::dvec3& p) {
    return glm::i64vec3(process::cubeOf(p.x, low.x, settings.radius),
                        process::cubeOf(p.y, low.y, settings.radius),
                        process::cubeOf(p.z, low.z, settings.radius));
  };

  // Every usable point's (key, index), sorted: the points of a cube are one run.
  struct Entry {
    uint64_t key;
    uint64_t index;
    bool operator<(const Entry& other) const {
      return key != other.key ? key < other.key : index < other.index;
    }
  };
  std::vector<Entry> entries;
  entries.reserve(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    if (!usable(points[i])) continue;
    const glm::i64vec3 c = cubeOf(points[i]);
    entries.push_back({cubeKey(c.x, c.y, c.z), i});
  }
  std::sort(entries.begin(), entries.end());

  // The cubes: where each run of one key starts in `entries` (and the end, last).
  std::vector<uint64_t> cubeKeys, cubeStarts;
  for (uint64_t e = 0; e < entries.size(); ++e) {
    if (e == 0 || entries[e].key != entries[e - 1].key) {
      cubeKeys.push_back(entries[e].key);
      cubeStarts.push_back(e);
    }
  }
  cubeStarts.push_back(entries.size());

  // Cube by cube: its 27 neighbour cubes are looked up once for all its points.
  const double radiusSquared = settings.radius * settings.radius;
  parallelFor(
      cubeKeys.size(),
      [&](uint64_t begin, uint64_t end) {
        std::vector<std::pair<uint64_t, uint64_t>> near;  // runs of entries in reach
        for (uint64_t cube = begin; cube < end; ++cube) {
          const glm::i64vec3 c = cubeOf(points[size_t(entries[cubeStarts[cube]].index)]);
          near.clear();
          for (int64_t dx = -1; dx <= 1; ++dx) {
            for (int64_t dy = -1; dy <= 1; ++dy) {
              for (int64_t dz = -1; dz <= 1; ++dz) {
                const int64_t x = c.x + dx, y = c.y + dy, z = c.z + dz;
                if (x < 0 || y < 0 || z < 0 || x >= kAxisCubes || y >= kAxisCubes ||
                    z >= kAxisCubes) {
                  continue;
                }
                const uint64_t key = cubeKey(x, y, z);
                const auto it = std::lower_bound(cubeKeys.begin(), cubeKeys.end(), key);
                if (it == cubeKeys.end() || *it != key) continue;
                const size_t found = size_t(it - cubeKeys.begin());
                near.emplace_back(cubeStarts[found], cubeStarts[found + 1]);
              }
            }
          }
          for (uint64_t e = cubeStarts[cube]; e < cubeStarts[cube + 1]; ++e) {
            const size_t index = size_t(entries[e].index);
            const glm::dvec3& p = points[index];
            uint32_t found = 0;
            for (const auto& [first, last] : near) {
              for (uint64_t n = first; n < last && found < settings.minNeighbours; ++n) {
                if (entries[n].index == index) continue;
                const glm::dvec3& q = points[size_t(entries[n].index)];
                if (process::squaredDistance(p.x, p.y, p.z, q.x, q.y, q.z) <= radiusSquared) {
                  ++found;
                }
              }
              if (found >= settings.minNeighbours) break;
            }
            noise[index] = found < settings.minNeighbours ? 1 : 0;
          }
        }
      },
      64);
  return noise;
}

}  // namespace pcv
