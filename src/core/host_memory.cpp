#include "pcv/core/host_memory.hpp"

#include <unistd.h>

#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "pcv/core/error.hpp"

namespace pcv {

uint64_t machineMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long pageBytes = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && pageBytes > 0 ? uint64_t(pages) * uint64_t(pageBytes) : uint64_t(8) << 30;
}

uint64_t availableHostMemoryBytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return std::numeric_limits<uint64_t>::max();
}

void requireHostMemory(std::string_view what, uint64_t count, uint64_t bytesPerItem) {
  const uint64_t available = availableHostMemoryBytes();
  const bool overflows =
      bytesPerItem != 0 && count > std::numeric_limits<uint64_t>::max() / bytesPerItem;
  if (!overflows && count * bytesPerItem <= available) return;
  std::ostringstream message;
  message << "not enough host memory for " << what << ": " << count << " x " << bytesPerItem
          << " bytes = "
          << (overflows ? std::string("more than 16 EiB")
                        : formatBytes(double(count * bytesPerItem)))
          << ", but " << formatBytes(double(available)) << " is available";
  throw OutOfMemoryError(message.str());
}

}  // namespace pcv
