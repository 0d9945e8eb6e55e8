// pcv.window: the seed's two reusable pieces for Python programs. A window (GLFW, or a headless
// EGL context), its screen buffer (a pixel buffer that CUDA writes and GL blits to the window)
// and GL buffers mapped into CUDA, each mapped array handed to Python through
// __cuda_array_interface__ (version 3), so numba, CuPy or PyTorch kernels write them in place.
// A module of its own: `import pcv` never loads GL.
#include <epoxy/gl.h>

#include <GLFW/glfw3.h>

#include <array>
#include <set>
#include <cstring>
#include <vector>
#include <memory>
#include <optional>
#include <string>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "pcv/core/error.hpp"
#include "pcv/gl/egl_context.hpp"
#include "pcv/gl/gl_check.hpp"
#include "pcv/gl/gl_objects.hpp"
#include "pcv/gl/glfw_window.hpp"
#include "pcv/gl/screen_buffer.hpp"
#include "pcv/raster/renderer.hpp"
#if PCV_WITH_CUDA
#include "pcv/gl/gl_buffer_in_cuda.hpp"
#endif

namespace py = pybind11;

namespace pcv::python {
namespace {

/// What a mapping hands out: valid until the buffer is unmapped.
struct MappedArray {
  uintptr_t pointer = 0;
  std::vector<py::ssize_t> shape;
  std::string typestr;
  bool valid = true;

  py::dict interface() const {
    if (!valid) throw InputError("the array was unmapped: map the buffer again");
    py::dict cai;
    cai["shape"] = py::tuple(py::cast(shape));
    cai["typestr"] = typestr;
    cai["data"] = py::make_tuple(pointer, false);
    cai["strides"] = py::none();
    cai["version"] = 3;
    cai["stream"] = 1;  // mapped on the legacy default stream, where the seed's kernels run
    return cai;
  }
};

/// A GL buffer registered with CUDA, mapped between map() and unmap() (GL must not use it
/// meanwhile, which the seed's version left undefined by keeping it mapped).
class CudaMapping {
 public:
  explicit CudaMapping(GLuint buffer) {
#if PCV_WITH_CUDA
    std::string whyNot;
    if (!cudaAvailable(&whyNot)) throw UnavailableError("mapping GL buffers into CUDA: " + whyNot);
    registered_.emplace(buffer);
#else
    (void)buffer;
    throw UnavailableError("mapping GL buffers into CUDA needs pcv built with CUDA");
#endif
  }
  std::shared_ptr<MappedArray> map(std::vector<py::ssize_t> shape, std::string typestr,
                                   size_t bytes) {
#if PCV_WITH_CUDA
    if (current_) throw InputError("the buffer is mapped already: unmap it first");
    registered_->map(nullptr);
    if (bytes > registered_->mappedBytes()) {
      registered_->unmap(nullptr);
      throw InputError("a view of " + std::to_string(bytes) + " bytes exceeds the buffer's " +
                       std::to_string(registered_->mappedBytes()));
    }
    current_ = std::make_shared<MappedArray>();
    current_->pointer = reinterpret_cast<uintptr_t>(registered_->view<uint8_t>().data);
    current_->shape = std::move(shape);
    current_->typestr = std::move(typestr);
    return current_;
#else
    (void)shape, (void)typestr, (void)bytes;
    return nullptr;
#endif
  }
  void unmap() {
#if PCV_WITH_CUDA
    if (!current_) return;
    current_->valid = false;
    current_.reset();
    registered_->unmap(nullptr);
#endif
  }

 private:
#if PCV_WITH_CUDA
  std::optional<GlBufferInCuda> registered_;
#endif
  std::shared_ptr<MappedArray> current_;
};

std::string typestrOf(const py::dtype& dtype) {
  return py::str(dtype.attr("str"));
}

/// Equal types by their description ("|u1", "<f4"): NumPy 2 may hand out distinct dtype objects
/// for one type, so identity does not answer.
bool sameType(const py::dtype& a, const py::dtype& b) {
  return typestrOf(a) == typestrOf(b);
}

/// GL objects made in a window's context: released by the window when it closes, while its
/// context is still current (Python may keep the objects alive past the window).
class GlResource {
 public:
  virtual ~GlResource() = default;
  virtual void releaseGl() = 0;
};

class Window {
 public:
  Window(std::array<int, 2> size, const std::string& title, bool headless) : size_(size) {
    if (headless) {
      egl_ = std::make_unique<EglContext>();
    } else {
      glfw_ = std::make_unique<GlfwWindow>(title, size[0], size[1]);
    }
  }
  ~Window() { close(); }

