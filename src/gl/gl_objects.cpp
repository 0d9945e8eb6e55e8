#include "pcv/gl/gl_objects.hpp"

#include "pcv/gl/gl_check.hpp"

namespace pcv {

template <GlObjectKind Kind>
GlObject<Kind> GlObject<Kind>::create() {
  GlObject object;
  if constexpr (Kind == GlObjectKind::Buffer) GL_CHECK(glGenBuffers(1, &object.id_));
  if constexpr (Kind == GlObjectKind::Texture) GL_CHECK(glGenTextures(1, &object.id_));
  if constexpr (Kind == GlObjectKind::Framebuffer) GL_CHECK(glGenFramebuffers(1, &object.id_));
  if constexpr (Kind == GlObjectKind::Query) GL_CHECK(glGenQueries(1, &object.id_));
  if constexpr (Kind == GlObjectKind::VertexArray) GL_CHECK(glGenVertexArrays(1, &object.id_));
  if constexpr (Kind == GlObjectKind::Program) GL_CHECK(object.id_ = glCreateProgram());
  if (object.id_ == 0) throw GlError("glGen* returned no name (is a GL context current?)");
  return object;
}

template <GlObjectKind Kind>
void GlObject<Kind>::reset() noexcept {
  if (id_ == 0) return;
  if constexpr (Kind == GlObjectKind::Buffer) GL_CHECK_PRINT(glDeleteBuffers(1, &id_));
  if constexpr (Kind == GlObjectKind::Texture) GL_CHECK_PRINT(glDeleteTextures(1, &id_));
  if constexpr (Kind == GlObjectKind::Framebuffer) GL_CHECK_PRINT(glDeleteFramebuffers(1, &id_));
  if constexpr (Kind == GlObjectKind::Query) GL_CHECK_PRINT(glDeleteQueries(1, &id_));
  if constexpr (Kind == GlObjectKind::VertexArray) GL_CHECK_PRINT(glDeleteVertexArrays(1, &id_));
  if constexpr (Kind == GlObjectKind::Program) GL_CHECK_PRINT(glDeleteProgram(id_));
  id_ = 0;
}

template class GlObject<GlObjectKind::Buffer>;
template class GlObject<GlObjectKind::Texture>;
template class GlObject<GlObjectKind::Framebuffer>;
template class GlObject<GlObjectKind::Query>;
template class GlObject<GlObjectKind::VertexArray>;
template class GlObject<GlObjectKind::Program>;

}  // namespace pcv
