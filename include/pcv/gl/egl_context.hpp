/// @brief A headless OpenGL context through EGL, for machines with no display (a GPU server,
/// CI): the NVIDIA device platform first, Mesa's surfaceless platform as the fallback. No window;
/// draw into framebuffer objects.
#pragma once

#include <string>

namespace pcv {

class EglContext {
 public:
  /// Creates an OpenGL core context (4.5, else 3.3) and makes it current on this thread. Prefers
  /// an EGL device that CUDA can see (EGL_NV_device_cuda), so interop works. Throws
  /// UnavailableError saying which step failed.
  EglContext();
  ~EglContext();
  EglContext(EglContext&&) = delete;
  EglContext& operator=(EglContext&&) = delete;

  /// "EGL device platform (EGL_NV_device_cuda), OpenGL 4.5.0 NVIDIA 580..., NVIDIA H200".
  const std::string& description() const { return description_; }
  void makeCurrent();

 private:
  void* display_ = nullptr;  // EGLDisplay; void* keeps EGL's headers out of this one
  void* context_ = nullptr;  // EGLContext
  void* surface_ = nullptr;  // EGLSurface: a 1x1 pbuffer where surfaceless is not offered
  std::string description_;
};

}  // namespace pcv
