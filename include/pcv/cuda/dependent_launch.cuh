/// @brief Programmatic dependent launch (Hopper and later): a kernel launched with
/// StageRecorder::launchDependent may start while the kernel before it finishes, so the gap
/// between the short kernels of a frame shrinks. Every such kernel must call
/// beginDependentKernel() before it touches memory: it waits until the previous kernel has
/// completed (so the order of the frame's effects stays that of the stream), then lets the next
/// kernel start launching. On older GPUs both are no-ops and launches serialize as usual.
#pragma once

__device__ __forceinline__ void beginDependentKernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" :::);
#endif
}
