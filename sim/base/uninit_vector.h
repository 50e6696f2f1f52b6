// A std::vector whose resize() leaves new elements default-initialised, which
// for trivial types means not written at all. For arrays whose every element
// is written before it is read: a sweep's per-variant values (5M variants are
// 240 MB), which zeroed up front held back the first results by seconds of
// page faults; left alone, pages are touched as results arrive.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace ecmpsim {

template <class T>
class DefaultInitAllocator : public std::allocator<T> {
 public:
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace ecmpsim
