#include "pcv/gl/frame_presenter.hpp"

#include <cstdio>
#include <cstring>
#include <optional>

#include "pcv/gl/gl_check.hpp"

#if PCV_WITH_CUDA
#include "pcv/cuda/cuda_check.hpp"
#include "pcv/gl/gl_buffer_in_cuda.hpp"
#include "pcv/gl/gl_texture_in_cuda.hpp"
#endif

namespace pcv {

const char* interopPathName(InteropPath path) {
  switch (path) {
    case InteropPath::Auto:
      return "auto";
    case InteropPath::CudaSurface:
      return "surface";
    case InteropPath::CudaPixelBuffer:
      return "pbo";
    case InteropPath::HostUpload:
      return "host";
    case InteropPath::VulkanMemory:
      return "memory";
  }
  return "?";
}

InteropPath parseInteropPath(const std::string& name) {
  for (InteropPath path : {InteropPath::Auto, InteropPath::CudaSurface,
                           InteropPath::CudaPixelBuffer, InteropPath::HostUpload,
                           InteropPath::VulkanMemory}) {
    if (name == interopPathName(path)) return path;
  }
  throw InputError("unknown interop path '" + name +
                   "': expected auto, surface, pbo, host or memory");
}

#if PCV_WITH_CUDA
struct FramePresenter::CudaResources {
  std::optional<GlBufferInCuda> pixelBuffer;  // CudaPixelBuffer path
  std::optional<GlTextureInCuda> texture;     // CudaSurface path
};
#else
struct FramePresenter::CudaResources {};
#endif

namespace {

/// Mesa's CPU rasterizers: a fragment shader reading texels runs there many times slower than
/// the copy and blit, which they do with memcpy-like loops.
bool glRendersInSoftware() {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  if (!renderer) return false;
  for (const char* name : {"llvmpipe", "softpipe", "swrast"}) {
    if (std::strstr(renderer, name)) return true;
  }
  return false;
}

}  // namespace

FramePresenter::FramePresenter(Renderer& renderer, InteropPath requested,
                               ImportedFrameDrawing drawing)
    : renderer_(renderer), path_(requested), drawing_(drawing) {
  if (drawing_ == ImportedFrameDrawing::Auto) {
    drawing_ = glRendersInSoftware() ? ImportedFrameDrawing::CopiedToTexture
                                     : ImportedFrameDrawing::FromBuffer;
  }
  const bool usesCuda = renderer.cudaStream() != nullptr;
  const bool usesVulkan = renderer.backendName() == "vulkan";
  if (path_ == InteropPath::Auto) {
    path_ = usesCuda     ? InteropPath::CudaSurface
            : usesVulkan ? InteropPath::VulkanMemory
                         : InteropPath::HostUpload;
  } else if (path_ == InteropPath::VulkanMemory && !usesVulkan) {
    fallBack(InteropPath::HostUpload,
             "the " + renderer.backendName() + " backend does not draw with Vulkan");
  } else if (path_ != InteropPath::HostUpload && path_ != InteropPath::VulkanMemory &&
             !usesCuda) {
    fallBack(InteropPath::HostUpload,
             "the " + renderer.backendName() + " backend does not use CUDA");
  }
#if !PCV_WITH_CUDA
  if (path_ != InteropPath::HostUpload) fallBack(InteropPath::HostUpload, "built without CUDA");
#endif
}

FramePresenter::~FramePresenter() {
  // Registrations go before the GL objects they name.
  cuda_.reset();
  bufferBlit_.reset();
  imported_.reset();
  screen_.reset();
}

void FramePresenter::fallBack(InteropPath to, const std::string& why) {
  // Said once per step down; a path never comes back, so resizes do not repeat it.
  std::fprintf(stderr, "pcv: interop path '%s' unavailable (%s); using '%s'\n",
               interopPathName(path_), why.c_str(), interopPathName(to));
  if (fallbackReason_.empty()) fallbackReason_ = why;
  path_ = to;
}

void FramePresenter::resize(int widthPx, int heightPx) {
#if PCV_WITH_CUDA
  if (cuda_) {
    // Unregistering waits for nothing by itself; the stream's last frame may still write.
    CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(renderer_.cudaStream())));
  }
#endif
  cuda_.reset();
  if (imported_) imported_->waitUntilRead();
  imported_.reset();
  screen_.reset();
  screen_ = std::make_unique<ScreenBuffer>(widthPx, heightPx, PixelFormat::RGBA8);
  if (path_ == InteropPath::VulkanMemory) {
    // Exported once per size; where this GL cannot import it, frames come by the host.
    try {
      const uint64_t bytes = uint64_t(widthPx) * uint64_t(heightPx) * 4;
      imported_ = std::make_unique<ImportedFrameMemory>(
          renderer_.exportImageMemory(widthPx, heightPx), bytes);
    } catch (const Error& error) {
      fallBack(InteropPath::HostUpload,
               std::string("GL cannot draw Vulkan's frames: ") + error.what());
    }
  }
  if (imported_ && drawing_ == ImportedFrameDrawing::FromBuffer && !bufferBlit_) {
    try {
      bufferBlit_ = std::make_unique<BufferBlit>();
    } catch (const GlError& error) {
      // The copy to the texture works wherever the import did.
      std::fprintf(stderr, "pcv: frames copied to a texture (%s)\n", error.what());
      drawing_ = ImportedFrameDrawing::CopiedToTexture;
    }
  }
