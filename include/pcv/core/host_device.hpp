/// @brief Marks functions that both g++ and nvcc compile, so CPU and CUDA share one definition.
#pragma once

#if defined(__CUDACC__)
#define PCV_HOST_DEVICE __host__ __device__
#define PCV_FORCE_INLINE __forceinline__
#else
#define PCV_HOST_DEVICE
#define PCV_FORCE_INLINE inline __attribute__((always_inline))
#endif

// Inlined by nvcc, left to the host compiler's judgement: in device code a struct stays in
// registers only while no call that is not inlined takes its address.
#if defined(__CUDACC__)
#define PCV_DEVICE_INLINE __forceinline__
#else
#define PCV_DEVICE_INLINE
#endif

// Host functions that run shared per-point code using fusedMultiplyAdd get an FMA clone picked
// at run time, so the host gets hardware FMA where the CPU has it without requiring it.
#if !defined(__CUDACC__) && defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define PCV_CPU_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define PCV_CPU_FMA_CLONES
#endif

// Bit-identical results between the CPU and CUDA backends rely on plain IEEE single-precision
// +, -, *, / and no fused multiply-add: the build passes -fmad=false to nvcc and
// -ffp-contract=off to the host compiler. Transcendental functions differ between libm and CUDA's
// math library, so shared code uses the polynomials in core/float_math.hpp instead.
