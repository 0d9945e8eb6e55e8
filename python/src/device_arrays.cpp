#include "device_arrays.hpp"

#include <string>
#include <vector>

#if PCV_HAVE_DLPACK
#include <dlpack/dlpack.h>
#endif

#include "pcv/core/error.hpp"
#include "pcv/raster/device_point_arrays.hpp"

namespace py = pybind11;

namespace pcv::python {
namespace {

constexpr int kDLPackCuda = 2;         // DLDeviceType kDLCUDA
constexpr int kDLPackCudaManaged = 13;  // kDLCUDAManaged

bool hasCudaInterface(py::handle object) {
  return py::hasattr(object, "__cuda_array_interface__");
}

/// The (device type, device id) a DLPack exporter names, or nothing.
std::optional<std::pair<int, int>> dlpackDevice(py::handle object) {
  if (!py::hasattr(object, "__dlpack__") || !py::hasattr(object, "__dlpack_device__")) {
    return std::nullopt;
  }
  const py::tuple device = object.attr("__dlpack_device__")();
  return std::pair{device[0].cast<int>(), device[1].cast<int>()};
}

bool dlpackOnCuda(py::handle object) {
  const auto device = dlpackDevice(object);
  return device && (device->first == kDLPackCuda || device->first == kDLPackCudaManaged);
}

std::string nameOf(const char* what) {
  return std::string(what);
}

DeviceScalar scalarOfTypestr(const std::string& typestr, const char* what) {
  if (typestr == "<f4") return DeviceScalar::Float32;
  if (typestr == "<f8") return DeviceScalar::Float64;
  if (typestr == "|u1" || typestr == "<u1") return DeviceScalar::UInt8;
  throw InputError(nameOf(what) + " has element type " + typestr +
                   ": expected float32 or float64 positions and uint8 colours");
}

}  // namespace

/// One array as exported: the owner kept alive, and a DLPack tensor given back when done.
struct CudaPointArrays::Export {
  py::object owner;
  DeviceArray array;
  DeviceArraysReady ready;
#if PCV_HAVE_DLPACK
  DLManagedTensor* tensor = nullptr;
  ~Export() {
    if (tensor && tensor->deleter) tensor->deleter(tensor);
  }
#endif
};

namespace {

using Export = std::unique_ptr<CudaPointArrays::Export>;

/// A __cuda_array_interface__ (versions 2 and 3): shape, typestr, data, strides, stream.
void readCudaInterface(py::handle object, const char* what, CudaPointArrays::Export& out) {
  const py::dict cai = object.attr("__cuda_array_interface__");
  const py::tuple shape = cai["shape"];
  if (shape.size() != 2) {
    throw InputError(nameOf(what) + " must be a two-dimensional array, got " +
                     std::to_string(shape.size()) + " dimensions");
  }
  if (cai.contains("mask") && !cai["mask"].is_none()) {
    throw InputError(nameOf(what) + " has a mask: masked arrays are not drawn");
  }
  DeviceArray& a = out.array;
  a.scalar = scalarOfTypestr(cai["typestr"].cast<std::string>(), what);
  const int64_t itemBytes = a.scalar == DeviceScalar::Float64 ? 8 : a.scalar == DeviceScalar::Float32 ? 4 : 1;
  a.rows = shape[0].cast<uint64_t>();
  a.columns = shape[1].cast<uint32_t>();
  a.data = reinterpret_cast<const void*>(py::tuple(cai["data"])[0].cast<uintptr_t>());
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    const py::tuple strides = cai["strides"];
    a.rowStrideBytes = strides[0].cast<int64_t>();
    a.columnStrideBytes = strides[1].cast<int64_t>();
  } else {
    a.rowStrideBytes = itemBytes * int64_t(a.columns);
    a.columnStrideBytes = itemBytes;
  }
  // Version 3's stream: the writer's stream to wait for; absent or None: nothing to wait for.
  if (cai.contains("stream") && !cai["stream"].is_none()) {
    const uintptr_t stream = cai["stream"].cast<uintptr_t>();
    if (stream == 0) throw InputError(nameOf(what) + " names stream 0, which the protocol forbids");
    out.ready.stream = stream == 1   ? DeviceArraysReady::Stream::LegacyDefault
                       : stream == 2 ? DeviceArraysReady::Stream::PerThreadDefault
                                     : DeviceArraysReady::Stream::Given;
    out.ready.handle = reinterpret_cast<void*>(stream);
  }
  out.owner = py::reinterpret_borrow<py::object>(object);
}

#if PCV_HAVE_DLPACK
/// `__dlpack__(stream=1)`: the exporter makes the data ready on the legacy default stream, which
/// the renderer's stream then waits for. The capsule is renamed "used_dltensor" as the protocol
/// asks, and its tensor given back when the arrays are done with.
void readDLPack(py::handle object, const char* what, CudaPointArrays::Export& out) {
  py::object capsule = object.attr("__dlpack__")(py::arg("stream") = 1);
  PyObject* raw = capsule.ptr();
  if (!PyCapsule_IsValid(raw, "dltensor")) {
    throw InputError(nameOf(what) + "'s __dlpack__ gave no unused DLPack tensor");
  }
  auto* tensor = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(raw, "dltensor"));
  PyCapsule_SetName(raw, "used_dltensor");
  out.tensor = tensor;
  const DLTensor& t = tensor->dl_tensor;
  if (t.ndim != 2) {
    throw InputError(nameOf(what) + " must be a two-dimensional array, got " +
                     std::to_string(t.ndim) + " dimensions");
  }
  DeviceArray& a = out.array;
  if (t.dtype.lanes != 1) throw InputError(nameOf(what) + " has vector elements");
  if (t.dtype.code == kDLFloat && t.dtype.bits == 32) {
    a.scalar = DeviceScalar::Float32;
  } else if (t.dtype.code == kDLFloat && t.dtype.bits == 64) {
    a.scalar = DeviceScalar::Float64;
  } else if (t.dtype.code == kDLUInt && t.dtype.bits == 8) {
    a.scalar = DeviceScalar::UInt8;
  } else {
    throw InputError(nameOf(what) + " has DLPack type code " + std::to_string(t.dtype.code) +
                     " of " + std::to_string(t.dtype.bits) +
                     " bits: expected float32 or float64 positions and uint8 colours");
  }
  const int64_t itemBytes = t.dtype.bits / 8;
  a.rows = uint64_t(t.shape[0]);
  a.columns = uint32_t(t.shape[1]);
  a.data = static_cast<const char*>(t.data) + t.byte_offset;
  a.rowStrideBytes = (t.strides ? t.strides[0] : t.shape[1]) * itemBytes;
  a.columnStrideBytes = (t.strides ? t.strides[1] : 1) * itemBytes;
  out.ready.stream = DeviceArraysReady::Stream::LegacyDefault;
  out.owner = py::reinterpret_borrow<py::object>(object);
}
#endif

