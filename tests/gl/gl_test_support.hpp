/// @brief A headless GL context for GL tests, made once per process; tests skip with the reason
/// when EGL offers none.
#pragma once

#include <memory>
#include <string>

#include "pcv/core/error.hpp"
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

#define PCV_REQUIRE_EGL()                                                            \
  do {                                                                               \
    std::string pcvWhyNoEgl_;                                                        \
    if (!::pcv::test::sharedEglContext(&pcvWhyNoEgl_)) GTEST_SKIP() << pcvWhyNoEgl_; \
  } while (0)

}  // namespace pcv::test
