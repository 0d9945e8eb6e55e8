#include <algorithm>

#include "backend_checks.hpp"
#include "cpu/cpu_backend.hpp"
#include "pcv/core/error.hpp"
#include "pcv/raster/backend.hpp"
#if PCV_WITH_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace pcv {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

void requirePointCount(uint64_t count) {
  if (count > kMaxPointCount) {
    throw InputError(std::to_string(count) + " points is more than the " +
                     std::to_string(kMaxPointCount) + " a backend holds (32-bit point indices)");
  }
}

void requireConsistentOptions(const BackendOptions& options) {
  if (options.compactOnly && !options.mortonOrder) {
    throw InputError("the compact-only layout needs Morton order");
  }
}

void requireCompactLayoutForQuality(const BackendOptions& options) {
  if (!options.mortonOrder) {
    throw InputError(
        "point size, hole filling, eye-dome lighting, high quality and gradient "
        "backgrounds draw from the compact layout, which needs Morton order");
  }
}

std::vector<std::string> backendNames() {
  return {"auto", "cuda", "cpu"};
}

bool cudaAvailable(std::string* reason) {
#if PCV_WITH_CUDA
  return cudaDeviceUsable(reason);
#else
  if (reason) *reason = "pcv was built without CUDA";
  return false;
#endif
}

std::unique_ptr<Backend> createBackend(std::string_view name, const BackendOptions& options) {
  if (name == "cpu") return createCpuBackend(options);
  if (name == "cuda" || name == "auto") {
    std::string reason;
    if (cudaAvailable(&reason)) {
#if PCV_WITH_CUDA
      return createCudaBackend(options);
#endif
    }
    if (name == "auto") return createCpuBackend(options);
    throw UnavailableError("cannot use the cuda backend: " + reason);
  }
  throw InputError("unknown backend '" + std::string(name) +
                   "'; known backends: " + joined(backendNames()));
}

std::string resolveMethod(const Backend& backend, const std::string& requested) {
  const std::vector<std::string> known = backend.methods();
  if (requested.empty()) return known.front();
  if (std::find(known.begin(), known.end(), requested) != known.end()) return requested;
  throw InputError("unknown method '" + requested + "' for the " + backend.name() +
                   " backend; known methods: " + joined(known));
}

}  // namespace pcv
