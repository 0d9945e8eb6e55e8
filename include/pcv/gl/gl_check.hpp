/// @brief Checks for OpenGL calls: GL_CHECK throws GlError with file:line, the failing expression
/// and the GL error's name; GL_CHECK_PRINT logs instead, for destructors.
#pragma once

#include <epoxy/gl.h>

#include "pcv/core/error.hpp"

namespace pcv {

/// An OpenGL call raised an error flag; the message holds the call, the place and the error.
class GlError : public Error {
 public:
  using Error::Error;
};

/// "GL_INVALID_OPERATION" for GL_INVALID_OPERATION; the hexadecimal value for unknown codes.
std::string glErrorName(GLenum code);

[[noreturn]] void throwGlError(GLenum code, const char* expression, const char* file, int line);
void printGlError(GLenum code, const char* expression, const char* file, int line) noexcept;

}  // namespace pcv

// glGetError after the call: errors are sticky flags, so a check blames exactly this call only
// when the flags were clear before it; every GL call in pcv goes through these macros.
#define GL_CHECK(expression)                                                   \
  do {                                                                         \
    expression;                                                                \
    if (const GLenum pcvGlStatus_ = glGetError(); pcvGlStatus_ != GL_NO_ERROR) \
      ::pcv::throwGlError(pcvGlStatus_, #expression, __FILE__, __LINE__);      \
  } while (0)

#define GL_CHECK_PRINT(expression)                                             \
  do {                                                                         \
    expression;                                                                \
    if (const GLenum pcvGlStatus_ = glGetError(); pcvGlStatus_ != GL_NO_ERROR) \
      ::pcv::printGlError(pcvGlStatus_, #expression, __FILE__, __LINE__);      \
  } while (0)