  void close() {
    for (GlResource* resource : resources_) resource->releaseGl();
    resources_.clear();
    glfw_.reset();
    egl_.reset();
  }
  bool open() const { return glfw_ || egl_; }
  void requireOpen() const {
    if (!open()) throw InputError("the window is closed");
  }
  void adopt(GlResource* resource) { resources_.insert(resource); }
  void forget(GlResource* resource) { resources_.erase(resource); }
  bool headless() const { return egl_ != nullptr; }
  bool shouldClose() const { return glfw_ && glfwWindowShouldClose(glfw_->handle()); }
  void pollEvents() const {
    if (glfw_) glfwPollEvents();
  }
  void swapBuffers() const {
    if (glfw_) glfwSwapBuffers(glfw_->handle());
  }
  bool keyDown(int key) const { return glfw_ && glfwGetKey(glfw_->handle(), key) == GLFW_PRESS; }
  double time() const { return glfw_ ? glfwGetTime() : 0.0; }
  std::array<int, 2> framebufferSize() const {
    if (!glfw_) return size_;
    std::array<int, 2> size{};
    glfwGetFramebufferSize(glfw_->handle(), &size[0], &size[1]);
    return size;
  }
  std::string description() const {
    return glfw_ ? glfw_->description() : egl_->description();
  }

 private:
  std::array<int, 2> size_;
  std::unique_ptr<GlfwWindow> glfw_;
  std::unique_ptr<EglContext> egl_;
  std::set<GlResource*> resources_;
};

PixelFormat formatOf(int channels, const py::dtype& dtype) {
  const bool bytes = sameType(dtype, py::dtype::of<uint8_t>());
  const bool floats = sameType(dtype, py::dtype::of<float>());
  if (channels == 3 && bytes) return PixelFormat::RGB8;
  if (channels == 4 && bytes) return PixelFormat::RGBA8;
  if (channels == 3 && floats) return PixelFormat::RGB32F;
  if (channels == 4 && floats) return PixelFormat::RGBA32F;
  throw InputError("a screen buffer holds 3 or 4 channels of uint8 or float32, not " +
                   std::to_string(channels) + " of " + typestrOf(dtype));
}

class PyScreenBuffer final : public GlResource {
 public:
  PyScreenBuffer(Window& window, std::array<int, 2> size, int channels, const py::object& dtype)
      : window_(window), dtype_(py::dtype::from_args(dtype)), channels_(channels) {
    window.requireOpen();
    buffer_ = std::make_unique<ScreenBuffer>(size[0], size[1], formatOf(channels, dtype_));
    window_.adopt(this);
  }
  ~PyScreenBuffer() override {
    window_.forget(this);
    releaseGl();
  }
  void releaseGl() override {
    mapping_.reset();
    buffer_.reset();
  }

  /// The pixels as a (height, width, channels) CUDA array, row 0 at the bottom as GL has it.
  std::shared_ptr<MappedArray> map() {
    const ScreenBuffer& buffer = live();
    if (!mapping_) mapping_.emplace(buffer.pixelBuffer());
    return mapping_->map({buffer.height(), buffer.width(), channels_}, typestrOf(dtype_),
                         buffer.byteSize());
  }
  void unmap() {
    if (mapping_) mapping_->unmap();
  }
  /// Host pixels of the same shape, uploaded (the CPU path).
  void upload(const py::array& pixels) {
    ScreenBuffer& buffer = live();
    const py::array contiguous = py::array::ensure(pixels, py::array::c_style);
    if (!contiguous || size_t(contiguous.nbytes()) != buffer.byteSize() ||
        !sameType(contiguous.dtype(), dtype_)) {
      throw InputError("upload takes a (" + std::to_string(buffer.height()) + ", " +
                       std::to_string(buffer.width()) + ", " + std::to_string(channels_) +
                       ") array of " + typestrOf(dtype_));
    }
    unmap();
    buffer.uploadToPixelBuffer(contiguous.data());
  }
  /// PBO -> texture -> the window's framebuffer, scaled to its size (the seed's blittoscreen).
  /// Headless, the texture is filled and nothing is blitted (there is no window to show it).
  void blit() {
    ScreenBuffer& buffer = live();
    unmap();  // GL may not read it while CUDA holds it
    buffer.copyPixelBufferToTexture();
    if (window_.headless()) return;
    const std::array<int, 2> size = window_.framebufferSize();
    buffer.blitTo(0, size[0], size[1]);
  }
  /// The texture read back as (height, width, 4) uint8, top row first.
  py::array_t<uint8_t> read() const {
    const Image image = live().readTexture();
    py::array_t<uint8_t> out({py::ssize_t(image.height), py::ssize_t(image.width), py::ssize_t(4)});
    uint8_t* data = out.mutable_data();
    const size_t row = size_t(image.width) * 4;
    for (int y = 0; y < image.height; ++y) {
      std::memcpy(data + size_t(image.height - 1 - y) * row,
                  reinterpret_cast<const uint8_t*>(image.pixels.data()) + size_t(y) * row, row);
    }
    return out;
  }
  std::array<int, 2> size() const { return {live().width(), live().height()}; }

