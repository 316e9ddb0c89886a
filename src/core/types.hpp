// Scalar types, precision traits and matrix views shared by every core routine.
//
// Everything in src/core is header-only and written once for the four scalar
// types (float, double, complex<float>, complex<double>). When compiled by
// nvcc the functions are __host__ __device__, so the GPU kernels run the same
// numerics as the host backend.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>

// BATCHEIG_HD: a core routine, inlined into its kernel on the GPU.
// BATCHEIG_HD_OUTLINED: one that a kernel calls instead (rare work whose
// inlined code would weigh on a hot loop around it).
#if defined(__CUDACC__)
#define BATCHEIG_HD __host__ __device__ __forceinline__
#define BATCHEIG_HD_OUTLINED __host__ __device__ __noinline__
#else
#define BATCHEIG_HD inline
#define BATCHEIG_HD_OUTLINED inline
#endif
// BATCHEIG_NO_UNROLL before a loop that a GPU team runs once or twice per
// member: the device compiler would otherwise unroll it (four times, with
// a remainder loop and the trip count computed on every entry), for
// nothing when the team is as wide as the loop. Also before the serial
// loops of the eigenvector phase (core/trevc.hpp) and of the BLAS helpers
// a member runs alone: there the unrolled copies made the kernels' code
// larger than the instruction cache holds (docs/performance.md, session 24).
#if defined(__CUDA_ARCH__)
#define BATCHEIG_NO_UNROLL _Pragma("unroll 1")
#else
#define BATCHEIG_NO_UNROLL
#endif
// BATCHEIG_UNROLL before a loop of compile-time length over an array that
// must stay in registers on the GPU (core/hessenberg.hpp's fixed-length
// reflectors); the host compiler decides for itself.
#if defined(__CUDA_ARCH__)
#define BATCHEIG_UNROLL _Pragma("unroll")
#else
#define BATCHEIG_UNROLL
#endif

