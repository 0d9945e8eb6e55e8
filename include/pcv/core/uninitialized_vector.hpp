/// @brief A std::vector whose resize() leaves trivial elements uninitialised, for outputs that a
/// parallel pass fills completely: value-initialising 20 M points zero-fills 320 MB on one thread
/// and takes every first-touch page fault there, before the parallel decode even starts. Large
/// blocks are mapped asking for transparent huge pages, so first touch faults 2 MiB at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace pcv {

namespace detail {
/// Blocks from this size up are mapped directly (anonymous, huge pages advised).
constexpr size_t kLargeBlockBytes = size_t(4) << 20;
/// Maps `bytes` (>= kLargeBlockBytes) of fresh zero pages; throws std::bad_alloc.
void* mapLargeBlock(size_t bytes);
/// Unmaps a block from mapLargeBlock with the same `bytes`.
void unmapLargeBlock(void* block, size_t bytes) noexcept;
}  // namespace detail

/// std::allocator, except that construct() without arguments default-initialises: for trivial
/// types that writes nothing, so pages are first touched by whichever thread fills them.
template <typename T>
class DefaultInitAllocator : public std::allocator<T> {
 public:
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  using std::allocator<T>::allocator;
  DefaultInitAllocator() noexcept = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  T* allocate(size_t count) {
    if (count > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    const size_t bytes = count * sizeof(T);
    if (bytes < detail::kLargeBlockBytes) return std::allocator<T>::allocate(count);
    return static_cast<T*>(detail::mapLargeBlock(bytes));
  }
  void deallocate(T* block, size_t count) noexcept {
    const size_t bytes = count * sizeof(T);
    if (bytes < detail::kLargeBlockBytes) return std::allocator<T>::deallocate(block, count);
    detail::unmapLargeBlock(block, bytes);
  }

  template <typename U>
  void construct(U* where) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(where)) U;
  }
  template <typename U, typename... Args>
  void construct(U* where, Args&&... args) {
    ::new (static_cast<void*>(where)) U(std::forward<Args>(args)...);
  }
};

/// resize() grows it without writing the new elements; everything else is std::vector.
template <typename T>
using UninitializedVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace pcv
