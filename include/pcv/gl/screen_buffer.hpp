/// @brief The seed's screen buffer: a pixel buffer object that CUDA (or the CPU) fills, copied to
/// a texture attached to a framebuffer, blitted to the window with scaling. The texture can also
/// be written by CUDA directly (see GlTextureInCuda), which skips the PBO copy.
#pragma once

#include <cstddef>

#include "pcv/core/image.hpp"
#include "pcv/gl/gl_objects.hpp"

namespace pcv {

enum class PixelFormat { RGB8, RGBA8, RGB32F, RGBA32F };

/// Bytes of one pixel (3, 4, 12, 16).
size_t bytesPerPixel(PixelFormat format);
const char* pixelFormatName(PixelFormat format);

class ScreenBuffer {
 public:
  /// Allocates the PBO, the texture and its framebuffer; needs a current GL context. Throws
  /// GlError, or InputError for a size outside 1..kMaxImageSidePx (image_size.hpp).
  ScreenBuffer(int widthPx, int heightPx, PixelFormat format = PixelFormat::RGBA8);

  int width() const { return width_; }
  int height() const { return height_; }
  PixelFormat format() const { return format_; }
  /// Bytes of the whole image (= of the PBO); rows are tightly packed, row 0 at the bottom.
  size_t byteSize() const { return size_t(width_) * height_ * bytesPerPixel(format_); }

  GLuint pixelBuffer() const { return pixelBuffer_.id(); }
  GLuint texture() const { return texture_.id(); }
  GLuint framebuffer() const { return framebuffer_.id(); }

  /// Copies byteSize() bytes of host pixels into the PBO (the CPU path's upload).
  void uploadToPixelBuffer(const void* pixels);
  /// PBO -> texture (glTexSubImage2D from the bound unpack buffer); no CPU copy.
  void copyPixelBufferToTexture();
  /// The same from another pixel buffer of at least byteSize() bytes (an imported frame).
  void copyBufferToTexture(GLuint pixelBuffer);
  /// Texture -> `drawFramebuffer` (0 = the window), scaled to dstWidth x dstHeight, linear.
  void blitTo(GLuint drawFramebuffer, int dstWidthPx, int dstHeightPx) const;
  /// Reads the texture back as RGBA8 (float formats are clamped and rounded by GL).
  Image readTexture() const;

 private:
  int width_;
  int height_;
  PixelFormat format_;
  GlBuffer pixelBuffer_;
  GlTexture texture_;
  GlFramebuffer framebuffer_;
};

/// Reads `framebuffer`'s colour attachment 0 (or the window's back buffer for 0) as RGBA8.
Image readFramebuffer(GLuint framebuffer, int widthPx, int heightPx);

}  // namespace pcv
