/// @brief pcv.window.Window: a GLFW window (or a headless EGL context) for Python programs, and
/// the GL objects made in it, which it releases when it closes while its context is still
/// current (Python may keep the objects alive past the window).
#pragma once

#include <pybind11/pybind11.h>

#include <array>
#include <memory>
#include <set>
#include <string>

#include "pcv/gl/egl_context.hpp"
#include "pcv/gl/glfw_window.hpp"

namespace pcv::python {

/// GL objects made in a window's context, released by the window when it closes.
class GlResource {
 public:
  virtual ~GlResource() = default;
  virtual void releaseGl() = 0;
};

class Window {
 public:
  Window(std::array<int, 2> size, const std::string& title, bool headless);
  ~Window() { close(); }

  void close();
  bool open() const { return glfw_ || egl_; }
  /// Throws InputError once closed.
  void requireOpen() const;
  void adopt(GlResource* resource) { resources_.insert(resource); }
  void forget(GlResource* resource) { resources_.erase(resource); }
  bool headless() const { return egl_ != nullptr; }
  bool shouldClose() const;
  void pollEvents() const;
  void swapBuffers() const;
  bool keyDown(int key) const;
  double time() const;
  std::array<int, 2> framebufferSize() const;
  std::string description() const;

 private:
  std::array<int, 2> size_;
  std::unique_ptr<GlfwWindow> glfw_;
  std::unique_ptr<EglContext> egl_;
  std::set<GlResource*> resources_;
};

/// Binds Window.
void bindWindow(pybind11::module_& module);

}  // namespace pcv::python
