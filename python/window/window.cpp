#include "window.hpp"

#include <GLFW/glfw3.h>

#include <pybind11/stl.h>

#include "pcv/core/error.hpp"

namespace py = pybind11;

namespace pcv::python {

Window::Window(std::array<int, 2> size, const std::string& title, bool headless) : size_(size) {
  if (headless) {
    egl_ = std::make_unique<EglContext>();
  } else {
    glfw_ = std::make_unique<GlfwWindow>(title, size[0], size[1]);
  }
}

void Window::close() {
  for (GlResource* resource : resources_) resource->releaseGl();
  resources_.clear();
  glfw_.reset();
  egl_.reset();
}

void Window::requireOpen() const {
  if (!open()) throw InputError("the window is closed");
}

bool Window::shouldClose() const {
  return glfw_ && glfwWindowShouldClose(glfw_->handle());
}

void Window::pollEvents() const {
  if (glfw_) glfwPollEvents();
}

void Window::swapBuffers() const {
  if (glfw_) glfwSwapBuffers(glfw_->handle());
}

bool Window::keyDown(int key) const {
  return glfw_ && glfwGetKey(glfw_->handle(), key) == GLFW_PRESS;
}

double Window::time() const {
  return glfw_ ? glfwGetTime() : 0.0;
}

std::array<int, 2> Window::framebufferSize() const {
  if (!glfw_) return size_;
  std::array<int, 2> size{};
  glfwGetFramebufferSize(glfw_->handle(), &size[0], &size[1]);
  return size;
}

std::string Window::description() const {
  return glfw_ ? glfw_->description() : egl_->description();
}

void bindWindow(py::module_& module) {
  py::class_<Window>(module, "Window")
      .def(py::init<std::array<int, 2>, const std::string&, bool>(),
           py::arg("size") = std::array<int, 2>{1280, 720}, py::arg("title") = "pcv",
           py::arg("headless") = false)
      .def("close", &Window::close)
      .def(
          "__enter__", [](Window& w) -> Window& { return w; }, py::return_value_policy::reference)
      .def("__exit__", [](Window& w, py::args) { w.close(); })
      .def_property_readonly("headless", &Window::headless)
      .def_property_readonly("should_close", &Window::shouldClose)
      .def_property_readonly("framebuffer_size", &Window::framebufferSize)
      .def_property_readonly("description", &Window::description)
      .def("poll_events", &Window::pollEvents)
      .def("swap_buffers", &Window::swapBuffers)
      .def("key_down", &Window::keyDown, py::arg("key"))
      .def("time", &Window::time);
}

}  // namespace pcv::python
