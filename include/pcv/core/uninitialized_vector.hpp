/// @brief A std::vector whose resize() leaves trivial elements uninitialised, for outputs that a
/// parallel pass fills completely: value-initialising 20 M points zero-fills 320 MB on one thread
/// and takes every first-touch page fault there, before the parallel decode even starts.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace pcv {

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
