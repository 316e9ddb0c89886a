// The build compiles C and C++ without floating-point contraction
// (-ffp-contract=off, top-level CMakeLists.txt): a * b + c stays a rounded
// product and a rounded sum even where the target has fused multiply-add.
// The host backend's bitwise guarantees depend on it (eigenvalues the same
// for every job, each matrix's results those of a call on it alone), and
// a build where the compiler may fuse (aarch64; x86-64 with -march=native)
// breaks them. The CI machine's baseline x86-64 has no FMA, so there the
// library's own tests cannot see the difference; this test compiles its
// multiply-adds for FMA (x86-64: a target attribute, run only where the
// CPU has FMA; aarch64: always available) and checks that they round
// twice, as the library's code does under the same flags. GCC's
// vectorizer also fuses a complex product's multiply and add/subtract into
// vfmaddsub where FMA is enabled, whatever -ffp-contract says, so on
// x86-64 the build takes FMA away from GCC (-mno-fma); the second case
// checks that on the library's own core::complex product, compiled with
// the build's flags.
#include <limits>

#include "catch_compat.hpp"
#include "core/types.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#  define BT_FMA_TARGET __attribute__((target("fma"), noinline))
#  define BT_FMA_AVAILABLE() __builtin_cpu_supports("fma")
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#  define BT_FMA_TARGET __attribute__((noinline))
#  define BT_FMA_AVAILABLE() true
#endif

#if defined(__GNUC__) || defined(__clang__)
#  define BT_NOINLINE __attribute__((noinline))
#else
#  define BT_NOINLINE
#endif

namespace {

// e = 2^-(p/2+2), p the significand's bits: (1 + e)(1 - e) = 1 - e^2 rounds
// to 1 (e^2 is under half an ulp of it), so 1 - e^2 - 1 is 0 with the
// product rounded first and -e^2 when fused. Read through a volatile, so
// that the compiler cannot fold the arithmetic that uses it.
template <class R>
R tiny_step() {
  R e = 1;
  for (int k = 0; k < std::numeric_limits<R>::digits / 2 + 2; ++k) e /= 2;
  volatile R ve = e;
  return ve;
}

}  // namespace

#ifdef BT_FMA_TARGET
namespace {

BT_FMA_TARGET double mul_add(double a, double b, double c) { return a * b + c; }
BT_FMA_TARGET float mul_add(float a, float b, float c) { return a * b + c; }

// The same in a loop the compiler may vectorize (vector body and scalar
// remainder).
template <class R>
BT_FMA_TARGET void mul_add_loop(int n, const R *a, const R *b, R *y) {
  for (int i = 0; i < n; ++i) y[i] = a[i] * b[i] + y[i];
}

// a b + c with a = 1 + e, b = 1 - e, c = -1 (tiny_step): 0 with two
// roundings, -e^2 with one (a fused multiply-add).
template <class R>
void check_type() {
  const R e = tiny_step<R>();
  volatile R vc = -1;
  const R a = 1 + e, b = 1 - e, c = vc;
  INFO("a * b + c must round the product (no contraction into an FMA)");
  CHECK(mul_add(a, b, c) == R(0));
  R x[37], y[37], z[37];
  for (int i = 0; i < 37; ++i) {
    x[i] = a;
    y[i] = b;
    z[i] = c;
  }
  mul_add_loop(37, x, y, z);
  for (int i = 0; i < 37; ++i) {
    INFO("loop entry " << i);
    CHECK(z[i] == R(0));
  }
}

}  // namespace
#endif

TEST_CASE("build: C++ multiply-adds are not contracted into FMAs (-ffp-contract=off)", "[build]") {
#ifdef BT_FMA_TARGET
  if (!BT_FMA_AVAILABLE()) {
    BT_SKIP("this CPU has no FMA instruction: nothing could be contracted");
    return;
  }
  check_type<float>();
  check_type<double>();
#else
  BT_SKIP("no FMA target known for this compiler and architecture");
#endif
}

namespace {

// A loop of core::complex products, as the library's Jacobi and QR loops
// have them, with the build's own flags.
template <class R>
BT_NOINLINE void complex_products(int n, const batcheig::core::complex<R> *a, const batcheig::core::complex<R> *b,
                                  batcheig::core::complex<R> *y) {
  for (int i = 0; i < n; ++i) y[i] = a[i] * b[i];
}

// (1 + e, 1) (1 - e, 1) (tiny_step): the real part 1 - e^2 - 1 is 0 with
// the product rounded first, -e^2 when fused.
template <class R>
void check_complex() {
  using C = batcheig::core::complex<R>;
  const R e = tiny_step<R>();
  C a[41], b[41], y[41];
  for (int i = 0; i < 41; ++i) {
    a[i] = C(1 + e, 1);
    b[i] = C(1 - e, 1);
  }
  complex_products(41, a, b, y);
  for (int i = 0; i < 41; ++i) {
    INFO("entry " << i << ": the product's real part must be rounded before the subtraction");
    CHECK(y[i].re == R(0));
  }
}

}  // namespace

TEST_CASE("build: complex products are not fused (GCC on x86-64: -mno-fma)", "[build]") {
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
  bool fma_enabled = false;
#  ifdef __FMA__
  fma_enabled = true;
#  endif
  INFO("GCC on x86-64 must compile the library and its tests with -mno-fma (top-level CMakeLists.txt)");
  CHECK_FALSE(fma_enabled);
#endif
  check_complex<float>();
  check_complex<double>();
}
