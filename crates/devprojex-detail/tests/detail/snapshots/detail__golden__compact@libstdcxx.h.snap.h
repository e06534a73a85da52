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
  /**
   *  @brief  A fixed-size ring of elements.
   *  @tparam _Tp  Type of element.
   *  @tparam _Nm  Number of slots.
   *
   *  Pushing onto a full ring overwrites the oldest element.
   */
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
      /**
       *  @brief  The number of elements.
       *  @return  How many elements the ring holds.
       */
      _GLIBCXX_NODISCARD size_type
      size() const _GLIBCXX_NOEXCEPT
      { return _M_size; }
      /**
       *  @brief  Adds an element, overwriting the oldest when full.
       *  @param  __x  The element.
       */
      void
      push(const value_type& __x)
      {
	_M_slots[(_M_head + _M_size) % _Nm] = __x;
	if (_M_size < _Nm)
	  ++_M_size;
	else
	  _M_head = (_M_head + 1) % _Nm;
      }
#if __cplusplus >= 201103L
      /// Constructs an element in place.
      template<typename... _Args>
	void
	emplace(_Args&&... __args)
	{
	  value_type __tmp(std::forward<_Args>(__args)...);
	  push(__tmp);
	}
#endif
      /// The oldest element; the ring must not be empty.
      const value_type&
      front() const
      {
	return _M_slots[_M_head];
      }
    private:
      value_type	_M_slots[_Nm];
      size_type		_M_head;
      size_type		_M_size;
    };
  /**
   *  @brief  Copies the ring's elements to an output iterator.
   *  @param  __r  A ring.
   *  @param  __out  Where to write.
   *  @return  The iterator after the last element written.
   */
  template<typename _Tp, std::size_t _Nm, typename _OutputIterator>
    _OutputIterator
    copy_out(const ring<_Tp, _Nm>& __r, _OutputIterator __out)
    {
      ring<_Tp, _Nm> __tmp(__r);
      __try
	{
	  for (std::size_t __i = 0; __i < __r.size(); ++__i)
	    *__out++ = __tmp.front();
	}
      __catch(...)
	{
	  __throw_exception_again;
	}
      return __out;
    }
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
    {
      ring<_Tp, _Nm> __tmp(__a);
      __a = __b;
      __b = __tmp;
    }
_GLIBCXX_END_NAMESPACE_VERSION
}
#endif
