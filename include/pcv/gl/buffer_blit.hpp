/// @brief Draws a frame held in a GL buffer (RGBA8, rows tightly packed, row 0 at the bottom)
/// into a framebuffer, scaled as glBlitFramebuffer scales a texture: nearest at the same size,
/// linear otherwise. For frames that live in a buffer no texture can be made of (memory imported
/// from Vulkan): drawn straight from it, the frame needs no copy into a texture first.
#pragma once

#include <epoxy/gl.h>

#include "pcv/gl/gl_objects.hpp"

namespace pcv {

class BufferBlit {
 public:
  /// Compiles the program; needs a current GL 3.3 context. Throws GlError where it fails.
  BufferBlit();
  BufferBlit(const BufferBlit&) = delete;
  BufferBlit& operator=(const BufferBlit&) = delete;

  /// The most pixels a frame may have (the GL's texture-buffer limit).
  long long maxPixels() const { return maxPixels_; }

  /// Draws the `widthPx` x `heightPx` frame in `pixels` over all of `drawFramebuffer` (0 = the
  /// window), `dstWidthPx` x `dstHeightPx`. The GL state it changes is restored.
  void draw(GLuint pixels, int widthPx, int heightPx, GLuint drawFramebuffer, int dstWidthPx,
            int dstHeightPx) const;

 private:
  GlProgram program_;
  GlVertexArray vertices_;  // none are read; core profiles draw only with one bound
  GlTexture view_;          // the buffer seen as texels
  GLint sourceSize_ = -1, sourcePerTarget_ = -1, linear_ = -1;
  long long maxPixels_ = 0;
};

}  // namespace pcv
