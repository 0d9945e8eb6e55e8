// libFuzzer target for one reader, chosen at build time (PCV_FUZZ_FORMAT: 0 PLY, 1 LAS, 2 PCD,
// 3 text): the reader on arbitrary bytes must return or throw pcv::Error, never crash, hang,
// read out of bounds or allocate without bound.
#include <cstdint>
#include <cstdlib>

#include "pcv/core/error.hpp"
#include "cloud_checks.hpp"
#include "readers.hpp"

namespace {

pcv::io::ReadResult readFuzzInput(std::span<const uint8_t> bytes,
                                  const pcv::io::ReadContext& context) {
#if PCV_FUZZ_FORMAT == 0
  return pcv::io::readPly(bytes, context);
#elif PCV_FUZZ_FORMAT == 1
  return pcv::io::readLas(bytes, context);
#elif PCV_FUZZ_FORMAT == 2
  return pcv::io::readPcd(bytes, context);
#else
  return pcv::io::readText(bytes, context, ".xyz");
#endif
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // One decoding thread keeps libFuzzer's coverage feedback free of thread timing; the unit
  // tests and the sanitizer run cover the multi-threaded decoding.
  setenv("PCV_THREADS", "1", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const pcv::io::ReadContext context{"fuzz-input", nullptr};
  try {
    pcv::PointCloud cloud = readFuzzInput(std::span<const uint8_t>(data, size), context).cloud;
    pcv::io::dropNonFinitePoints(cloud);
  } catch (const pcv::Error&) {
  }
  return 0;
}
