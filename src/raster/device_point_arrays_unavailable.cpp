// DevicePointArrays in a build without CUDA: there is no device memory to read, so making one
// says so (UnavailableError), like asking for the CUDA backend does.
#include "pcv/core/error.hpp"
#include "pcv/raster/device_point_arrays.hpp"

namespace pcv {

struct DevicePointArrays::State {};

DevicePointArrays::DevicePointArrays(const DeviceArray&, const std::optional<DeviceArray>&,
                                     const std::vector<DeviceArraysReady>&) {
  throw UnavailableError("points in CUDA memory need pcv built with CUDA; it was built without");
}

DevicePointArrays::~DevicePointArrays() = default;
uint64_t DevicePointArrays::pointCount() const { return 0; }
void DevicePointArrays::produce(uint64_t, std::span<Point>) const {}
bool DevicePointArrays::produceOnDevice(uint64_t, uint64_t, Point*, void*) const { return false; }

const Box3d& DevicePointArrays::worldBounds() const {
  static const Box3d none;
  return none;
}

const glm::dvec3& DevicePointArrays::origin() const {
  static const glm::dvec3 zero(0.0);
  return zero;
}

bool DevicePointArrays::hasColor() const { return false; }
void DevicePointArrays::moveToOrigin(const glm::dvec3&) {}

}  // namespace pcv
