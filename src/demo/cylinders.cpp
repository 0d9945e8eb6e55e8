#include "pcv/demo/cylinders.hpp"

#include "pcv/demo/cylinder_producer.hpp"

#include <glm/glm.hpp>

#include "pcv/core/parallel.hpp"
#include "pcv/core/random.hpp"
#include "pcv/demo/cylinder_point.hpp"

namespace pcv {
namespace {

// Parameters draw from their own key so they do not correlate with the points' numbers.
constexpr uint64_t kParameterKey = 0x6379'6c69'6e64'6572ull;  // "cylinder"

class ParameterDraws {
 public:
  explicit ParameterDraws(uint64_t seed) : seed_(seed ^ kParameterKey) {}
  float uniform(float lo, float hi) {
    const float u = uniform01(seed_, counter_ >> 4, uint32_t(counter_ & 15));
    ++counter_;
    return lo + (hi - lo) * u;
  }
  glm::vec3 inCube() { return {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)}; }

 private:
  uint64_t seed_;
  uint64_t counter_ = 0;
};

void store(float out[3], const glm::vec3& v) {
  out[0] = v.x;
  out[1] = v.y;
  out[2] = v.z;
}

}  // namespace

Box3d cylinderSetReach(const CylinderSet& set) {
  Box3d bounds;
  for (const Cylinder& c : set.cylinders) {
    const double reach = double(c.radius) + double(c.halfHeight);
    const glm::dvec3 center(c.center[0], c.center[1], c.center[2]);
    bounds.extend(center - glm::dvec3(reach));
    bounds.extend(center + glm::dvec3(reach));
  }
  return bounds;
}

CylinderSet makeCylinderSet(uint64_t seed, int cylinderCount) {
  CylinderSet set;
  set.seed = seed;
  ParameterDraws draw(seed);
  for (int c = 0; c < cylinderCount; ++c) {
    Cylinder cylinder{};
    store(cylinder.center, draw.inCube());
    // A random orthonormal frame: draw in the cube, reject vectors too short to normalize well,
    // and require axisY to keep a fair part of itself after removing its axisX component.
    glm::vec3 axisX, axisY;
    for (;;) {
      axisX = draw.inCube();
      if (glm::length(axisX) < 0.5f || glm::length(axisX) > 1.0f) continue;
      axisX = glm::normalize(axisX);
      axisY = draw.inCube();
      if (glm::length(axisY) < 0.5f || glm::length(axisY) > 1.0f) continue;
      axisY -= glm::dot(axisX, axisY) * axisX;
      if (glm::length(axisY) < 0.3f) continue;
      axisY = glm::normalize(axisY);
      break;
    }
    store(cylinder.axisX, axisX);
    store(cylinder.axisY, axisY);
    store(cylinder.axisZ, glm::cross(axisX, axisY));
    cylinder.radius = draw.uniform(0.1f, 0.2f);
    cylinder.halfHeight = draw.uniform(0.5f, 1.0f);
    store(cylinder.color,
          {draw.uniform(0.3f, 1.0f), draw.uniform(0.3f, 1.0f), draw.uniform(0.3f, 1.0f)});
    set.cylinders.push_back(cylinder);
  }
  return set;
}

void generateCylinderPoints(const CylinderSet& set, std::span<Point> points) {
  generateCylinderPoints(set, points.size(), 0, points);
}

void generateCylinderPoints(const CylinderSet& set, uint64_t totalCount, uint64_t first,
                            std::span<Point> points) {
  const Cylinder* cylinders = set.cylinders.data();
  const auto cylinderCount = uint32_t(set.cylinders.size());
  parallelFor(points.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      points[i] = cylinderPoint(cylinders, cylinderCount, set.seed, first + i, totalCount);
    }
  });
}

void CylinderProducer::produce(uint64_t first, std::span<Point> out) const {
  generateCylinderPoints(set_, pointCount_, first, out);
}

#if !PCV_WITH_CUDA
bool CylinderProducer::produceOnDevice(uint64_t, uint64_t, Point*, void*) const {
  return false;
}
#endif

}  // namespace pcv
