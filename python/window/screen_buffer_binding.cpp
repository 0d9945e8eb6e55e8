#include "screen_buffer_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "mapped_array.hpp"
#include "pcv/core/error.hpp"
#include "pcv/gl/screen_buffer.hpp"
#include "window.hpp"

namespace py = pybind11;

namespace pcv::python {
namespace {

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

}  // namespace

void bindScreenBuffer(py::module_& module) {
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
}

}  // namespace pcv::python
