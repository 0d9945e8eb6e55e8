#include "pcv/gl/imported_frame_memory.hpp"

#include <epoxy/gl.h>
#include <unistd.h>

#include "pcv/core/error.hpp"
#include "pcv/gl/gl_check.hpp"

namespace pcv {

ImportedFrameMemory::ImportedFrameMemory(const ExportedImageMemory& memory, uint64_t bytes) {
  if (!epoxy_has_gl_extension("GL_EXT_memory_object_fd")) {
    ::close(memory.fd);
    throw UnavailableError("this GL imports no memory (GL_EXT_memory_object_fd)");
  }
  try {
    GL_CHECK(glCreateMemoryObjectsEXT(1, &memoryObject_));
    // On success GL owns the descriptor; it is closed by hand only where the import failed.
    glImportMemoryFdEXT(memoryObject_, memory.bytes, GL_HANDLE_TYPE_OPAQUE_FD_EXT, memory.fd);
    if (glGetError() != GL_NO_ERROR) {
      ::close(memory.fd);
      throw GlError("glImportMemoryFdEXT refused the frame's memory");
    }
    buffer_ = GlBuffer::create();
    GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer_.id()));
    GL_CHECK(glBufferStorageMemEXT(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(bytes), memoryObject_, 0));
    GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
  } catch (...) {
    buffer_.reset();
    if (memoryObject_) glDeleteMemoryObjectsEXT(1, &memoryObject_);
    throw;
  }
}

ImportedFrameMemory::~ImportedFrameMemory() {
  if (lastRead_) glDeleteSync(lastRead_);
  buffer_.reset();  // before the memory it lives in
  if (memoryObject_) GL_CHECK_PRINT(glDeleteMemoryObjectsEXT(1, &memoryObject_));
}

void ImportedFrameMemory::readIssued() {
  if (lastRead_) glDeleteSync(lastRead_);
  lastRead_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
}

void ImportedFrameMemory::waitUntilRead() {
  if (!lastRead_) return;
  // GL_SYNC_FLUSH_COMMANDS_BIT: the fence is submitted, so the wait ends.
  while (glClientWaitSync(lastRead_, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000) ==
         GL_TIMEOUT_EXPIRED) {
  }
  glDeleteSync(lastRead_);
  lastRead_ = nullptr;
}

}  // namespace pcv
