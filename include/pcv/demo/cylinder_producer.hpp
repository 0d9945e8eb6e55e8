/// @brief The demo cylinders as a PointProducer: any slice of its points, generated where the
/// renderer needs them (on the GPU in builds with CUDA), so clouds of billions of points are
/// never held whole anywhere but in the renderer's layout.
#pragma once

#include <cstdint>
#include <span>

#include "pcv/core/point_producer.hpp"
#include "pcv/demo/cylinders.hpp"

namespace pcv {

class CylinderProducer final : public PointProducer {
 public:
  CylinderProducer(CylinderSet set, uint64_t pointCount)
      : set_(std::move(set)), pointCount_(pointCount) {}
  uint64_t pointCount() const override { return pointCount_; }
  void produce(uint64_t first, std::span<Point> out) const override;
  bool produceOnDevice(uint64_t first, uint64_t count, Point* devicePoints,
                       void* cudaStream) const override;

 private:
  CylinderSet set_;
  uint64_t pointCount_;
};

}  // namespace pcv
