/// @brief Points a caller already holds in CUDA device memory (a CuPy, PyTorch or numba array,
/// a caller's own kernel output) as a PointProducer: the renderer packs them into its layout on
/// the GPU, with no copy through the host. Positions may be float32 or float64 (then offsets
/// from a whole-unit origin, as files are); colours are optional uint8 RGB. No CUDA types here:
/// streams travel as void*.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point_producer.hpp"

namespace pcv {

enum class DeviceScalar { Float32, Float64, UInt8 };

/// A rows x columns array in device memory of the current CUDA device; strides in bytes, so
/// column views of a larger array (a structure of fields) need no copy.
struct DeviceArray {
  const void* data = nullptr;
  DeviceScalar scalar = DeviceScalar::Float32;
  uint64_t rows = 0;
  uint32_t columns = 0;
  int64_t rowStrideBytes = 0;
  int64_t columnStrideBytes = 0;
};

/// Where an array's writer last wrote it, as DLPack and __cuda_array_interface__ name it: the
/// renderer's stream waits for that work before reading the arrays.
struct DeviceArraysReady {
  enum class Stream { AlreadyDone, LegacyDefault, PerThreadDefault, Given };
  Stream stream = Stream::AlreadyDone;
  void* handle = nullptr;  ///< a cudaStream_t when `stream` is Given
};

class DevicePointArrays final : public PointProducer {
 public:
  /// `xyz`: N x 3 float32 or float64. `rgb`: N x 3 (or N x 4, alpha ignored) uint8, or none:
  /// then the points are coloured by elevation exactly as the host path colours them (turbo over
  /// the 2nd to 98th percentile of the same sample of z). Checks shapes and types (throws
  /// InputError), then waits for `ready`, computes the bounds on the GPU and takes a sample of z
  /// for the colour range. `writers`: the streams the arrays were written on (each waited for).
  /// Throws UnavailableError in a build without CUDA or without a device.
  DevicePointArrays(const DeviceArray& xyz, const std::optional<DeviceArray>& rgb,
                    const std::vector<DeviceArraysReady>& writers = {});
  ~DevicePointArrays() override;
  DevicePointArrays(const DevicePointArrays&) = delete;
  DevicePointArrays& operator=(const DevicePointArrays&) = delete;

  uint64_t pointCount() const override;
  /// Host fallback (a renderer on the CPU backend): the slice copied down and packed.
  void produce(uint64_t first, std::span<Point> out) const override;
  bool produceOnDevice(uint64_t first, uint64_t count, Point* devicePoints,
                       void* cudaStream) const override;

  /// World bounds of the finite points.
  const Box3d& worldBounds() const;
  /// What the produced float positions are offsets from: a whole-unit point near the bounds'
  /// centre for float64 input (UTM coordinates keep their centimetres), zero for float32.
  const glm::dvec3& origin() const;
  bool hasColor() const;
  /// Produces offsets from `origin` instead (sets drawn together share one origin).
  void moveToOrigin(const glm::dvec3& origin);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pcv
