#include "pcv/cuda/staged_copy.hpp"

#include <algorithm>
#include <utility>

#include "pcv/core/parallel.hpp"

namespace pcv {

PinnedHostBuffer::PinnedHostBuffer(size_t bytes) {
  CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), std::max<size_t>(bytes, 1)));
}

PinnedHostBuffer::~PinnedHostBuffer() {
  if (data_) CUDA_CHECK_PRINT(cudaFreeHost(data_));
}

PinnedHostBuffer::PinnedHostBuffer(PinnedHostBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)) {}

CudaStream::CudaStream() {
  CUDA_CHECK(cudaStreamCreate(&stream_));
}

CudaStream::~CudaStream() {
  if (stream_) CUDA_CHECK_PRINT(cudaStreamDestroy(stream_));
}

StagedCopier::StagedCopier(size_t slotBytes, int slots)
    : slotBytes_(std::max<size_t>(slotBytes, 1)) {
  slots_.reserve(size_t(std::max(slots, 1)));
  for (int s = 0; s < std::max(slots, 1); ++s) {
    slots_.push_back({PinnedHostBuffer(slotBytes_), CudaEvent()});
  }
}

void StagedCopier::toDevice(void* device, const void* host, size_t bytes) {
  auto* to = static_cast<uint8_t*>(device);
  const auto* from = static_cast<const uint8_t*>(host);
  for (size_t at = 0, piece = 0; at < bytes; at += slotBytes_, ++piece) {
    Slot& slot = slots_[piece % slots_.size()];
    const size_t n = std::min(slotBytes_, bytes - at);
    // The slot's last piece has gone up (an event never recorded counts as done).
    CUDA_CHECK(cudaEventSynchronize(slot.moved.get()));
    copyInParallel(slot.pinned.data(), from + at, n);
    CUDA_CHECK(
        cudaMemcpyAsync(to + at, slot.pinned.data(), n, cudaMemcpyHostToDevice, stream_.get()));
    CUDA_CHECK(cudaEventRecord(slot.moved.get(), stream_.get()));
  }
  CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

void StagedCopier::toHost(void* host, const void* device, size_t bytes) {
  auto* to = static_cast<uint8_t*>(host);
  const auto* from = static_cast<const uint8_t*>(device);
  const size_t pieces = (bytes + slotBytes_ - 1) / slotBytes_;
  auto pieceBytes = [&](size_t piece) { return std::min(slotBytes_, bytes - piece * slotBytes_); };
  // Every slot's piece is queued before the first is emptied, and each slot's next piece as soon
  // as it is empty, so that the copy engine is never idle waiting for the cores.
  auto queue = [&](size_t piece) {
    Slot& slot = slots_[piece % slots_.size()];
    CUDA_CHECK(cudaMemcpyAsync(slot.pinned.data(), from + piece * slotBytes_, pieceBytes(piece),
                               cudaMemcpyDeviceToHost, stream_.get()));
    CUDA_CHECK(cudaEventRecord(slot.moved.get(), stream_.get()));
  };
  for (size_t piece = 0; piece < std::min(pieces, slots_.size()); ++piece) queue(piece);
  for (size_t piece = 0; piece < pieces; ++piece) {
    Slot& slot = slots_[piece % slots_.size()];
    CUDA_CHECK(cudaEventSynchronize(slot.moved.get()));
    copyInParallel(to + piece * slotBytes_, slot.pinned.data(), pieceBytes(piece));
    if (piece + slots_.size() < pieces) queue(piece + slots_.size());
  }
}

}  // namespace pcv
