/// @brief Move-only owners of OpenGL object names (buffers, textures, framebuffers, queries,
/// vertex arrays, programs):
/// created with a current context, deleted in a noexcept destructor that logs GL errors. The
/// context must outlive them.
#pragma once

#include <epoxy/gl.h>

#include <utility>

namespace pcv {

enum class GlObjectKind { Buffer, Texture, Framebuffer, Query, VertexArray, Program };

template <GlObjectKind Kind>
class GlObject {
 public:
  /// An empty handle (name 0); create() makes a real one.
  GlObject() = default;
  /// Generates a name with glGen* (glCreateProgram); throws GlError on failure.
  static GlObject create();

  ~GlObject() { reset(); }
  GlObject(GlObject&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  GlObject& operator=(GlObject&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, 0);
    }
    return *this;
  }
  GlObject(const GlObject&) = delete;
  GlObject& operator=(const GlObject&) = delete;

  GLuint id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
  /// Deletes the object now (no-op when empty).
  void reset() noexcept;

 private:
  GLuint id_ = 0;
};

using GlBuffer = GlObject<GlObjectKind::Buffer>;
using GlTexture = GlObject<GlObjectKind::Texture>;
using GlFramebuffer = GlObject<GlObjectKind::Framebuffer>;
using GlQuery = GlObject<GlObjectKind::Query>;
using GlVertexArray = GlObject<GlObjectKind::VertexArray>;
using GlProgram = GlObject<GlObjectKind::Program>;

}  // namespace pcv
