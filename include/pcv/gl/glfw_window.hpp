/// @brief A GLFW window with an OpenGL core context (4.5, else 3.3), vsync off, as the seed
/// opens it. Only the viewer links GLFW; the headless CLI uses EglContext instead.
#pragma once

#include <string>

struct GLFWwindow;

namespace pcv {

/// Where the window's GL context comes from. The platform's own API (GLX on X11) is what most
/// displays offer; EGL gives the NVIDIA driver's GL on X servers without NVIDIA's GLX (a
/// virtual or remote X server), so CUDA can share its buffers.
enum class GlContextApi { Native, Egl };

class GlfwWindow {
 public:
  /// Initializes GLFW, opens the window and makes its context current. Throws UnavailableError
  /// with GLFW's words when there is no display or no suitable OpenGL.
  GlfwWindow(const std::string& title, int widthPx, int heightPx,
             GlContextApi api = GlContextApi::Native);
  /// Destroys the window and terminates GLFW; GL objects must be gone before.
  ~GlfwWindow();
  GlfwWindow(GlfwWindow&&) = delete;
  GlfwWindow& operator=(GlfwWindow&&) = delete;

  GLFWwindow* handle() const { return window_; }
  /// "OpenGL 4.5 (Core Profile) Mesa 22.3.6, llvmpipe (LLVM 15.0.6, 256 bits)".
  const std::string& description() const { return description_; }

 private:
  GLFWwindow* window_ = nullptr;
  std::string description_;
};

}  // namespace pcv
