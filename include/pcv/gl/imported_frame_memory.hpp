/// @brief Frames a renderer draws into memory it exported (the Vulkan backend), imported into GL
/// as a pixel buffer (GL_EXT_memory_object_fd): the frame reaches the window's texture by a copy
/// on the GPU, with no trip through host memory. RAII over the memory object and the buffer.
#pragma once

#include <epoxy/gl.h>

#include <cstdint>

#include "pcv/gl/gl_objects.hpp"
#include "pcv/raster/renderer.hpp"

namespace pcv {

class ImportedFrameMemory {
 public:
  /// Imports `memory` (taking its file descriptor, closed on failure too) as a buffer of `bytes`.
  /// Throws UnavailableError where this GL cannot import (no GL_EXT_memory_object_fd) and
  /// GlError where the import fails.
  ImportedFrameMemory(const ExportedImageMemory& memory, uint64_t bytes);
  ~ImportedFrameMemory();
  ImportedFrameMemory(const ImportedFrameMemory&) = delete;
  ImportedFrameMemory& operator=(const ImportedFrameMemory&) = delete;

  GLuint buffer() const { return buffer_.id(); }
  /// Called after GL commands that read the buffer: the next frame's writes wait for them.
  void readIssued();
  /// Waits until GL has read the last frame, so the renderer may draw the next one there.
  void waitUntilRead();

 private:
  GLuint memoryObject_ = 0;
  GlBuffer buffer_;
  GLsync lastRead_ = nullptr;
};

}  // namespace pcv
