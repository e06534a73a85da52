// A ring buffer in the style of libstdc++'s headers -*- C++ -*-
/** @file libstdcxx.h
 *  A header of the corpus, checked by g++ -fsyntax-only.
 */
#ifndef _DEMO_RING_H
#define _DEMO_RING_H 1
#pragma GCC system_header
#include <bits/c++config.h>
#include <bits/exception_defines.h>
#include <cstddef>
#if __cplusplus >= 201103L
#include <utility>
#endif
namespace demo _GLIBCXX_VISIBILITY(default)
{
_GLIBCXX_BEGIN_NAMESPACE_VERSION
  /** @brief A fixed-size ring of elements. */
  template<typename _Tp, std::size_t _Nm>
    class ring
    {
    public:
      typedef _Tp			value_type;
      typedef std::size_t		size_type;
      /// Creates an empty ring.
      _GLIBCXX20_CONSTEXPR
      ring() _GLIBCXX_NOEXCEPT
      : _M_head(0), _M_size(0)
      { }
      /** @brief The number of elements. */
      _GLIBCXX_NODISCARD size_type
      size() const _GLIBCXX_NOEXCEPT;
      /** @brief Adds an element, overwriting the oldest when full. */
      void
      push(const value_type& __x);
#if __cplusplus >= 201103L
      /// Constructs an element in place.
      template<typename... _Args>
	void
	emplace(_Args&&... __args);
#endif
      /// The oldest element; the ring must not be empty.
      const value_type&
      front() const;
    private:
      value_type	_M_slots[_Nm];
      size_type		_M_head;
      size_type		_M_size;
    };
  /** @brief Copies the ring's elements to an output iterator. */
  template<typename _Tp, std::size_t _Nm, typename _OutputIterator>
    _OutputIterator
    copy_out(const ring<_Tp, _Nm>& __r, _OutputIterator __out);
#if __cplusplus >= 201103L
_GLIBCXX_END_NAMESPACE_VERSION
}
#include <type_traits>
namespace demo _GLIBCXX_VISIBILITY(default)
{
_GLIBCXX_BEGIN_NAMESPACE_VERSION
  /// Whether a ring of this element type can be copied without throwing.
  template<typename _Tp>
    struct is_nothrow_ring_copyable
    : std::is_nothrow_copy_constructible<_Tp>
    { };
#endif
  /// Swaps two rings, element by element.
  template<typename _Tp, std::size_t _Nm>
    inline void
    swap(ring<_Tp, _Nm>& __a, ring<_Tp, _Nm>& __b)
#if __cplusplus >= 201103L
    noexcept(std::is_nothrow_move_constructible<_Tp>::value)
#endif
    { /* ... */ }
_GLIBCXX_END_NAMESPACE_VERSION
}
#endif
