/// @brief Arrays in CUDA memory given to pcv.render and pcv.Renderer, drawn there without a copy
/// through the host: anything with `__cuda_array_interface__` (CuPy, PyTorch, numba) or with
/// `__dlpack__` on a CUDA device. Arrays exporting DLPack from host memory become NumPy arrays.
#pragma once

#include <memory>
#include <optional>

#include <pybind11/pybind11.h>

#include "pcv/raster/device_point_arrays.hpp"
#include "pcv/session/scene_sources.hpp"

namespace pcv::python {

/// True when `object` says it lies in CUDA memory (either protocol).
bool isCudaArray(pybind11::handle object);

/// `object` as a NumPy array when it exports DLPack from host memory and is not one already;
/// otherwise `object` itself.
pybind11::object hostArrayOf(pybind11::handle object);

/// Positions (and optional colours) in CUDA memory as points the renderer packs on the GPU.
/// The arrays stay alive and exported for as long as the result lives; destroy it with the GIL
/// held. Throws InputError for shapes, types or memory that do not fit (a colour array in host
/// memory beside positions on the GPU, say).
class CudaPointArrays {
 public:
  CudaPointArrays(pybind11::handle xyz, pybind11::handle rgb);
  ~CudaPointArrays();
  CudaPointArrays(const CudaPointArrays&) = delete;
  CudaPointArrays& operator=(const CudaPointArrays&) = delete;

  const ProducedPoints& produced() const { return produced_; }
  /// The producer itself, to move its points into another origin before they are laid out.
  DevicePointArrays& points() { return *points_; }

  struct Export;  ///< one array as exported (device_arrays.cpp)

 private:
  std::vector<std::unique_ptr<Export>> exports_;
  std::shared_ptr<DevicePointArrays> points_;
  ProducedPoints produced_;
};

}  // namespace pcv::python
