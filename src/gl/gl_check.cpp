#include "pcv/gl/gl_check.hpp"

#include <cstdio>
#include <string>

namespace pcv {

std::string glErrorName(GLenum code) {
  switch (code) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    case GL_STACK_UNDERFLOW:
      return "GL_STACK_UNDERFLOW";
    case GL_STACK_OVERFLOW:
      return "GL_STACK_OVERFLOW";
    default: {
      char text[32];
      std::snprintf(text, sizeof text, "GL error 0x%04x", unsigned(code));
      return text;
    }
  }
}

void throwGlError(GLenum code, const char* expression, const char* file, int line) {
  // Drain the remaining flags so the next check does not blame an innocent call.
  while (glGetError() != GL_NO_ERROR) {
  }
  throw GlError(std::string(file) + ":" + std::to_string(line) + ": " + expression +
                " failed: " + glErrorName(code));
}

void printGlError(GLenum code, const char* expression, const char* file, int line) noexcept {
  std::fprintf(stderr, "pcv: %s:%d: %s failed: %s\n", file, line, expression,
               glErrorName(code).c_str());
}

}  // namespace pcv
