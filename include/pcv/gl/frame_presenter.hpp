/// @brief Gets a renderer's image into GL, by the cheapest path this machine allows: CUDA writes
/// the texture through a surface (one CUDA->GL hand-over, no copy), or CUDA writes the PBO which
/// GL copies to the texture (the seed's path), or Vulkan draws into memory GL imported, which GL
/// draws to the window straight from there (or copies to the texture first, on a software GL),
/// or the image comes back to the host and is uploaded through the PBO (CPU backend, or when
/// CUDA cannot register GL objects or GL cannot import Vulkan's memory). Falls back once, and
/// says why.
#pragma once

#include <memory>
#include <string>

#include "pcv/core/image.hpp"
#include "pcv/gl/buffer_blit.hpp"
#include "pcv/gl/imported_frame_memory.hpp"
#include "pcv/gl/screen_buffer.hpp"
#include "pcv/raster/renderer.hpp"

namespace pcv {

enum class InteropPath {
  Auto,             ///< CudaSurface when the backend uses CUDA, else HostUpload
  CudaSurface,      ///< CUDA writes the RGBA8 texture through a surface object
  CudaPixelBuffer,  ///< CUDA writes the PBO, GL copies it to the texture
  HostUpload,       ///< the backend renders to host memory, the CPU fills the PBO
  VulkanMemory,     ///< Vulkan draws into memory GL imported (see ImportedFrameDrawing)
};

/// How a frame in imported memory reaches the window on the VulkanMemory path.
enum class ImportedFrameDrawing {
  Auto,             ///< FromBuffer, except on a software GL (Mesa's llvmpipe): CopiedToTexture
  FromBuffer,       ///< drawn from the buffer by a shader (BufferBlit): no copy
  CopiedToTexture,  ///< copied to the screen buffer's texture, which is blitted
};

const char* interopPathName(InteropPath path);
/// "auto", "surface", "pbo", "host", "memory"; throws InputError listing them otherwise.
InteropPath parseInteropPath(const std::string& name);

class FramePresenter {
 public:
  /// Needs a current GL context, which must outlive the presenter. `renderer` must outlive it too.
  FramePresenter(Renderer& renderer, InteropPath requested = InteropPath::Auto,
                 ImportedFrameDrawing drawing = ImportedFrameDrawing::Auto);
  ~FramePresenter();
  FramePresenter(const FramePresenter&) = delete;
  FramePresenter& operator=(const FramePresenter&) = delete;

  /// Renders the selected sets through `view` into the screen buffer's texture (view.width x
  /// view.height; the buffer and its CUDA registration are rebuilt when the size changes). Map ->
  /// render -> unmap on the renderer's stream; returns without waiting for the GPU.
  void render(const ViewTransform& view, const RenderSettings& settings,
              SetSelection selection = SetSelection::everySet());
  /// Blits the last frame to `drawFramebuffer` (0 = the window) scaled to the given size.
  void blitTo(GLuint drawFramebuffer, int widthPx, int heightPx) const;
  /// The last frame read back from the texture (waits for it).
  Image readImage() const;

  /// The path in use (never Auto).
  InteropPath path() const { return path_; }
  /// Why the requested path was not used; empty when it was.
  const std::string& fallbackReason() const { return fallbackReason_; }
  /// The buffer of the last frame; null before the first render(). Its texture is not drawn
  /// where the frame is drawn from imported memory (drawsFromBuffer()).
  const ScreenBuffer* screenBuffer() const { return screen_.get(); }
  /// True where blitTo() draws the last frame from Vulkan's memory (ImportedFrameDrawing).
  bool drawsFromBuffer() const;

 private:
  void resize(int widthPx, int heightPx);
  void fallBack(InteropPath to, const std::string& why);

  struct CudaResources;  // the registrations; defined only in builds with CUDA
  std::unique_ptr<ImportedFrameMemory> imported_;  // VulkanMemory path
  std::unique_ptr<BufferBlit> bufferBlit_;         // VulkanMemory path: draws the imported frame
  Renderer& renderer_;
  InteropPath path_;
  ImportedFrameDrawing drawing_;  // never Auto
  std::string fallbackReason_;
  std::unique_ptr<ScreenBuffer> screen_;
  std::unique_ptr<CudaResources> cuda_;
  Image hostImage_;  // HostUpload staging
};

}  // namespace pcv
