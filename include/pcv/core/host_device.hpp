/// @brief Marks functions that both g++ and nvcc compile, so CPU and CUDA share one definition.
#pragma once

#if defined(__CUDACC__)
#define PCV_HOST_DEVICE __host__ __device__
#define PCV_FORCE_INLINE __forceinline__
#else
#define PCV_HOST_DEVICE
#define PCV_FORCE_INLINE inline __attribute__((always_inline))
#endif

// Bit-identical results between the CPU and CUDA backends rely on plain IEEE single-precision
// +, -, *, / and no fused multiply-add: the build passes -fmad=false to nvcc and
// -ffp-contract=off to the host compiler. Transcendental functions differ between libm and CUDA's
// math library, so shared code uses the polynomials in core/float_math.hpp instead.
