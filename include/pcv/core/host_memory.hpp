/// @brief Checks a large host allocation against the memory the system can give, so a point
/// count that cannot fit ends in a clear error instead of an OOM kill or a partial image.
#pragma once

#include <cstdint>
#include <string_view>

namespace pcv {

/// The machine's physical memory in bytes (8 GiB when the system does not say): what memory
/// budgets default to a share of.
uint64_t machineMemoryBytes();

/// Bytes the kernel reports as available (MemAvailable), or UINT64_MAX when unknown.
uint64_t availableHostMemoryBytes();

/// Throws OutOfMemoryError naming `what`, the sizes and the available memory when
/// `count * bytesPerItem` overflows or exceeds what is available.
void requireHostMemory(std::string_view what, uint64_t count, uint64_t bytesPerItem);

}  // namespace pcv
