#include "pcv/gl/glfw_window.hpp"

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdio>
#include <utility>

#include "pcv/core/error.hpp"

namespace pcv {
namespace {

std::string glfwLastError() {
  const char* description = nullptr;
  glfwGetError(&description);
  return description ? description : "unknown GLFW error";
}

}  // namespace

GlfwWindow::GlfwWindow(const std::string& title, int widthPx, int heightPx, GlContextApi api) {
  if (!glfwInit()) throw UnavailableError("cannot initialize GLFW: " + glfwLastError());
  for (const auto& [major, minor] : {std::pair{4, 5}, std::pair{3, 3}}) {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    // The rasterizer writes every pixel; the window needs neither depth nor stencil.
    glfwWindowHint(GLFW_DEPTH_BITS, 0);
    glfwWindowHint(GLFW_STENCIL_BITS, 0);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    if (api == GlContextApi::Egl) glfwWindowHint(GLFW_CONTEXT_CREATION_API, GLFW_EGL_CONTEXT_API);
    window_ = glfwCreateWindow(widthPx, heightPx, title.c_str(), nullptr, nullptr);
    if (window_) break;
  }
  if (!window_) {
    const std::string why = glfwLastError();
    glfwTerminate();
    throw UnavailableError(std::string("cannot open a window with OpenGL 3.3 core") +
                           (api == GlContextApi::Egl ? " through EGL" : "") + ": " + why);
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(0);  // vsync off, as the seed: frame times show the renderer, not the display
  description_ = std::string("OpenGL ") + reinterpret_cast<const char*>(glGetString(GL_VERSION)) +
                 ", " + reinterpret_cast<const char*>(glGetString(GL_RENDERER));
}

GlfwWindow::~GlfwWindow() {
  glfwDestroyWindow(window_);
  glfwTerminate();
}

}  // namespace pcv
