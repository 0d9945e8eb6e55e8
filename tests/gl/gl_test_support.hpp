/// @brief A headless GL context for GL tests, made once per process; tests skip with the reason
/// when EGL offers none.
#pragma once

#include <memory>
#include <string>

#include "pcv/core/error.hpp"
#include "pcv/core/image.hpp"
#include "pcv/gl/egl_context.hpp"
#include "test_support.hpp"

namespace pcv::test {

/// The process's EGL context (current on the calling thread), or null with `whyNot` set.
inline EglContext* sharedEglContext(std::string* whyNot) {
  static std::string failure;
  // Never destroyed: tearing EGL down in static destructors races the drivers' own exit hooks.
  static EglContext* context = []() -> EglContext* {
    try {
      return new EglContext();
    } catch (const ::pcv::Error& error) {
      failure = error.what();
      return nullptr;
    }
  }();
  if (whyNot) *whyNot = failure;
  return context;
}

/// Opaque pixels of a fixed pseudo-random pattern, for uploads and blits to reproduce exactly.
inline Image randomImage(int width, int height, uint32_t seed) {
  Image image(width, height);
  uint32_t state = seed * 2654435761u + 1u;
  for (uint32_t& pixel : image.pixels) {
    state = state * 1664525u + 1013904223u;
    pixel = state | 0xff000000u;
  }
  return image;
}

#define PCV_REQUIRE_EGL()                                                            \
  do {                                                                               \
    std::string pcvWhyNoEgl_;                                                        \
    if (!::pcv::test::sharedEglContext(&pcvWhyNoEgl_)) GTEST_SKIP() << pcvWhyNoEgl_; \
  } while (0)

}  // namespace pcv::test
