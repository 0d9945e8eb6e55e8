#include "image_array.hpp"

#include <memory>
#include <utility>

namespace py = pybind11;

namespace pcv::python {
namespace {

/// One pool for every renderer of the process: images of one size, drawn frame after frame,
/// reuse the same few buffers whichever renderer drew them. Buffers it handed out may outlive
/// it (they share its shelf), so its destruction at exit is safe in any order.
HostImagePool& imagePool() {
  static HostImagePool pool;
  return pool;
}

}  // namespace

HostImageBuffer imageBufferFor(const Renderer& renderer, int width, int height) {
  return imagePool().acquireFor(renderer, uint64_t(width) * uint64_t(height));
}

RenderTarget topRowFirstTarget(const HostImageBuffer& buffer, int width, int height) {
  return RenderTarget{.rgba = buffer.pixels(),
                      .width = width,
                      .height = height,
                      .memory = MemorySpace::Host,
                      .topRowFirst = true};
}

py::array_t<uint8_t> imageArray(HostImageBuffer buffer, int width, int height) {
  auto owned = std::make_unique<HostImageBuffer>(std::move(buffer));
  uint8_t* pixels = reinterpret_cast<uint8_t*>(owned->pixels());
  // The capsule owns the buffer from here on; freeing the array gives it back to the pool.
  const py::capsule owner(owned.get(),
                          [](void* held) { delete static_cast<HostImageBuffer*>(held); });
  owned.release();
  const py::ssize_t rowBytes = py::ssize_t(width) * 4;
  return py::array_t<uint8_t>({py::ssize_t(height), py::ssize_t(width), py::ssize_t(4)},
                              {rowBytes, py::ssize_t(4), py::ssize_t(1)}, pixels, owner);
}

}  // namespace pcv::python
