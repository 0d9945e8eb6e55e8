// libFuzzer target for one reader, chosen at build time (PCV_FUZZ_FORMAT: 0 PLY, 1 LAS, 2 PCD,
// 3 text, 4 LAZ): the reader on arbitrary bytes must return or throw pcv::Error, never crash,
// hang, read out of bounds or allocate without bound. LAZ and COPC files go through the LAS
// reader as they do in pcv; their target differs by its seed corpus of compressed files.
#include <cstdint>
#include <cstdlib>

#include "pcv/core/error.hpp"
#include "cloud_checks.hpp"
#include "las_header.hpp"
#include "readers.hpp"

namespace {

pcv::io::ReadResult readFuzzInput(std::span<const uint8_t> bytes,
                                  const pcv::io::ReadContext& context) {
#if PCV_FUZZ_FORMAT == 0
  return pcv::io::readPly(bytes, context);
#elif PCV_FUZZ_FORMAT == 1 || PCV_FUZZ_FORMAT == 4
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

/// A few bytes of zeros are a valid LAZ chunk of millions of identical points: such inputs only
/// measure decoding speed, so the LAZ target leaves out those that declare more than this.
constexpr uint64_t kMaxFuzzedLazPoints = 1 << 18;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const pcv::io::ReadContext context{"fuzz-input", nullptr};
  try {
#if PCV_FUZZ_FORMAT == 4
    if (pcv::io::parseLasHeader(std::span<const uint8_t>(data, size), context).pointCount >
        kMaxFuzzedLazPoints) {
      return 0;
    }
#endif
    pcv::PointCloud cloud = readFuzzInput(std::span<const uint8_t>(data, size), context).cloud;
    pcv::io::dropNonFinitePoints(cloud);
  } catch (const pcv::Error&) {
  }
  return 0;
}
