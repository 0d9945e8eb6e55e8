#include <sstream>

#include "pcv/cuda/device_buffer.hpp"

namespace pcv {

void requireDeviceMemory(const std::string& what, uint64_t count, uint64_t bytesPerItem) {
  size_t freeBytes = 0, totalBytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  const bool overflows = bytesPerItem != 0 && count > UINT64_MAX / bytesPerItem;
  if (!overflows && count * bytesPerItem <= freeBytes) return;
  std::ostringstream message;
  message << "not enough GPU memory for " << what << ": " << count << " x " << bytesPerItem
          << " bytes = "
          << (overflows ? std::string("more than 16 EiB")
                        : formatBytes(double(count * bytesPerItem)))
          << ", but the GPU has " << formatBytes(double(freeBytes)) << " free of "
          << formatBytes(double(totalBytes));
  throw OutOfMemoryError(message.str());
}

}  // namespace pcv
