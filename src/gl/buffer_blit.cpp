#include "pcv/gl/buffer_blit.hpp"

#include <string>
#include <utility>

#include "pcv/gl/gl_check.hpp"

namespace pcv {
namespace {

// One triangle over the whole target; the fragments find their pixels by gl_FragCoord.
constexpr const char* kVertexShader = R"(#version 330 core
void main() {
  const vec2 corners[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
  gl_Position = vec4(corners[gl_VertexID], 0.0, 1.0);
}
)";

// glBlitFramebuffer's sampling: the target pixel's centre mapped into the source; at the same
// size the texel itself (exact), scaled the four around it weighted, edges clamped.
constexpr const char* kFragmentShader = R"(#version 330 core
uniform samplerBuffer pixels;
uniform ivec2 sourceSize;
uniform vec2 sourcePerTarget;
uniform bool linear;
out vec4 color;
vec4 texel(ivec2 at) {
  at = clamp(at, ivec2(0), sourceSize - 1);
  return texelFetch(pixels, at.y * sourceSize.x + at.x);
}
void main() {
  vec2 source = gl_FragCoord.xy * sourcePerTarget;
  if (!linear) {
    color = texel(ivec2(source));
    return;
  }
  source -= 0.5;
  ivec2 low = ivec2(floor(source));
  vec2 weight = source - floor(source);
  color = mix(mix(texel(low), texel(low + ivec2(1, 0)), weight.x),
              mix(texel(low + ivec2(0, 1)), texel(low + ivec2(1, 1)), weight.x), weight.y);
}
)";

GLuint compile(GLenum stage, const char* source) {
  const GLuint shader = glCreateShader(stage);
  if (shader == 0) throw GlError("glCreateShader returned no name");
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint compiled = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
  if (compiled != GL_TRUE) {
    char log[1024] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    throw GlError(std::string("the buffer blit's shader does not compile: ") + log);
  }
  return shader;
}

/// Restores on scope exit what draw() changes of the GL's state.
class SavedDrawState {
 public:
  SavedDrawState() {
    glGetIntegerv(GL_CURRENT_PROGRAM, &program_);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vertexArray_);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer_);
    glGetIntegerv(GL_VIEWPORT, viewport_);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &activeTexture_);
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(GL_TEXTURE_BINDING_BUFFER, &texture_);
    for (int i = 0; i < kCapabilities; ++i) enabled_[i] = glIsEnabled(kCapability[i]);
  }
  ~SavedDrawState() {
    for (int i = 0; i < kCapabilities; ++i) {
      if (enabled_[i]) glEnable(kCapability[i]);
    }
    glBindTexture(GL_TEXTURE_BUFFER, GLuint(texture_));
    glActiveTexture(GLenum(activeTexture_));
    glViewport(viewport_[0], viewport_[1], viewport_[2], viewport_[3]);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(framebuffer_));
    glBindVertexArray(GLuint(vertexArray_));
    glUseProgram(GLuint(program_));
  }
  SavedDrawState(const SavedDrawState&) = delete;
  SavedDrawState& operator=(const SavedDrawState&) = delete;

  /// What would change the drawn pixels: switched off for the draw.
  static void disableAll() {
    for (int i = 0; i < kCapabilities; ++i) glDisable(kCapability[i]);
  }

 private:
  static constexpr int kCapabilities = 5;
  static constexpr GLenum kCapability[kCapabilities] = {GL_BLEND, GL_DEPTH_TEST, GL_SCISSOR_TEST,
                                                        GL_CULL_FACE, GL_STENCIL_TEST};
  GLint program_ = 0, vertexArray_ = 0, framebuffer_ = 0, activeTexture_ = 0, texture_ = 0;
  GLint viewport_[4] = {};
  GLboolean enabled_[kCapabilities] = {};
};

}  // namespace

BufferBlit::BufferBlit()
    : program_(GlProgram::create()),
      vertices_(GlVertexArray::create()),
      view_(GlTexture::create()) {
  GLint maxTexels = 0;
  GL_CHECK(glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &maxTexels));
  maxPixels_ = maxTexels;
  for (const auto& [stage, source] : {std::pair{GL_VERTEX_SHADER, kVertexShader},
                                      std::pair{GL_FRAGMENT_SHADER, kFragmentShader}}) {
    const GLuint shader = compile(stage, source);
    glAttachShader(program_.id(), shader);
    glDeleteShader(shader);  // the program keeps it while it is attached
  }
  glLinkProgram(program_.id());
  GLint linked = GL_FALSE;
  glGetProgramiv(program_.id(), GL_LINK_STATUS, &linked);
  if (linked != GL_TRUE) throw GlError("the buffer blit's program does not link");
  sourceSize_ = glGetUniformLocation(program_.id(), "sourceSize");
  sourcePerTarget_ = glGetUniformLocation(program_.id(), "sourcePerTarget");
  linear_ = glGetUniformLocation(program_.id(), "linear");
}

void BufferBlit::draw(GLuint pixels, int widthPx, int heightPx, GLuint drawFramebuffer,
                      int dstWidthPx, int dstHeightPx) const {
  if (static_cast<long long>(widthPx) * heightPx > maxPixels_) {
    throw GlError("a frame of " + std::to_string(widthPx) + "x" + std::to_string(heightPx) +
                  " is more than this GL's texture buffers hold (" + std::to_string(maxPixels_) +
                  " pixels)");
  }
  SavedDrawState saved;
  SavedDrawState::disableAll();
  GL_CHECK(glBindTexture(GL_TEXTURE_BUFFER, view_.id()));
  GL_CHECK(glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA8, pixels));
  GL_CHECK(glUseProgram(program_.id()));
  GL_CHECK(glUniform2i(sourceSize_, widthPx, heightPx));
  GL_CHECK(glUniform2f(sourcePerTarget_, float(widthPx) / float(dstWidthPx),
                       float(heightPx) / float(dstHeightPx)));
  GL_CHECK(glUniform1i(linear_, dstWidthPx == widthPx && dstHeightPx == heightPx ? 0 : 1));
  GL_CHECK(glBindVertexArray(vertices_.id()));
  GL_CHECK(glBindFramebuffer(GL_DRAW_FRAMEBUFFER, drawFramebuffer));
  GL_CHECK(glViewport(0, 0, dstWidthPx, dstHeightPx));
  GL_CHECK(glDrawArrays(GL_TRIANGLES, 0, 3));
  // Detached, so that the buffer (and the memory it was imported from) can go whenever its
  // owner lets it, without this texture still naming it.
  GL_CHECK(glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA8, 0));
}

}  // namespace pcv
