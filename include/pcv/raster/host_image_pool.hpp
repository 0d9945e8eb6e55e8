/// @brief Host memory that a renderer's images are read back into and that the caller then owns
/// (a NumPy array, say): page-locked where the renderer draws with CUDA, so that the copy engine
/// writes it at link speed with no staging through the driver's own buffers, and ordinary memory
/// elsewhere. Pinning memory takes milliseconds, so a small bounded pool keeps given-back
/// buffers for the next image.
#pragma once

#include <cstdint>
#include <memory>

namespace pcv {

class Renderer;

namespace detail {
struct HostImageShelf;  // the pool's kept buffers, shared with the buffers it handed out
}  // namespace detail

/// Move-only: room for an image's RGBA8 pixels (contents undefined until drawn), given back to
/// the pool it came from when destroyed, or freed when the pool keeps enough already. May
/// outlive its pool.
class HostImageBuffer {
 public:
  HostImageBuffer() = default;
  ~HostImageBuffer();
  HostImageBuffer(HostImageBuffer&& other) noexcept;
  HostImageBuffer& operator=(HostImageBuffer&& other) noexcept;
  HostImageBuffer(const HostImageBuffer&) = delete;
  HostImageBuffer& operator=(const HostImageBuffer&) = delete;

  uint32_t* pixels() const { return static_cast<uint32_t*>(data_); }
  uint64_t pixelCount() const { return bytes_ / sizeof(uint32_t); }
  /// Page-locked memory (the CUDA runtime's), or ordinary memory.
  bool pinned() const { return pinned_; }

 private:
  friend class HostImagePool;
  void release() noexcept;

  std::shared_ptr<detail::HostImageShelf> shelf_;
  void* data_ = nullptr;
  uint64_t bytes_ = 0;
  bool pinned_ = false;
};

struct HostImagePoolLimits {
  int keptBuffers = 4;                       ///< given-back buffers kept for reuse, at most
  uint64_t keptBytes = uint64_t(256) << 20;  ///< bytes of them kept, at most
  /// Bytes of pinned memory live at once (held by callers or kept), at most: beyond, buffers
  /// are ordinary memory, so that a caller holding many images does not lock the system's RAM.
  uint64_t pinnedBytes = uint64_t(1) << 30;
};

/// Thread-safe. How many buffers callers hold is theirs to decide; the pool bounds those it
/// keeps and how much memory is pinned.
class HostImagePool {
 public:
  explicit HostImagePool(const HostImagePoolLimits& limits = {});
  ~HostImagePool();
  HostImagePool(const HostImagePool&) = delete;
  HostImagePool& operator=(const HostImagePool&) = delete;

  /// Room for `pixelCount` pixels (count of pixels, not bytes), pinned when asked, this build
  /// and machine can pin memory and the limit allows (ordinary memory otherwise): a kept buffer
  /// of that size and kind when there is one. Throws OutOfMemoryError when the memory cannot be
  /// had.
  HostImageBuffer acquire(uint64_t pixelCount, bool pinned);
  /// Room for an image `renderer` reads back: pinned when it draws with CUDA.
  HostImageBuffer acquireFor(const Renderer& renderer, uint64_t pixelCount);
  /// Buffers kept for reuse now.
  int keptBuffers() const;
  /// Bytes of pinned memory live now, held by callers or kept.
  uint64_t pinnedBytes() const;

 private:
  std::shared_ptr<detail::HostImageShelf> shelf_;
};

}  // namespace pcv