Export exportOf(py::handle object, const char* what) {
  auto out = std::make_unique<CudaPointArrays::Export>();
  if (hasCudaInterface(object)) {
    readCudaInterface(object, what, *out);
    return out;
  }
#if PCV_HAVE_DLPACK
  if (dlpackOnCuda(object)) {
    readDLPack(object, what, *out);
    return out;
  }
#endif
  throw InputError(nameOf(what) +
                   " is not in CUDA memory: positions on the GPU need colours on the GPU too");
}

}  // namespace

bool isCudaArray(py::handle object) {
  if (object.is_none()) return false;
  if (hasCudaInterface(object)) return true;
#if PCV_HAVE_DLPACK
  return dlpackOnCuda(object);
#else
  if (dlpackOnCuda(object)) {
    throw UnavailableError("this pcv module was built without DLPack (libdlpack-dev): pass the "
                           "array through __cuda_array_interface__ instead");
  }
  return false;
#endif
}

py::object hostArrayOf(py::handle object) {
  const py::module_ numpy = py::module_::import("numpy");
  if (py::isinstance(object, numpy.attr("ndarray")) || !dlpackDevice(object)) {
    return py::reinterpret_borrow<py::object>(object);
  }
  return numpy.attr("from_dlpack")(object);
}

CudaPointArrays::CudaPointArrays(py::handle xyz, py::handle rgb) {
  exports_.push_back(exportOf(xyz, "the positions array"));
  std::optional<DeviceArray> colors;
  if (!rgb.is_none()) {
    exports_.push_back(exportOf(rgb, "the colours array"));
    colors = exports_.back()->array;
  }
  std::vector<DeviceArraysReady> writers;
  for (const auto& exported : exports_) writers.push_back(exported->ready);
  points_ = std::make_shared<DevicePointArrays>(exports_.front()->array, colors, writers);
  produced_.worldBounds = points_->worldBounds();
  produced_.origin = points_->origin();
  produced_.hasColor = points_->hasColor();
  produced_.producer = points_;
}

CudaPointArrays::~CudaPointArrays() = default;

}  // namespace pcv::python
