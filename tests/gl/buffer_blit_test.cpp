// BufferBlit against GL's own blit: the frame drawn straight from a buffer is the frame the
// texture's blit shows, exactly at the same size and within a step of rounding scaled; and the
// GL state it borrows is given back.
#include <algorithm>
#include <cstdlib>

#include "gl_test_support.hpp"
#include "pcv/gl/buffer_blit.hpp"
#include "pcv/gl/gl_check.hpp"
#include "pcv/gl/screen_buffer.hpp"

namespace pcv {
namespace {

/// The largest difference of one channel between two images of one size.
int largestChannelDifference(const Image& a, const Image& b) {
  int largest = 0;
  for (size_t i = 0; i < a.pixels.size(); ++i) {
    for (int shift = 0; shift < 32; shift += 8) {
      const int difference =
          std::abs(int((a.pixels[i] >> shift) & 0xffu) - int((b.pixels[i] >> shift) & 0xffu));
      largest = std::max(largest, difference);
    }
  }
  return largest;
}

/// `image` in a GL buffer, rows as they are (row 0 drawn at the bottom).
GlBuffer bufferOf(const Image& image) {
  GlBuffer buffer = GlBuffer::create();
  GL_CHECK(glBindBuffer(GL_COPY_WRITE_BUFFER, buffer.id()));
  GL_CHECK(glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(image.pixels.size() * 4),
                        image.pixels.data(), GL_STATIC_DRAW));
  GL_CHECK(glBindBuffer(GL_COPY_WRITE_BUFFER, 0));
  return buffer;
}

TEST(BufferBlit, SameSizeShowsEveryPixelAsItIs) {
  PCV_REQUIRE_EGL();
  const Image frame = test::randomImage(37, 23, 7);  // odd sizes: rows must not be padded
  const GlBuffer pixels = bufferOf(frame);
  ScreenBuffer target(37, 23);
  BufferBlit blit;
  blit.draw(pixels.id(), 37, 23, target.framebuffer(), 37, 23);
  EXPECT_EQ(test::countDifferentPixels(target.readTexture(), frame), 0u);
}

TEST(BufferBlit, ScaledAsGlBlitsTheSameFrameFromATexture) {
  PCV_REQUIRE_EGL();
  const Image frame = test::randomImage(64, 40, 3);
  const GlBuffer pixels = bufferOf(frame);
  ScreenBuffer source(64, 40);
  source.uploadToPixelBuffer(frame.pixels.data());
  source.copyPixelBufferToTexture();
  BufferBlit blit;
  for (const auto& [width, height] : {std::pair{128, 80}, std::pair{100, 51}, std::pair{31, 17}}) {
    SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height));
    ScreenBuffer fromBuffer(width, height), fromTexture(width, height);
    blit.draw(pixels.id(), 64, 40, fromBuffer.framebuffer(), width, height);
    source.blitTo(fromTexture.framebuffer(), width, height);
    // GL's linear filter weighs with fewer bits than a shader's floats (8 on NVIDIA, whose
    // blit differs by two steps at most; Mesa's by one).
    EXPECT_LE(largestChannelDifference(fromBuffer.readTexture(), fromTexture.readTexture()), 2);
  }
}

TEST(BufferBlit, GivesBackTheStateItBorrows) {
  PCV_REQUIRE_EGL();
  const Image frame = test::randomImage(16, 8, 5);
  const GlBuffer pixels = bufferOf(frame);
  ScreenBuffer target(16, 8), other(4, 4);
  BufferBlit blit;
  GL_CHECK(glBindFramebuffer(GL_DRAW_FRAMEBUFFER, other.framebuffer()));
  GL_CHECK(glViewport(1, 2, 3, 4));
  GL_CHECK(glEnable(GL_BLEND));
  GL_CHECK(glEnable(GL_SCISSOR_TEST));
  GL_CHECK(glScissor(0, 0, 1, 1));
  blit.draw(pixels.id(), 16, 8, target.framebuffer(), 16, 8);
  // Blending and the scissor were off for the draw: every pixel came, unblended.
  EXPECT_EQ(test::countDifferentPixels(target.readTexture(), frame), 0u);
  GLint framebuffer = 0, viewport[4] = {}, program = -1;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
  glGetIntegerv(GL_VIEWPORT, viewport);
  glGetIntegerv(GL_CURRENT_PROGRAM, &program);
  EXPECT_EQ(GLuint(framebuffer), other.framebuffer());
  EXPECT_EQ(viewport[0], 1);
  EXPECT_EQ(viewport[1], 2);
  EXPECT_EQ(viewport[2], 3);
  EXPECT_EQ(viewport[3], 4);
  EXPECT_EQ(program, 0);
  EXPECT_TRUE(glIsEnabled(GL_BLEND));
  EXPECT_TRUE(glIsEnabled(GL_SCISSOR_TEST));
  GL_CHECK(glDisable(GL_BLEND));
  GL_CHECK(glDisable(GL_SCISSOR_TEST));
  GL_CHECK(glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0));
}

TEST(BufferBlit, RefusesAFrameLargerThanTheBuffersGlCanRead) {
  PCV_REQUIRE_EGL();
  BufferBlit blit;
  ASSERT_GT(blit.maxPixels(), 0);
  const GlBuffer pixels = bufferOf(test::randomImage(4, 4, 1));
  ScreenBuffer target(4, 4);
  EXPECT_THROW(blit.draw(pixels.id(), int(blit.maxPixels()), 2, target.framebuffer(), 4, 4),
               GlError);
}

}  // namespace
}  // namespace pcv