#if PCV_WITH_CUDA
  // Register once per size; a failure (the CUDA device does not drive this GL context, e.g.
  // Mesa) falls back: surface -> PBO -> host upload.
  while (path_ == InteropPath::CudaSurface || path_ == InteropPath::CudaPixelBuffer) {
    try {
      auto resources = std::make_unique<CudaResources>();
      if (path_ == InteropPath::CudaSurface) {
        resources->texture.emplace(screen_->texture());
      } else {
        resources->pixelBuffer.emplace(screen_->pixelBuffer(),
                                       cudaGraphicsRegisterFlagsWriteDiscard);
      }
      cuda_ = std::move(resources);
      break;
    } catch (const CudaError& error) {
      cudaGetLastError();  // clear the last-error slot so later checks start clean
      fallBack(path_ == InteropPath::CudaSurface ? InteropPath::CudaPixelBuffer
                                                 : InteropPath::HostUpload,
               std::string("CUDA cannot register this GL context's objects: ") + error.what());
    }
  }
#endif
}

void FramePresenter::render(const ViewTransform& view, const RenderSettings& settings,
                            SetSelection selection) {
  if (!screen_ || screen_->width() != view.width || screen_->height() != view.height) {
    resize(view.width, view.height);
  }
#if PCV_WITH_CUDA
  const auto stream = static_cast<cudaStream_t>(renderer_.cudaStream());
  if (path_ == InteropPath::CudaSurface) {
    const cudaSurfaceObject_t surface = cuda_->texture->map(stream);
    try {
      renderer_.render(selection, view, settings,
                       RenderTarget{nullptr, view.width, view.height, MemorySpace::CudaSurface,
                                    static_cast<unsigned long long>(surface)});
    } catch (...) {
      cuda_->texture->unmap(stream);
      throw;
    }
    cuda_->texture->unmap(stream);
    return;
  }
  if (path_ == InteropPath::CudaPixelBuffer) {
    cuda_->pixelBuffer->map(stream);
    try {
      const DeviceView<uint32_t> pixels =
          cuda_->pixelBuffer->view<uint32_t>(size_t(view.width) * view.height);
      renderer_.render(selection, view, settings,
                       RenderTarget{pixels.data, view.width, view.height, MemorySpace::Device});
    } catch (...) {
      cuda_->pixelBuffer->unmap(stream);
      throw;
    }
    cuda_->pixelBuffer->unmap(stream);
    screen_->copyPixelBufferToTexture();
    return;
  }
#endif
  if (path_ == InteropPath::VulkanMemory) {
    imported_->waitUntilRead();  // GL's copy of the last frame, before this one overwrites it
    renderer_.render(selection, view, settings,
                     RenderTarget{nullptr, view.width, view.height, MemorySpace::Exported});
    if (!drawsFromBuffer()) {
      screen_->copyBufferToTexture(imported_->buffer());
      imported_->readIssued();
    }
    return;
  }
  if (hostImage_.width != view.width || hostImage_.height != view.height) {
    hostImage_ = Image(view.width, view.height);
  }
  renderer_.render(
      selection, view, settings,
      RenderTarget{hostImage_.pixels.data(), view.width, view.height, MemorySpace::Host});
  screen_->uploadToPixelBuffer(hostImage_.pixels.data());
  screen_->copyPixelBufferToTexture();
}

bool FramePresenter::drawsFromBuffer() const {
  return bufferBlit_ && imported_ && screen_ &&
         int64_t(screen_->width()) * screen_->height() <= bufferBlit_->maxPixels();
}

void FramePresenter::blitTo(GLuint drawFramebuffer, int widthPx, int heightPx) const {
  if (!screen_) return;
  if (drawsFromBuffer()) {
    bufferBlit_->draw(imported_->buffer(), screen_->width(), screen_->height(), drawFramebuffer,
                      widthPx, heightPx);
    imported_->readIssued();
    return;
  }
  screen_->blitTo(drawFramebuffer, widthPx, heightPx);
}

Image FramePresenter::readImage() const {
  if (!screen_) throw Error("FramePresenter::readImage before the first render");
  if (drawsFromBuffer()) {
    // Rows bottom first, as the texture's would be read.
    Image image(screen_->width(), screen_->height());
    GL_CHECK(glBindBuffer(GL_COPY_READ_BUFFER, imported_->buffer()));
    GL_CHECK(glGetBufferSubData(GL_COPY_READ_BUFFER, 0, GLsizeiptr(image.pixels.size() * 4),
                                image.pixels.data()));
    GL_CHECK(glBindBuffer(GL_COPY_READ_BUFFER, 0));
    return image;
  }
  return screen_->readTexture();
}

}  // namespace pcv
