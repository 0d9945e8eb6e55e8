/// @brief Move-only owner of a cudaMalloc'd array; frees in its destructor, never throws there.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <utility>

#include "pcv/core/error.hpp"
#include "pcv/cuda/cuda_check.hpp"

namespace pcv {

/// Throws OutOfMemoryError naming `what` and the sizes when `bytes` exceed the free GPU memory.
void requireDeviceMemory(const std::string& what, uint64_t count, uint64_t bytesPerItem);

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(uint64_t count) { resize(count); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  /// Reallocates to exactly `count` elements (count of elements, not bytes); contents are lost.
  void resize(uint64_t count) {
    if (count == count_) return;
    release();
    if (count == 0) return;
    requireDeviceMemory("a device buffer", count, sizeof(T));
    CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
    count_ = count;
  }
  /// Grows (never shrinks) so that at least `count` elements fit.
  void reserve(uint64_t count) {
    if (count > count_) resize(count);
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  uint64_t size() const { return count_; }
  uint64_t bytes() const { return count_ * sizeof(T); }

 private:
  void release() noexcept {
    if (data_) CUDA_CHECK_PRINT(cudaFree(data_));
    data_ = nullptr;
    count_ = 0;
  }

  T* data_ = nullptr;
  uint64_t count_ = 0;
};

}  // namespace pcv