namespace batcheig::core {

// Row, column and loop indices (the API's orders are ints). Element offsets
// are formed in 64 bits by the views that need it (MatView); SharedView
// keeps them in 32 bits for matrices that live in on-chip memory.
using index_t = int;

// ---------------------------------------------------------------------------
// A minimal complex type usable in device code (std::complex is not). Same
// layout as two packed reals, so it aliases batcheigComplex, cuComplex and
// std::complex arrays.
template <class R>
struct complex {
    R re, im;
    BATCHEIG_HD complex() : re(0), im(0) {}
    BATCHEIG_HD complex(R r) : re(r), im(0) {}
    BATCHEIG_HD complex(R r, R i) : re(r), im(i) {}
    BATCHEIG_HD complex &operator+=(complex o) { re += o.re; im += o.im; return *this; }
    BATCHEIG_HD complex &operator-=(complex o) { re -= o.re; im -= o.im; return *this; }
    BATCHEIG_HD complex &operator*=(complex o) { *this = *this * o; return *this; }
    BATCHEIG_HD complex &operator*=(R s) { re *= s; im *= s; return *this; }
    BATCHEIG_HD friend complex operator+(complex a, complex b) { return {a.re + b.re, a.im + b.im}; }
    BATCHEIG_HD friend complex operator-(complex a, complex b) { return {a.re - b.re, a.im - b.im}; }
    BATCHEIG_HD friend complex operator-(complex a) { return {-a.re, -a.im}; }
    // On the GPU with explicit FMAs: a.re b.re - a.im b.im may be contracted
    // around either product, and the compiler's choice depends on the
    // surrounding code, so the same source would round differently in
    // different kernels (docs/performance.md, sessions 60 and 61: the
    // complex Schur form on the band then gave other eigenvalues than the
    // eigenvalue launches). The host build does not contract.
    BATCHEIG_HD friend complex operator*(complex a, complex b) {
#if defined(__CUDA_ARCH__)
        return {fma(a.re, b.re, -(a.im * b.im)), fma(a.re, b.im, a.im * b.re)};
#else
        return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
#endif
    }
    BATCHEIG_HD friend complex operator*(complex a, R s) { return {a.re * s, a.im * s}; }
    BATCHEIG_HD friend complex operator*(R s, complex a) { return {a.re * s, a.im * s}; }
    BATCHEIG_HD friend complex operator/(complex a, R s) { return {a.re / s, a.im / s}; }
    BATCHEIG_HD friend bool operator==(complex a, complex b) { return a.re == b.re && a.im == b.im; }
    BATCHEIG_HD friend bool operator!=(complex a, complex b) { return !(a == b); }
    // Robust division (Smith's algorithm), as LAPACK's xLADIV in spirit.
    BATCHEIG_HD friend complex operator/(complex a, complex b) {
        R ar = b.re < 0 ? -b.re : b.re, ai = b.im < 0 ? -b.im : b.im;
        if (ar >= ai) {
            R e = b.im / b.re, f = b.re + b.im * e;
            return {(a.re + a.im * e) / f, (a.im - a.re * e) / f};
        }
        R e = b.re / b.im, f = b.im + b.re * e;
        return {(a.re * e + a.im) / f, (a.im * e - a.re) / f};
    }
};

template <class T> struct real_type { using type = T; };
template <class R> struct real_type<complex<R>> { using type = R; };
template <class T> using real_t = typename real_type<T>::type;

// The single-precision type of a double type (float, complex<float>);
// void for the single-precision types themselves.
template <class T> struct single_type { using type = void; };
template <> struct single_type<double> { using type = float; };
template <> struct single_type<complex<double>> { using type = complex<float>; };
template <class T> using single_t = typename single_type<T>::type;

template <class T> struct is_complex_t { static constexpr bool value = false; };
template <class R> struct is_complex_t<complex<R>> { static constexpr bool value = true; };
template <class T> inline constexpr bool is_complex = is_complex_t<T>::value;

// ---------------------------------------------------------------------------
// Machine constants, as LAPACK's xLAMCH.
template <class R> struct limits;
template <> struct limits<float> {
    // eps: relative machine precision (unit roundoff, 'E'); ulp: eps*base ('P').
    BATCHEIG_HD static constexpr float eps() { return FLT_EPSILON * 0.5f; }
    BATCHEIG_HD static constexpr float ulp() { return FLT_EPSILON; }
    BATCHEIG_HD static constexpr float safmin() { return FLT_MIN; }
    BATCHEIG_HD static constexpr float huge() { return FLT_MAX; }
};
template <> struct limits<double> {
    BATCHEIG_HD static constexpr double eps() { return DBL_EPSILON * 0.5; }
    BATCHEIG_HD static constexpr double ulp() { return DBL_EPSILON; }
    BATCHEIG_HD static constexpr double safmin() { return DBL_MIN; }
    BATCHEIG_HD static constexpr double huge() { return DBL_MAX; }
};

// ---------------------------------------------------------------------------
// Elementary functions with one spelling for real and complex arguments.
BATCHEIG_HD float rabs(float x) { return fabsf(x); }
BATCHEIG_HD double rabs(double x) { return fabs(x); }
BATCHEIG_HD float rsqrt_(float x) { return sqrtf(x); }
BATCHEIG_HD double rsqrt_(double x) { return sqrt(x); }
template <class R> BATCHEIG_HD R rmax(R a, R b) { return a > b ? a : b; }
template <class R> BATCHEIG_HD R rmin(R a, R b) { return a < b ? a : b; }
template <class R> BATCHEIG_HD R sign(R a, R b) { return b >= 0 ? rabs(a) : -rabs(a); }  // Fortran SIGN
template <class R> BATCHEIG_HD bool is_finite(R x) { return x - x == x - x; }  // false for NaN and Inf

template <class R> BATCHEIG_HD R real(R x) { return x; }
template <class R> BATCHEIG_HD R real(complex<R> x) { return x.re; }
template <class R> BATCHEIG_HD R imag(R) { return R(0); }
template <class R> BATCHEIG_HD R imag(complex<R> x) { return x.im; }
template <class R> BATCHEIG_HD R conj(R x) { return x; }
template <class R> BATCHEIG_HD complex<R> conj(complex<R> x) { return {x.re, -x.im}; }
// |x| for real, cabs1 = |re|+|im| for complex (LAPACK's cheap modulus).
template <class R> BATCHEIG_HD R abs1(R x) { return rabs(x); }
template <class R> BATCHEIG_HD R abs1(complex<R> x) { return rabs(x.re) + rabs(x.im); }

// sqrt(x^2 + y^2) without unnecessary overflow, as xLAPY2.
template <class R> BATCHEIG_HD R lapy2(R x, R y) {
    // NaN propagates (the max/min below would drop it).
    if (x != x) return x;
    if (y != y) return y;
    R xa = rabs(x), ya = rabs(y);
    R w = rmax(xa, ya), z = rmin(xa, ya);
    if (z == R(0) || w > limits<R>::huge()) return w;
    R q = z / w;
    return w * rsqrt_(R(1) + q * q);
}
// True modulus.
template <class R> BATCHEIG_HD R cabs(R x) { return rabs(x); }
template <class R> BATCHEIG_HD R cabs(complex<R> x) { return lapy2(x.re, x.im); }

template <class T> BATCHEIG_HD T make_nan() {
    using R = real_t<T>;
    R q = R(NAN);
    if constexpr (is_complex<T>) return T(q, q); else return q;
}

// ---------------------------------------------------------------------------
// Views. Element (i, j) of a matrix view lives at p[(i + j*ld) * es]:
//   es == 1,     ld == lda : ordinary column-major storage;
//   es == batch, ld == n   : element-interleaved batch (matrix b at p + b).
// A vector view addresses p[i * inc].
template <class T>
struct MatView {
    using value_type = T;
    T *p;
    std::int64_t ld;
    std::int64_t es;
    BATCHEIG_HD T &operator()(index_t i, index_t j) const { return p[(i + j * ld) * es]; }
    // Column j as a vector view.
    BATCHEIG_HD auto col(index_t j) const;
};

template <class T>
struct VecView {
    using value_type = T;
    T *p;
    std::int64_t inc;
    BATCHEIG_HD T &operator[](index_t i) const { return p[i * inc]; }
};

template <class T>
BATCHEIG_HD auto MatView<T>::col(index_t j) const {
    return VecView<T>{p + j * ld * es, es};
}

// Column-major view with unit element stride and 32-bit offsets, for a
// matrix in shared memory (GPU team kernels): the index arithmetic of every
// access is a single 32-bit multiply-add. A kernel that passes SharedViews
// to trevc keeps its scratch xt (GeevWork::xt) in shared memory too
// (trevc's x_column relies on it: is_shared_view, assume_shared).
template <class T>
struct SharedView {
    using value_type = T;
    static constexpr std::int64_t es = 1;
    T *p;
    int ld;
    BATCHEIG_HD T &operator()(index_t i, index_t j) const { return p[i + j * ld]; }
    BATCHEIG_HD VecView<T> col(index_t j) const { return VecView<T>{p + j * ld, 1}; }
};

// p, which lies in shared memory on the GPU: said so to the compiler, so
// that the accesses through it compile to shared-memory instructions with
// 32-bit addresses. The compiler does not always infer it: trevc's
// solutions X (x_column: rows of T's array, or the scratch xt) are
// addressed through generic 64-bit pointers without it (89 loads and 63
// stores in the double eigenvector launch with 32 lanes); trevc marks
// them in float (kTrevcXShared). On the host, p.
template <class T>
BATCHEIG_HD T *assume_shared(T *p) {
#if defined(__CUDA_ARCH__)
    __builtin_assume(__isShared(p));
#endif
    return p;
}
// Whether the matrix view type M is a SharedView (its storage, and the
// scratch that goes with it, lie in shared memory on the GPU).
template <class M> inline constexpr bool is_shared_view = false;
template <class T> inline constexpr bool is_shared_view<SharedView<T>> = true;

// An upper Hessenberg matrix and the two subdiagonals below it that a
// double-shift QR step fills in transiently (its bulge), packed by columns:
// column j holds rows 0..j+3 at p[j(j+7)/2 + i], so n(n+7)/2 elements in
// all, 0.6 of n^2 at n = 30. Only the QR iteration (lahqr_real,
// lahqr_complex) runs on it: it never reads or writes an entry more than
// three rows below the diagonal. GPU kernels keep the QR phase's matrix in
// shared memory this way so that more matrices fit on an SM.
template <class T>
struct HessBandView {
    using value_type = T;
    T *p;
    BATCHEIG_HD static int offset(index_t j) { return (j * (j + 7)) >> 1; }
    BATCHEIG_HD static int elements(index_t n) { return offset(n); }
    // The packing up to the last element a QR iteration on an order-n
    // matrix can touch: the last three, rows n..n+2 of column n-1, lie
    // outside the matrix (GPU kernels keep only these in shared memory).
    BATCHEIG_HD static int used_elements(index_t n) { return offset(n) - 3; }
    BATCHEIG_HD T &operator()(index_t i, index_t j) const { return p[offset(j) + i]; }
    BATCHEIG_HD VecView<T> col(index_t j) const { return VecView<T>{p + offset(j), 1}; }
};

// The distance in elements from h(i, j) to h(i, j + s), for a pass that
// walks a row s columns at a time and carries its address: one multiply-add
// where the band's offset is a quadratic in j. (32 bits where the view's
// offsets are.)
template <class T>
BATCHEIG_HD std::int64_t cols_apart(const MatView<T> &h, index_t, index_t s) { return s * h.ld * h.es; }
template <class T>
BATCHEIG_HD int cols_apart(const SharedView<T> &h, index_t, index_t s) { return s * h.ld; }
template <class T>
BATCHEIG_HD int cols_apart(const HessBandView<T> &, index_t j, index_t s) { return s * j + ((s * (s + 7)) >> 1); }

// Columns j + 1 and j - 1 of h from its column j (c = h.col(j)) by one
// addition: the band's offsets are quadratic in j, and a compiler does not
// derive one from the other (the QR step addresses four consecutive
// columns).
template <class M, class T>
BATCHEIG_HD VecView<T> next_col(const M &h, VecView<T> c, index_t) {  // MatView, SharedView
    return VecView<T>{c.p + h.ld * h.es, c.inc};
}
template <class M, class T>
BATCHEIG_HD VecView<T> prev_col(const M &h, VecView<T> c, index_t) {
    return VecView<T>{c.p - h.ld * h.es, c.inc};
}
template <class T>
BATCHEIG_HD VecView<T> next_col(const HessBandView<T> &, VecView<T> c, index_t j) {
    return VecView<T>{c.p + (j + 4), 1};
}
template <class T>
BATCHEIG_HD VecView<T> prev_col(const HessBandView<T> &, VecView<T> c, index_t j) {
    return VecView<T>{c.p - (j + 3), 1};
}

}  // namespace batcheig::core
