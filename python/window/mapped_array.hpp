/// @brief GL buffers mapped into CUDA for Python: each mapping hands out its device memory as an
/// array through __cuda_array_interface__ (version 3), valid until the buffer is unmapped, so
/// numba, CuPy or PyTorch kernels write it in place; and NumPy types as that interface (and
/// the error messages) describe them.
#pragma once

#include <epoxy/gl.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#if PCV_WITH_CUDA
#include "pcv/gl/gl_buffer_in_cuda.hpp"
#endif

namespace pcv::python {

/// A type's description as __cuda_array_interface__ writes it ("|u1", "<f4").
std::string typestrOf(const pybind11::dtype& dtype);

/// Equal types by their description: NumPy 2 may hand out distinct dtype objects for one type,
/// so identity does not answer.
bool sameType(const pybind11::dtype& a, const pybind11::dtype& b);

/// What a mapping hands out: valid until the buffer is unmapped.
struct MappedArray {
  uintptr_t pointer = 0;
  std::vector<pybind11::ssize_t> shape;
  std::string typestr;
  bool valid = true;

  /// The __cuda_array_interface__ dict; throws InputError once unmapped.
  pybind11::dict interface() const;
};

/// A GL buffer registered with CUDA, mapped between map() and unmap() (GL must not use it
/// meanwhile, which the seed's version left undefined by keeping it mapped).
class CudaMapping {
 public:
  /// Throws UnavailableError without a usable CUDA device or a CUDA build.
  explicit CudaMapping(GLuint buffer);
  /// Maps the buffer and views its first `bytes` as `shape` of `typestr`; throws InputError
  /// when mapped already or when the view exceeds the buffer.
  std::shared_ptr<MappedArray> map(std::vector<pybind11::ssize_t> shape, std::string typestr,
                                   size_t bytes);
  /// Unmaps it; the array handed out is no longer valid.
  void unmap();

 private:
#if PCV_WITH_CUDA
  std::optional<GlBufferInCuda> registered_;
#endif
  std::shared_ptr<MappedArray> current_;
};

/// Binds MappedArray.
void bindMappedArray(pybind11::module_& module);

}  // namespace pcv::python
