#include "pcv/gl/screen_buffer.hpp"

#include <string>

#include "pcv/core/image_size.hpp"
#include "pcv/gl/gl_check.hpp"

namespace pcv {
namespace {

struct GlPixelFormat {
  GLenum internalFormat;  // texture storage
  GLenum format;          // channels of the client/PBO data
  GLenum type;            // component type of the client/PBO data
};

GlPixelFormat glFormatOf(PixelFormat format) {
  switch (format) {
    case PixelFormat::RGB8:
      return {GL_RGB8, GL_RGB, GL_UNSIGNED_BYTE};
    case PixelFormat::RGBA8:
      return {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE};
    case PixelFormat::RGB32F:
      return {GL_RGB32F, GL_RGB, GL_FLOAT};
    case PixelFormat::RGBA32F:
      return {GL_RGBA32F, GL_RGBA, GL_FLOAT};
  }
  throw InputError("unknown pixel format");
}

/// Restores a pixel-store alignment on scope exit: RGB8 rows are not 4-byte aligned, and the
/// GUI code that shares the context expects the default back.
class ScopedAlignment {
 public:
  ScopedAlignment(GLenum parameter, GLint value) : parameter_(parameter) {
    glGetIntegerv(parameter, &saved_);
    glPixelStorei(parameter, value);
  }
  ~ScopedAlignment() { glPixelStorei(parameter_, saved_); }

 private:
  GLenum parameter_;
  GLint saved_ = 4;
};

}  // namespace

size_t bytesPerPixel(PixelFormat format) {
  switch (format) {
    case PixelFormat::RGB8:
      return 3;
    case PixelFormat::RGBA8:
      return 4;
    case PixelFormat::RGB32F:
      return 12;
    case PixelFormat::RGBA32F:
      return 16;
  }
  return 0;
}

const char* pixelFormatName(PixelFormat format) {
  switch (format) {
    case PixelFormat::RGB8:
      return "RGB8";
    case PixelFormat::RGBA8:
      return "RGBA8";
    case PixelFormat::RGB32F:
      return "RGB32F";
    case PixelFormat::RGBA32F:
      return "RGBA32F";
  }
  return "?";
}

ScreenBuffer::ScreenBuffer(int widthPx, int heightPx, PixelFormat format)
    : width_(widthPx), height_(heightPx), format_(format) {
  checkImageSize({widthPx, heightPx});
  const GlPixelFormat gl = glFormatOf(format);
  pixelBuffer_ = GlBuffer::create();
  GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixelBuffer_.id()));
  // Mutable storage (GL 3.3): recreated on resize anyway, and CUDA registers either kind.
  GL_CHECK(glBufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(byteSize()), nullptr, GL_STREAM_DRAW));
  GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));

  texture_ = GlTexture::create();
  GL_CHECK(glBindTexture(GL_TEXTURE_2D, texture_.id()));
  GL_CHECK(glTexImage2D(GL_TEXTURE_2D, 0, GLint(gl.internalFormat), width_, height_, 0, gl.format,
                        gl.type, nullptr));
  // One level, no filtering between levels: the texture is complete without mipmaps.
  GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
  GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
  GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0));
  GL_CHECK(glBindTexture(GL_TEXTURE_2D, 0));

  framebuffer_ = GlFramebuffer::create();
  GLint previousRead = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previousRead);
  GL_CHECK(glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_.id()));
  GL_CHECK(glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                                  texture_.id(), 0));
  const GLenum status = glCheckFramebufferStatus(GL_READ_FRAMEBUFFER);
  GL_CHECK(glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(previousRead)));
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    throw GlError(std::string("screen buffer framebuffer incomplete for ") +
                  pixelFormatName(format) + " (status " + std::to_string(status) + ")");
  }
}

void ScreenBuffer::uploadToPixelBuffer(const void* pixels) {
  GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixelBuffer_.id()));
  // Orphan then fill: the driver need not wait for last frame's copy out of the old storage.
  GL_CHECK(glBufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(byteSize()), nullptr, GL_STREAM_DRAW));
  GL_CHECK(glBufferSubData(GL_PIXEL_UNPACK_BUFFER, 0, GLsizeiptr(byteSize()), pixels));
  GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
}

void ScreenBuffer::copyPixelBufferToTexture() {
  copyBufferToTexture(pixelBuffer_.id());
}

void ScreenBuffer::copyBufferToTexture(GLuint pixelBuffer) {
  const GlPixelFormat gl = glFormatOf(format_);
  ScopedAlignment alignment(GL_UNPACK_ALIGNMENT, 1);
  GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixelBuffer));
  GL_CHECK(glBindTexture(GL_TEXTURE_2D, texture_.id()));
  GL_CHECK(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, gl.format, gl.type, nullptr));
  GL_CHECK(glBindTexture(GL_TEXTURE_2D, 0));
  GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
}

void ScreenBuffer::blitTo(GLuint drawFramebuffer, int dstWidthPx, int dstHeightPx) const {
  GLint previousRead = 0, previousDraw = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previousRead);
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previousDraw);
  GL_CHECK(glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_.id()));
  GL_CHECK(glBindFramebuffer(GL_DRAW_FRAMEBUFFER, drawFramebuffer));
  // Same size: nearest is exact; scaled: linear, as the seed does.
  const GLenum filter = dstWidthPx == width_ && dstHeightPx == height_ ? GL_NEAREST : GL_LINEAR;
  GL_CHECK(glBlitFramebuffer(0, 0, width_, height_, 0, 0, dstWidthPx, dstHeightPx,
                             GL_COLOR_BUFFER_BIT, filter));
  GL_CHECK(glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(previousRead)));
  GL_CHECK(glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(previousDraw)));
}

Image ScreenBuffer::readTexture() const {
  return readFramebuffer(framebuffer_.id(), width_, height_);
}

Image readFramebuffer(GLuint framebuffer, int widthPx, int heightPx) {
  Image image(widthPx, heightPx);
  GLint previousRead = 0, previousPack = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previousRead);
  glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &previousPack);
  ScopedAlignment alignment(GL_PACK_ALIGNMENT, 4);
  GL_CHECK(glBindBuffer(GL_PIXEL_PACK_BUFFER, 0));
  GL_CHECK(glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer));
  if (framebuffer == 0) {
    GL_CHECK(glReadBuffer(GL_BACK));
  } else {
    GL_CHECK(glReadBuffer(GL_COLOR_ATTACHMENT0));
  }
  GL_CHECK(glReadPixels(0, 0, widthPx, heightPx, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data()));
  GL_CHECK(glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(previousRead)));
  GL_CHECK(glBindBuffer(GL_PIXEL_PACK_BUFFER, GLuint(previousPack)));
  return image;
}

}  // namespace pcv
