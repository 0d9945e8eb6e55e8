/// @brief A source of points that a renderer pulls in slices, so a cloud is never copied whole:
/// host memory the caller owns, or a generator (the cylinder scene) that can also write
/// straight into GPU memory. No GPU types: the CUDA stream travels as void*.
#pragma once

#include <cstdint>
#include <span>

#include "pcv/core/point.hpp"

namespace pcv {

class PointProducer {
 public:
  virtual ~PointProducer() = default;
  /// Points in all (count of points, not bytes).
  virtual uint64_t pointCount() const = 0;
  /// Writes points [first, first + out.size()) to host memory.
  virtual void produce(uint64_t first, std::span<Point> out) const = 0;
  /// The points themselves when they already lie in host memory (no copy needed); else empty.
  virtual std::span<const Point> hostPoints() const { return {}; }
  /// Writes points [first, first + count) to `devicePoints` (CUDA device memory owned by the
  /// caller) on `cudaStream` (a cudaStream_t); false when this producer cannot, and the caller
  /// produces on the host and uploads instead.
  virtual bool produceOnDevice(uint64_t first, uint64_t count, Point* devicePoints,
                               void* cudaStream) const {
    (void)first, (void)count, (void)devicePoints, (void)cudaStream;
    return false;
  }
};

/// Points the caller holds in host memory; they must outlive the producer's use.
class HostPoints final : public PointProducer {
 public:
  explicit HostPoints(std::span<const Point> points) : points_(points) {}
  uint64_t pointCount() const override { return points_.size(); }
  void produce(uint64_t first, std::span<Point> out) const override;
  std::span<const Point> hostPoints() const override { return points_; }

 private:
  std::span<const Point> points_;
};

}  // namespace pcv
