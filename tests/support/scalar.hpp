// Scalar-type traits shared by all batcheig tests.
//
// Tests are written once as templates over the scalar type T in
// {float, double, std::complex<float>, std::complex<double>}. The public API
// uses batcheigComplex / batcheigDoubleComplex, which are layout-compatible
// with std::complex (two packed reals), so test buffers hold std::complex
// and are reinterpret_cast at the API boundary (see geev_api.hpp).
#ifndef BATCHEIG_TESTS_SUPPORT_SCALAR_HPP
#define BATCHEIG_TESTS_SUPPORT_SCALAR_HPP

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "batcheig.h"

namespace bt {

template <class T>
struct scalar_traits;

// `acc` is the type test-side reductions (residuals, norms) are computed in:
// one step wider than the data, so the test's own rounding error is far
// below the library's (x86-64 long double has a 64-bit mantissa).
template <>
struct scalar_traits<float> {
  using real = float;
  using acc = double;
  using api = float;
  static constexpr bool is_complex = false;
  static constexpr const char *name = "S(float)";
};
template <>
struct scalar_traits<double> {
  using real = double;
  using acc = long double;
  using api = double;
  static constexpr bool is_complex = false;
  static constexpr const char *name = "D(double)";
};
template <>
struct scalar_traits<std::complex<float>> {
  using real = float;
  using acc = double;
  using api = batcheigComplex;
  static constexpr bool is_complex = true;
  static constexpr const char *name = "C(complex<float>)";
};
template <>
struct scalar_traits<std::complex<double>> {
  using real = double;
  using acc = long double;
  using api = batcheigDoubleComplex;
  static constexpr bool is_complex = true;
  static constexpr const char *name = "Z(complex<double>)";
};

template <class T>
using real_t = typename scalar_traits<T>::real;
template <class T>
using acc_t = typename scalar_traits<T>::acc;
template <class T>
using api_t = typename scalar_traits<T>::api;
template <class T>
inline constexpr bool is_complex_v = scalar_traits<T>::is_complex;

static_assert(sizeof(batcheigComplex) == sizeof(std::complex<float>), "layout");
static_assert(sizeof(batcheigDoubleComplex) == sizeof(std::complex<double>), "layout");

/// Unit roundoff u = eps/2 (FLT_EPSILON/2, DBL_EPSILON/2).
template <class R>
constexpr R unit_roundoff() {
  return std::numeric_limits<R>::epsilon() / 2;
}
/// Smallest positive normal number (LAPACK's safe minimum).
template <class R>
constexpr R safmin() {
  return std::numeric_limits<R>::min();
}
/// Largest finite number (overflow threshold).
template <class R>
constexpr R safmax() {
  return std::numeric_limits<R>::max();
}

/// Convert a (possibly complex) wide value to scalar type T; the imaginary
/// part is dropped for real T.
template <class T, class W>
T from_wide(const std::complex<W> &z) {
  if constexpr (is_complex_v<T>) {
    using R = real_t<T>;
    return T(static_cast<R>(z.real()), static_cast<R>(z.imag()));
  } else {
    return static_cast<T>(z.real());
  }
}

/// Widen a scalar (real or complex) to std::complex<W>.
template <class W, class T>
std::complex<W> to_wide(const T &x) {
  if constexpr (is_complex_v<T>) {
    return std::complex<W>(static_cast<W>(x.real()), static_cast<W>(x.imag()));
  } else {
    return std::complex<W>(static_cast<W>(x), W(0));
  }
}

template <class T>
bool is_finite_scalar(const T &x) {
  if constexpr (is_complex_v<T>) {
    return std::isfinite(x.real()) && std::isfinite(x.imag());
  } else {
    return std::isfinite(x);
  }
}

template <class T>
real_t<T> abs_max_part(const T &x) {  // max(|re|, |im|)
  if constexpr (is_complex_v<T>) {
    return std::max(std::abs(x.real()), std::abs(x.imag()));
  } else {
    return std::abs(x);
  }
}

/// A quiet NaN with a recognisable payload. Output buffers are pre-filled
/// with it: an entry that still holds these exact bits after a call was
/// never written (arithmetic and std::numeric_limits NaNs have other bits).
template <class R>
R sentinel_nan() {
  if constexpr (std::is_same_v<R, float>) {
    const std::uint32_t bits = 0x7fc0beefu;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  } else {
    const std::uint64_t bits = 0x7ff80000deadbeefull;
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
}

template <class T>
T sentinel_value() {
  using R = real_t<T>;
  if constexpr (is_complex_v<T>) {
    return T(sentinel_nan<R>(), sentinel_nan<R>());
  } else {
    return sentinel_nan<R>();
  }
}

/// Bitwise equality of two scalars (NaN payloads and signed zeros matter).
template <class T>
bool bits_equal(const T &a, const T &b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// True when x holds exactly the sentinel bits (in any part).
template <class T>
bool is_sentinel(const T &x) {
  using R = real_t<T>;
  const R s = sentinel_nan<R>();
  if constexpr (is_complex_v<T>) {
    const R re = x.real(), im = x.imag();
    return bits_equal(re, s) || bits_equal(im, s);
  } else {
    return bits_equal(x, s);
  }
}

/// Sentinel written into int outputs (info) before a call.
inline constexpr int kInfoSentinel = -0x5eed;

template <class T>
std::string precision_name() {
  return scalar_traits<T>::name;
}

}  // namespace bt

#endif  // BATCHEIG_TESTS_SUPPORT_SCALAR_HPP