 private:
  ScreenBuffer& live() const {
    window_.requireOpen();
    return *buffer_;
  }
  Window& window_;
  py::dtype dtype_;
  int channels_;
  std::unique_ptr<ScreenBuffer> buffer_;
  std::optional<CudaMapping> mapping_;
};

class PyGlBuffer final : public GlResource {
 public:
  PyGlBuffer(Window& window, size_t bytes) : window_(window), bytes_(bytes) {
    window.requireOpen();
    if (bytes == 0) throw InputError("a GL buffer needs at least one byte");
    buffer_ = std::make_unique<GlBuffer>(GlBuffer::create());
    glBindBuffer(GL_ARRAY_BUFFER, buffer_->id());
    GL_CHECK(glBufferStorage(GL_ARRAY_BUFFER, GLsizeiptr(bytes), nullptr, 0));
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    window_.adopt(this);
  }
  ~PyGlBuffer() override {
    window_.forget(this);
    releaseGl();
  }
  void releaseGl() override {
    mapping_.reset();
    buffer_.reset();
  }
  /// The buffer as a CUDA array of `dtype` and `shape` (all of it as one dimension when None).
  std::shared_ptr<MappedArray> map(const py::object& dtypeObject,
                                   std::optional<std::vector<py::ssize_t>> shape) {
    window_.requireOpen();
    const py::dtype dtype = py::dtype::from_args(dtypeObject);
    std::vector<py::ssize_t> dims =
        shape ? *shape : std::vector<py::ssize_t>{py::ssize_t(bytes_ / dtype.itemsize())};
    size_t bytes = dtype.itemsize();
    for (py::ssize_t d : dims) bytes *= size_t(d);
    if (!mapping_) mapping_.emplace(buffer_->id());  // registered with CUDA when first mapped
    return mapping_->map(dims, typestrOf(dtype), bytes);
  }
  void unmap() {
    if (mapping_) mapping_->unmap();
  }
  GLuint id() const {
    window_.requireOpen();
    return buffer_->id();
  }
  size_t bytes() const { return bytes_; }

 private:
  Window& window_;
  size_t bytes_;
  std::unique_ptr<GlBuffer> buffer_;
  std::optional<CudaMapping> mapping_;
};

/// pcv's errors raise pcv's exception classes (defined by pcv._pcv), as in the main module.
void translateErrors() {
  py::register_exception_translator([](std::exception_ptr thrown) {
    const py::module_ pcvModule = py::module_::import("pcv._pcv");
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const InputError& e) {
      PyErr_SetString(pcvModule.attr("InputError").ptr(), e.what());
    } catch (const UnavailableError& e) {
      PyErr_SetString(pcvModule.attr("UnavailableError").ptr(), e.what());
    } catch (const Error& e) {
      PyErr_SetString(pcvModule.attr("Error").ptr(), e.what());
    }
  });
}

}  // namespace
}  // namespace pcv::python

PYBIND11_MODULE(_window, module) {
  using namespace pcv::python;
  translateErrors();
  module.doc() = "The seed's window, screen buffer and GL buffers mapped into CUDA.";
  py::class_<MappedArray, std::shared_ptr<MappedArray>>(module, "MappedArray",
                                                        "A mapped buffer as a CUDA array.")
      .def_property_readonly("__cuda_array_interface__", &MappedArray::interface)
      .def_property_readonly("shape", [](const MappedArray& a) { return py::tuple(py::cast(a.shape)); });
  py::class_<Window>(module, "Window")
      .def(py::init<std::array<int, 2>, const std::string&, bool>(),
           py::arg("size") = std::array<int, 2>{1280, 720}, py::arg("title") = "pcv",
           py::arg("headless") = false)
      .def("close", &Window::close)
      .def("__enter__", [](Window& w) -> Window& { return w; }, py::return_value_policy::reference)
      .def("__exit__", [](Window& w, py::args) { w.close(); })
      .def_property_readonly("headless", &Window::headless)
      .def_property_readonly("should_close", &Window::shouldClose)
      .def_property_readonly("framebuffer_size", &Window::framebufferSize)
      .def_property_readonly("description", &Window::description)
      .def("poll_events", &Window::pollEvents)
      .def("swap_buffers", &Window::swapBuffers)
      .def("key_down", &Window::keyDown, py::arg("key"))
      .def("time", &Window::time);
  py::class_<PyScreenBuffer>(module, "ScreenBuffer")
      .def(py::init<Window&, std::array<int, 2>, int, const py::object&>(), py::arg("window"),
           py::arg("size"), py::arg("channels") = 3, py::arg("dtype") = "uint8",
           py::keep_alive<1, 2>())
      .def("map", &PyScreenBuffer::map)
      .def("unmap", &PyScreenBuffer::unmap)
      .def("upload", &PyScreenBuffer::upload, py::arg("pixels"))
      .def("blit", &PyScreenBuffer::blit)
      .def("read", &PyScreenBuffer::read)
      .def_property_readonly("size", &PyScreenBuffer::size);
  py::class_<PyGlBuffer>(module, "GlBuffer")
      .def(py::init<Window&, size_t>(), py::arg("window"), py::arg("bytes"),
           py::keep_alive<1, 2>())
      .def("map", &PyGlBuffer::map, py::arg("dtype") = "float32", py::arg("shape") = py::none())
      .def("unmap", &PyGlBuffer::unmap)
      .def_property_readonly("id", &PyGlBuffer::id)
      .def_property_readonly("bytes", &PyGlBuffer::bytes);
}
