// libFuzzer target: the pcd reader on arbitrary bytes must return or throw pcv::Error, never
// crash, hang, read out of bounds or allocate without bound.
#include <cstdint>
#include <cstdlib>

#include "pcv/core/error.hpp"
#include "reader_common.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("PCV_THREADS", "2", 1);  // exercise the parallel decoder without a thread per core
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  const pcv::io::ReadContext context{"fuzz-input", nullptr};
  try {
    pcv::PointCloud cloud = pcv::io::readPcd(bytes, context).cloud;
    pcv::io::dropNonFinitePoints(cloud);
  } catch (const pcv::Error&) {
  }
  return 0;
}
