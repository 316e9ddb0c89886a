// Small level-1 kernels and elementary transformations used by the core
// routines: safe norms, scaling, Householder reflectors, plane rotations.
#pragma once

#include "core/team.hpp"
#include "core/types.hpp"

namespace batcheig::core {

// Blue's scaled sum of squares (as LAPACK 3.10's xNRM2): entries are sorted
// into three accumulators by magnitude, each scaled by a power of two so
// that squaring can neither overflow nor underflow destructively. No
// divisions, so it is also cheap on the GPU.
template <class R> struct BlueConst;
template <> struct BlueConst<float> {
    BATCHEIG_HD static constexpr float tsml() { return 0x1p-63f; }
    BATCHEIG_HD static constexpr float tbig() { return 0x1p52f; }
    BATCHEIG_HD static constexpr float ssml() { return 0x1p75f; }
    BATCHEIG_HD static constexpr float sbig() { return 0x1p-76f; }
};
template <> struct BlueConst<double> {
    BATCHEIG_HD static constexpr double tsml() { return 0x1p-511; }
    BATCHEIG_HD static constexpr double tbig() { return 0x1p486; }
    BATCHEIG_HD static constexpr double ssml() { return 0x1p537; }
    BATCHEIG_HD static constexpr double sbig() { return 0x1p-538; }
};

// One term of a plain sum of squares: adds v^2 to sum, and records in
// outside whether v is nonzero and outside Blue's middle range [tsml,
// tbig], where its square could overflow or lose accuracy to underflow.
// A caller that finds no such term has the sum that BlueSum's middle
// accumulator would hold (team_nrm2's shortcut, gebal's bal_unscaled).
template <class R>
BATCHEIG_HD void add_square_in_range(R v, R &sum, bool &outside) {
    using C = BlueConst<R>;
    const R av = rabs(v);
    outside |= (av > C::tbig()) | ((av < C::tsml()) & (av != R(0)));
    sum += av * av;  // also NaN, as BlueSum
}

template <class R>
struct BlueSum {
    using C = BlueConst<R>;
    R asml = 0, amed = 0, abig = 0;
    BATCHEIG_HD void add(R x) {
        const R ax = rabs(x);
        if (ax > C::tbig()) {
            R y = ax * C::sbig();
            abig += y * y;
        } else if (ax < C::tsml()) {
            R y = ax * C::ssml();
            asml += y * y;
        } else {
            amed += ax * ax;  // also NaN
        }
    }
    template <class T> BATCHEIG_HD void add_value(T x) {
        add(real(x));
        if constexpr (is_complex<T>) add(imag(x));
    }
    BATCHEIG_HD R result() const {
        R scl, sumsq;
        if (abig > R(0)) {
            R big = abig;
            if (amed > R(0) || amed != amed) big += (amed * C::sbig()) * C::sbig();
            scl = R(1) / C::sbig();
            sumsq = big;
        } else if (asml > R(0)) {
            if (amed > R(0) || amed != amed) {
                R m = rsqrt_(amed), s = rsqrt_(asml) / C::ssml();
                R ymin = s > m ? m : s, ymax = s > m ? s : m;
                scl = R(1);
                sumsq = ymax * ymax * (R(1) + (ymin / ymax) * (ymin / ymax));
            } else {
                scl = R(1) / C::ssml();
                sumsq = asml;
            }
        } else {
            scl = R(1);
            sumsq = amed;
        }
        return scl * rsqrt_(sumsq);
    }
};

// Euclidean norm of x[0..n) without destructive underflow or overflow.
template <class V>
BATCHEIG_HD real_t<typename V::value_type> nrm2(index_t n, V x) {
    BlueSum<real_t<typename V::value_type>> acc;
    BATCHEIG_NO_UNROLL
    for (index_t i = 0; i < n; ++i) acc.add_value(x[i]);
    return acc.result();
}

// Multiply x[0..n) by the scalar s.
template <class V, class S>
BATCHEIG_HD void scal(index_t n, S s, V x) {
    BATCHEIG_NO_UNROLL
    for (index_t i = 0; i < n; ++i) x[i] = x[i] * s;
}

namespace detail {
// Sum of squares with a rounding error of about one ulp of the sum at any
// count. The running sum's roundings are what grow with the count (about
// sqrt(n) ulps); each is taken exactly by Knuth's two-sum and added on the
// side. Where a fused multiply-add is an instruction (the GPU, a host
// built for FMA) each product's rounding is taken too, exactly, as in the
// compensated dot product Dot2 of Ogita, Rump and Oishi. Elsewhere it is
// left: relative to the sum the products' roundings stay within one unit
// roundoff whatever the count, and std::fma as a library call made the
// host's double eigenvector normalization 3 % of a whole geev at n = 10.
// The product is rounded apart so that the GPU compiler cannot fuse it
// into the sum.
// x * x = p + e: p the rounded square, e its rounding where a fused
// multiply-add is an instruction (else 0, see CompensatedSquares).
BATCHEIG_HD void split_square(double x, double &p, double &e) {
#if defined(__CUDA_ARCH__)
    p = __dmul_rn(x, x);
    e = fma(x, x, -p);
#elif defined(__FMA__)
    p = x * x;
    e = std::fma(x, x, -p);
#else
    p = x * x;
    e = 0.0;
#endif
}

struct CompensatedSquares {
    double hi = 0, lo = 0;
    BATCHEIG_HD void add(double x) {
        double p, e;
        split_square(x, p, e);
        add_sum(p, e);
    }
    // hi + lo += p + e, the rounding of hi + p kept in lo with e.
    BATCHEIG_HD void add_sum(double p, double e) {
        const double s = hi + p;
        const double z = s - hi;
        lo += ((hi - (s - z)) + (p - z)) + e;
        hi = s;
    }
};
}  // namespace detail

// 1 / sqrt(sum) for a sum of squares sum = 1 + d with d known accurately:
// 1 - d/2 + 3 d^2 / 8 - ..., one rounding, for a sum near 1 (the usual
// case); else the plain formula (renormalize_unit, normalize_real_short).
BATCHEIG_HD double unit_scale(double d, double sum) {
    return rabs(d) < 0x1p-20 ? 1.0 + d * (-0.5 + 0.375 * d) : 1.0 / sqrt(sum);
}

// Rescale a double-precision vector that is already near unit 2-norm
// (x[0..n), together with y[0..n) when two is set, as the real and
// imaginary parts of a complex pair) so that its norm is 1 to within about
// one ulp at any n. The scaling by the reciprocal of nrm2's result leaves
// about sqrt(n) ulps from the rounding of the running sum of squares (18
// ulps seen at n = 512); here the squares are summed with
// CompensatedSquares, in two independent sums (real and imaginary parts,
// or the two columns) for a shorter chain, and the vector is scaled by the
// reciprocal square root of the total. Zero, Inf and NaN entries give NaN,
// as the division by the norm did. (Float types need no second pass: their
// squares are summed in double in the first, see geev.hpp.)
template <class V>
BATCHEIG_HD void renormalize_unit(index_t n, V x, V y, bool two) {
    using T = typename V::value_type;
    using R = real_t<T>;
    static_assert(sizeof(R) == sizeof(double), "double and complex double only");
    detail::CompensatedSquares a, b;
    BATCHEIG_NO_UNROLL
    for (index_t i = 0; i < n; ++i) {
        a.add(real(x[i]));
        if constexpr (is_complex<T>) b.add(imag(x[i]));
    }
    if (two) {
        BATCHEIG_NO_UNROLL
        for (index_t i = 0; i < n; ++i) {
            if constexpr (is_complex<T>) {
                a.add(real(y[i]));
                b.add(imag(y[i]));
            } else {
                b.add(y[i]);
            }
        }
    }
    a.add_sum(b.hi, b.lo);
    // d = sum - 1 (hi - 1 is exact for hi in [1/2, 2]).
    const double d = (a.hi - 1.0) + a.lo;
    const double scale = unit_scale(d, a.hi + a.lo);
    scal(n, R(scale), x);
    if (two) scal(n, R(scale), y);
}

// Multiply a matrix view's leading m x n block by cto/cfrom without over- or
// underflow in the multiplier, as xLASCL('G').
template <class M, class R>
BATCHEIG_HD void lascl(R cfrom, R cto, index_t m, index_t n, M a) {
    const R smlnum = limits<R>::safmin(), bignum = R(1) / smlnum;
    R cfromc = cfrom, ctoc = cto;
    bool done = false;
    while (!done) {
        R cfrom1 = cfromc * smlnum, mul;
        if (cfrom1 == cfromc) {  // cfromc is Inf: the multiplier is a NaN or +-Inf
            mul = ctoc / cfromc;
            done = true;
        } else {
            R cto1 = ctoc / bignum;
            if (cto1 == ctoc) {  // ctoc is 0 or Inf
                mul = ctoc;
                done = true;
                cfromc = R(1);
            } else if (rabs(cfrom1) > rabs(ctoc) && ctoc != R(0)) {
                mul = smlnum;
                cfromc = cfrom1;
            } else if (rabs(cto1) > rabs(cfromc)) {
                mul = bignum;
                ctoc = cto1;
            } else {
                mul = ctoc / cfromc;
                done = true;
            }
        }
        BATCHEIG_NO_UNROLL
        for (index_t j = 0; j < n; ++j)
            for (index_t i = 0; i < m; ++i) a(i, j) = a(i, j) * mul;
    }
}

// Vector form of lascl over x[0..n).
template <class V, class R>
BATCHEIG_HD void lascl_vec(R cfrom, R cto, index_t n, V x) {
    MatView<typename V::value_type> m{x.p, 1, x.inc};  // (i, 0) -> p[i * inc]
    lascl(cfrom, cto, n, index_t(1), m);
}

// Householder reflector H = I - tau v v^H with v = (1, x) such that
// H^H (alpha, x) = (beta, 0), beta real (xLARFG). On exit alpha = beta and
// x holds v(1:). n is the length of (alpha, x). The arithmetic on alpha and
// tau is written once (detail::larfg_scalar); the forms below differ only
// in where x lives: norm() returns ||x||, scale(s) multiplies x by s.
namespace detail {
template <class T, class Norm, class Scale>
BATCHEIG_HD void larfg_scalar(index_t n, T &alpha, T &tau, Norm norm, Scale scale) {
    using R = real_t<T>;
    if (n <= 1) {
        tau = T(0);
        return;
    }
    R xnorm = norm();
    R alphr = real(alpha), alphi = imag(alpha);
    if (xnorm == R(0) && alphi == R(0)) {
        tau = T(0);
        return;
    }
    R beta;
    if constexpr (is_complex<T>) beta = -sign(lapy2(lapy2(alphr, alphi), xnorm), alphr);
    else beta = -sign(lapy2(alphr, xnorm), alphr);
    const R safmin = limits<R>::safmin() / limits<R>::eps();
    const R rsafmn = R(1) / safmin;
    int knt = 0;
    if (rabs(beta) < safmin) {
        // xnorm and beta may be inaccurate: scale x and recompute them.
        do {
            ++knt;
            scale(rsafmn);
            beta *= rsafmn;
            alphr *= rsafmn;
            alphi *= rsafmn;
        } while (rabs(beta) < safmin && knt < 20);
        xnorm = norm();
        if constexpr (is_complex<T>) beta = -sign(lapy2(lapy2(alphr, alphi), xnorm), alphr);
        else beta = -sign(lapy2(alphr, xnorm), alphr);
    }
    if constexpr (is_complex<T>) {
        tau = T((beta - alphr) / beta, -alphi / beta);
        scale(T(R(1)) / (T(alphr, alphi) - T(beta)));
    } else {
        tau = (beta - alphr) / beta;
        scale(R(1) / (alphr - beta));
    }
    for (int j = 0; j < knt; ++j) beta *= safmin;
    alpha = T(beta);
}
}  // namespace detail

template <class V>
BATCHEIG_HD void larfg(index_t n, typename V::value_type &alpha, V x, typename V::value_type &tau) {
    detail::larfg_scalar(
        n, alpha, tau, [&]() { return nrm2(n - 1, x); }, [&](auto s) { scal(n - 1, s, x); });
}

#if defined(__CUDA_ARCH__)
namespace detail {
// 1 / sqrt(x) and 1 / x on the GPU for a normal x far from under- and
// overflow (2^-1000 <= |x| <= 2^1000; float 2^-120 .. 2^120), within a few
// ulps: the hardware's approximation (MUFU) refined by Newton steps,
// without the branch of CUDA's rsqrt and division for zero, subnormal, Inf
// and NaN operands. The double rsqrt is CUDA's rsqrt's own refinement of
// the same approximation (rsqrt.approx.ftz.f64 is the bare MUFU.RSQ64H), so
// for these operands it is bitwise CUDA's rsqrt: checked on an H100 for
// 2^24 random operands over the whole range, and the SASS is CUDA's less
// the range test and its branch.
__device__ __forceinline__ double rsqrt_normal(double x) {
    double y;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
    const double e = fma(-x, y * y, 1.0);
    return fma(fma(e, 0.375, 0.5), y * e, y);
}
__device__ __forceinline__ float rsqrt_normal(float x) {
    float y;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return fmaf(y * fmaf(-x, y * y, 1.0f), 0.5f, y);
}
__device__ __forceinline__ double rcp_normal(double x) {
    double y;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
    double e = fma(-x, y, 1.0);
    e = fma(e, e, e);
    y = fma(y, e, y);
    return fma(y, fma(-x, y, 1.0), y);
}
__device__ __forceinline__ float rcp_normal(float x) {
    float y;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return fmaf(y, fmaf(-x, y, 1.0f), y);
}
}  // namespace detail
#endif

namespace detail {
// The range in which larfg's direct formula takes a real reflector, for
// s2 = alpha^2 + ||x||^2 and xn2 = ||x||^2: s2 < larfg_big2 (every entry
// below sqrt(larfg_big2), far from overflow; NaN and Inf fail the test)
// and xn2 >= larfg_small2 (a normal number, accurate to a few ulps).
// |beta| and |alpha - beta| then lie in [2^-500, 2^502) (float: [2^-60,
// 2^62)). (The test is written out at each use: as a function call it
// made the compiler lay the hot path out behind a taken branch.)
template <class T>
inline constexpr T larfg_big2 = sizeof(T) == 4 ? T(0x1p120) : T(0x1p1000);
template <class T>
inline constexpr T larfg_small2 = sizeof(T) == 4 ? T(0x1p-120) : T(0x1p-1000);
#if defined(__CUDA_ARCH__)
// The direct formula on the GPU: beta = -sign(alpha) sqrt(s2) into alpha,
// tau = (beta - alpha) / beta = 1 + |alpha| / sqrt(s2), and the scaling of
// x, 1 / (alpha - beta), returned; from rs = 1 / sqrt(s2), the reciprocal
// square root and the reciprocal without the library's branches for
// special operands, which these cannot be (2-5 % faster geev at n = 25-40
// than a square root and a division; docs/performance.md, sessions 20-21).
template <class T>
__device__ __forceinline__ T larfg_direct(T &alpha, T s2, T &tau) {
    const T rs = rsqrt_normal(s2), sq = s2 * rs;
    const T beta = alpha >= T(0) ? -sq : sq;
    const T scal = rcp_normal(alpha - beta);
    tau = rabs(alpha) * rs + T(1);
    alpha = beta;
    return scal;
}
#endif
}  // namespace detail

// larfg for a reflector of length n = 2 or 3 held in registers, (alpha, x1)
// or (alpha, x1, x2): the bulges of the QR sweeps, one per step, on the
// critical path of every QR iteration. Real entries whose squares can
// neither overflow nor lose accuracy to underflow (nearly always) take a
// direct formula: one square root and one division (on the GPU a
// reciprocal square root and a reciprocal), where the general form pays
// for an overflow-safe norm and hypotenuse. Anything else (zero
// x included) goes through the general form.
template <class T>
BATCHEIG_HD void larfg_small(index_t n, T &alpha, T &x1, T &x2, T &tau) {
    if constexpr (!is_complex<T>) {
        const T xn2 = x1 * x1 + (n == 3 ? x2 * x2 : T(0));
        const T s2 = alpha * alpha + xn2;
        if (n > 1 && s2 < detail::larfg_big2<T> && xn2 >= detail::larfg_small2<T>) {
#if defined(__CUDA_ARCH__)
            const T scal = detail::larfg_direct(alpha, s2, tau);
#else
            // beta = -sign(alpha) sqrt(s2), tau = (beta - alpha) / beta and
            // 1 / (alpha - beta) from one division: the product of |beta|
            // and |alpha - beta| neither overflows nor underflows.
            const T beta = -sign(rsqrt_(s2), alpha);
            const T d = alpha - beta;
            const T r = T(1) / (beta * d);
            tau = -(d * d) * r;
            const T scal = beta * r;
            alpha = beta;
#endif
            x1 *= scal;
            if (n == 3) x2 *= scal;
            return;
        }
    }
    detail::larfg_scalar(
        n, alpha, tau,
        [&]() {
            BlueSum<real_t<T>> acc;
            acc.add_value(x1);
            if (n == 3) acc.add_value(x2);
            return acc.result();
        },
        [&](auto s) {
            x1 = x1 * s;
            if (n == 3) x2 = x2 * s;
        });
}

// Plane rotation with c*f + s*g = r, -s*f + c*g = 0 (real, as xLARTG).
template <class R>
BATCHEIG_HD void lartg(R f, R g, R &c, R &s, R &r) {
    if (g == R(0)) {
        c = R(1);
        s = R(0);
        r = f;
    } else if (f == R(0)) {
        c = R(0);
        s = sign(R(1), g);
        r = rabs(g);
    } else {
        R d = lapy2(f, g);
        c = rabs(f) / d;
        r = sign(d, f);
        s = g / r;
    }
}

// Apply the rotation [c s; -s c] to the pair of vectors (x, y).
template <class V, class R>
BATCHEIG_HD void rot(index_t n, V x, V y, R c, R s) {
    BATCHEIG_NO_UNROLL
    for (index_t i = 0; i < n; ++i) {
        auto t = c * x[i] + s * y[i];
        y[i] = c * y[i] - s * x[i];
        x[i] = t;
    }
}

// Index of the element of largest |re|+|im| (first one on ties), as IxAMAX.
template <class V>
BATCHEIG_HD index_t iamax(index_t n, V x) {
    index_t k = 0;
    real_t<typename V::value_type> m = -1;
    BATCHEIG_NO_UNROLL
    for (index_t i = 0; i < n; ++i) {
        auto a = abs1(x[i]);
        if (a > m) {
            m = a;
            k = i;
        }
    }
    return k;
}

// Complex square root with the branch cut on the negative real axis.
template <class R>
BATCHEIG_HD complex<R> csqrt(complex<R> z) {
    R x = z.re, y = z.im;
    if (x == R(0) && y == R(0)) return complex<R>(R(0), y);
    R t = rsqrt_((rabs(x) + lapy2(x, y)) * R(0.5));
    if (x >= R(0)) return complex<R>(t, y / (R(2) * t));
    return complex<R>(rabs(y) / (R(2) * t), sign(t, y));
}

// ---- Team forms (core/team.hpp) --------------------------------------------
// Each is collective: every member of the team calls it with the same
// arguments. The ones that write end with tm.sync().

namespace detail {
// nrm2 over a team: every member accumulates Blue's sums over its share,
// the three sums are reduced over the team.
template <class Team, class V>
BATCHEIG_HD real_t<typename V::value_type> team_blue_nrm2(const Team &tm, index_t n, V x) {
    BlueSum<real_t<typename V::value_type>> acc;
    if constexpr (is_complex<typename V::value_type>) {
        for (index_t i = tm.first(0); i < n; i += tm.size()) acc.add_value(x[i]);
    } else {
        BATCHEIG_NO_UNROLL  // see team_nrm2
        for (index_t i = tm.first(0); i < n; i += tm.size()) acc.add_value(x[i]);
    }
    acc.asml = tm.sum(acc.asml);
    acc.abig = tm.sum(acc.abig);
    acc.amed = tm.sum(acc.amed);
    return acc.result();
}
}  // namespace detail

// nrm2 over a team (Blue's sums, detail::team_blue_nrm2; a wide team takes
// a shortcut with the same result).
template <class Team, class V>
BATCHEIG_HD real_t<typename V::value_type> team_nrm2(const Team &tm, index_t n, V x) {
    if constexpr (Team::serial) {
        return nrm2(n, x);
    } else {
        if constexpr (Team::wide) {
            // Blue's sums of tiny and huge squares are +0 in every member
            // unless some entry is nonzero and outside the middle range
            // [tsml, tbig]. So a wide team first sums the squares alone,
            // without Blue's per-entry branches, and votes on whether any
            // entry was outside; only then does it take Blue's three sums.
            // Either way the result is bitwise that of Blue's sums over the
            // team: without such an entry, the middle sum gets the same
            // terms in the same order and result() takes sqrt(amed).
            using R = real_t<typename V::value_type>;
            R amed = R(0);
            bool outside = false;
            auto add = [&](R v) { add_square_in_range(v, amed, outside); };
            if constexpr (is_complex<typename V::value_type>) {
                for (index_t i = tm.first(0); i < n; i += tm.size()) {
                    const auto xi = x[i];
                    add(real(xi));
                    add(imag(xi));
                }
            } else {
                // Not unrolled on the GPU (a loop that runs once or twice
                // per member: smaller code, 2-4 % less time for double
                // eigenvalues on an H100). The complex loop stays as it was:
                // rolled, the compiler built the complex Schur launch's sums
                // differently from the eigenvalue launches', and the
                // eigenvalues with and without vectors must agree bitwise.
                BATCHEIG_NO_UNROLL
                for (index_t i = tm.first(0); i < n; i += tm.size()) add(x[i]);
            }
            if (!tm.any(outside)) return rsqrt_(tm.sum(amed));
        }
        return detail::team_blue_nrm2(tm, n, x);
    }
}

// x[0..n) *= s.
template <class Team, class V, class S>
BATCHEIG_HD void team_scal(const Team &tm, index_t n, S s, V x) {
    BATCHEIG_NO_UNROLL
    for (index_t i = tm.first(0); i < n; i += tm.size()) x[i] = x[i] * s;
    tm.sync();
}

// iamax over a team: the first index of the largest |re|+|im|.
template <class Team, class V>
BATCHEIG_HD index_t team_iamax(const Team &tm, index_t n, V x) {
    if constexpr (Team::serial) {
        return iamax(n, x);
    } else {
        using R = real_t<typename V::value_type>;
        R m = R(-1);
        index_t k = n;
        BATCHEIG_NO_UNROLL
        for (index_t i = tm.first(0); i < n; i += tm.size()) {
            R a = abs1(x[i]);
            if (a > m) {
                m = a;
                k = i;
            }
        }
        const R best = tm.max(m);
        const index_t first = tm.min(m == best ? k : n);
        return first < n ? first : 0;
    }
}

// |x[team_iamax(tm, n, x)]| (the modulus). For real types that is the
// largest |x[i]| itself (NaN entries never win, as in team_iamax; x[0]
// when none is compared): in a wide team, one reduction instead of
// iamax's two.
template <class Team, class V>
BATCHEIG_HD real_t<typename V::value_type> team_abs_at_iamax(const Team &tm, index_t n, V x) {
    using T = typename V::value_type;
    if constexpr (!Team::wide || is_complex<T>) {
        return cabs(x[team_iamax(tm, n, x)]);
    } else {
        T m = T(-1);
        BATCHEIG_NO_UNROLL
        for (index_t i = tm.first(0); i < n; i += tm.size()) {
            const T a = rabs(x[i]);
            if (a > m) m = a;
        }
        const T best = tm.max(m);
        return best >= T(0) ? best : rabs(x[0]);
    }
}

// Apply the rotation [c s; -s c] to (x, y) over a team.
template <class Team, class V, class R>
BATCHEIG_HD void team_rot(const Team &tm, index_t n, V x, V y, R c, R s) {
    BATCHEIG_NO_UNROLL
    for (index_t i = tm.first(0); i < n; i += tm.size()) {
        auto t = c * x[i] + s * y[i];
        y[i] = c * y[i] - s * x[i];
        x[i] = t;
    }
    tm.sync();
}

// larfg over a team, for a vector x in memory that the whole team sees:
// alpha (a private copy in every member) and tau come out identical in every
// member; x is scaled by the team.
template <class Team, class V>
BATCHEIG_HD void team_larfg(const Team &tm, index_t n, typename V::value_type &alpha, V x,
                            typename V::value_type &tau) {
#if defined(__CUDA_ARCH__)
    using T = typename V::value_type;
    if constexpr (Team::wide && !is_complex<T>) {
        // larfg_small's direct formula for a team on the GPU: one sum of
        // squares over the team, then beta, tau and the scaling from a
        // reciprocal square root and a reciprocal, where the general form
        // pays for a vote on the entries' range, a square root, an
        // overflow-safe hypotenuse (a division and a square root) and two
        // divisions. The same test admits the sums (NaN, Inf and zero x
        // fail it and take the general form).
        if (n > 1) {
            T part = T(0);
            BATCHEIG_NO_UNROLL  // a loop that runs once or twice per member
            for (index_t i = tm.first(0); i < n - 1; i += tm.size()) {
                const T xi = x[i];
                part += xi * xi;
            }
            const T xn2 = tm.sum(part);
            const T s2 = alpha * alpha + xn2;
            if (s2 < detail::larfg_big2<T> && xn2 >= detail::larfg_small2<T>) {
                team_scal(tm, n - 1, detail::larfg_direct(alpha, s2, tau), x);
                return;
            }
        }
    }
#endif
    detail::larfg_scalar(
        n, alpha, tau, [&]() { return team_nrm2(tm, n - 1, x); }, [&](auto s) { team_scal(tm, n - 1, s, x); });
}

}  // namespace batcheig::core
