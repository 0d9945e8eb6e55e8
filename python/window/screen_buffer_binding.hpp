/// @brief pcv.window.ScreenBuffer: the seed's screen buffer for Python programs, a pixel buffer
/// (RGB8, RGBA8, RGB32F, RGBA32F) that CUDA kernels write through __cuda_array_interface__, or
/// the CPU uploads, and GL blits to the window scaled to its size.
#pragma once

#include <pybind11/pybind11.h>

namespace pcv::python {

/// Binds ScreenBuffer (after Window and MappedArray).
void bindScreenBuffer(pybind11::module_& module);

}  // namespace pcv::python
