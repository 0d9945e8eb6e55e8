#include "pcv/raster/host_image_pool.hpp"

#include <algorithm>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "pcv/core/error.hpp"
#include "pcv/raster/renderer.hpp"
#include "pinned_host_memory.hpp"

namespace pcv {
namespace {

/// Ordinary blocks are aligned for vector loads and stores of whole cache lines.
constexpr std::align_val_t kOrdinaryAlignment{64};

struct Block {
  void* data = nullptr;
  uint64_t bytes = 0;
  bool pinned = false;
};

}  // namespace

namespace detail {

struct HostImageShelf {
  explicit HostImageShelf(const HostImagePoolLimits& limits) : limits(limits) {}
  ~HostImageShelf() {
    for (const Block& block : kept) freeBlock(block);
  }

  /// A kept block of this size and kind, or one with no data.
  Block take(uint64_t bytes, bool pinned) {
    const std::lock_guard lock(mutex);
    const auto found = std::find_if(kept.begin(), kept.end(), [&](const Block& block) {
      return block.bytes == bytes && block.pinned == pinned;
    });
    if (found == kept.end()) return {};
    const Block block = *found;
    kept.erase(found);
    keptBytes -= block.bytes;
    return block;
  }

  /// Fresh pinned memory when the limit allows and the runtime gives it, else no data.
  Block pin(uint64_t bytes) {
    {
      const std::lock_guard lock(mutex);
      if (pinnedBytes + bytes > limits.pinnedBytes) return {};
      pinnedBytes += bytes;  // counted before pinning, which takes a while: not under the lock
    }
    const Block block{allocatePinnedHost(bytes), bytes, true};
    if (block.data == nullptr) {
      const std::lock_guard lock(mutex);
      pinnedBytes -= bytes;
    }
    return block;
  }

  /// Keeps the block for reuse, making room by freeing the oldest kept ones; frees it instead
  /// when it alone exceeds the limits.
  void giveBack(const Block& block) noexcept {
    std::vector<Block> freed;
    {
      const std::lock_guard lock(mutex);
      if (limits.keptBuffers < 1 || block.bytes > limits.keptBytes) {
        freed.push_back(block);
      } else {
        while (!kept.empty() && (int(kept.size()) >= limits.keptBuffers ||
                                 keptBytes + block.bytes > limits.keptBytes)) {
          freed.push_back(kept.front());
          keptBytes -= kept.front().bytes;
          kept.erase(kept.begin());
        }
        kept.push_back(block);
        keptBytes += block.bytes;
      }
    }
    for (const Block& old : freed) freeBlock(old);  // unpinning takes a while: not under the lock
  }

  void freeBlock(const Block& block) noexcept {
    if (!block.pinned) {
      ::operator delete(block.data, kOrdinaryAlignment);
      return;
    }
    freePinnedHost(block.data);
    const std::lock_guard lock(mutex);
    pinnedBytes -= block.bytes;
  }

  const HostImagePoolLimits limits;
  mutable std::mutex mutex;
  std::vector<Block> kept;  // oldest first
  uint64_t keptBytes = 0;
  uint64_t pinnedBytes = 0;  // live pinned blocks, held or kept
};

}  // namespace detail

HostImageBuffer::~HostImageBuffer() {
  release();
}

HostImageBuffer::HostImageBuffer(HostImageBuffer&& other) noexcept
    : shelf_(std::move(other.shelf_)),
      data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      pinned_(std::exchange(other.pinned_, false)) {}

HostImageBuffer& HostImageBuffer::operator=(HostImageBuffer&& other) noexcept {
  if (this != &other) {
    release();
    shelf_ = std::move(other.shelf_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    pinned_ = std::exchange(other.pinned_, false);
  }
  return *this;
}

void HostImageBuffer::release() noexcept {
  if (data_ != nullptr) shelf_->giveBack({data_, bytes_, pinned_});
  shelf_.reset();
  data_ = nullptr;
  bytes_ = 0;
  pinned_ = false;
}

HostImagePool::HostImagePool(const HostImagePoolLimits& limits)
    : shelf_(std::make_shared<detail::HostImageShelf>(limits)) {}

HostImagePool::~HostImagePool() = default;

HostImageBuffer HostImagePool::acquire(uint64_t pixelCount, bool pinned) {
  if (pixelCount > UINT64_MAX / sizeof(uint32_t)) {
    throw OutOfMemoryError("an image of " + std::to_string(pixelCount) +
                           " pixels does not fit in host memory");
  }
  const uint64_t bytes = std::max<uint64_t>(pixelCount * sizeof(uint32_t), 1);
  Block block;
  if (pinned) block = shelf_->take(bytes, true);
  if (pinned && block.data == nullptr) block = shelf_->pin(bytes);
  if (block.data == nullptr) block = shelf_->take(bytes, false);
  if (block.data == nullptr) {
    try {
      block = {::operator new(bytes, kOrdinaryAlignment), bytes, false};
    } catch (const std::bad_alloc&) {
      throw OutOfMemoryError("an image buffer of " + std::to_string(bytes) +
                             " bytes does not fit in host memory");
    }
  }
  HostImageBuffer buffer;
  buffer.shelf_ = shelf_;
  buffer.data_ = block.data;
  buffer.bytes_ = block.bytes;
  buffer.pinned_ = block.pinned;
  return buffer;
}

HostImageBuffer HostImagePool::acquireFor(const Renderer& renderer, uint64_t pixelCount) {
  // Only backends that draw with CUDA read back through the copy engine.
  return acquire(pixelCount, renderer.cudaStream() != nullptr);
}

int HostImagePool::keptBuffers() const {
  const std::lock_guard lock(shelf_->mutex);
  return int(shelf_->kept.size());
}

uint64_t HostImagePool::pinnedBytes() const {
  const std::lock_guard lock(shelf_->mutex);
  return shelf_->pinnedBytes;
}

}  // namespace pcv
