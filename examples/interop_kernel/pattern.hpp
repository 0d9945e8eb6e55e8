/// @brief The example's own CUDA kernel, seen from C++: an animated pattern written into pixels
/// that CUDA was handed (a GL pixel buffer mapped into CUDA). Kept free of CUDA headers beyond
/// the runtime's types so main.cpp needs no nvcc.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

/// Fills widthPx x heightPx RGBA8 pixels (GPU pointer owned by the caller, rows tightly packed,
/// row 0 at the bottom as in GL) with the pattern of `tick`, on `stream`; returns at once.
///   red = (x + tick) mod 256, green = (y + 2 tick) mod 256, blue = ((x xor y) + 3 tick) mod 256,
///   alpha = 255
/// so every pixel of every frame is known exactly (the test checks them all).
void launchPattern(uint32_t* pixelsRgba, int widthPx, int heightPx, uint32_t tick,
                   cudaStream_t stream);
