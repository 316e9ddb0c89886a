// One symmetric / Hermitian eigenproblem by Jacobi's method (syevj, heevj):
// read the `uplo` triangle into a full Hermitian working copy, check it for
// NaN/Inf, scale it by a power of two, iterate (two-sided scalar Jacobi or
// one-sided block Jacobi), then read off, sort and unscale the eigenvalues.
// Every backend calls this routine on one matrix (the host backend on
// column-major views of a per-thread workspace).
#pragma once

#include "batcheig.h"
#include "core/jacobi_block.hpp"

namespace batcheig::core {

enum class JacobiVariant {
    Scalar,  // two-sided cyclic Jacobi, round-robin steps of n/2 rotations
    Block    // one-sided block Jacobi on 2nb x 2nb Gram blocks
};

struct JacobiOptions {
    JacobiVariant variant = JacobiVariant::Scalar;
    double tol = 0;              // relative to ||A||_F; <= 0: jacobi_default_tol<R>()
    index_t max_sweeps = 100;
    bool sort = true;            // ascending eigenvalues, vectors alike
    index_t nb = 1;              // block variant: columns per block
    // Block variants: sweeps of each 2nb x 2nb solve. One sweep leaves the
    // pair far from diagonal early on, but the outer sweeps return to it;
    // one was the fastest on the GPU (tuning::cuda_jacobi_block_nb), for
    // at most one outer sweep more.
    index_t inner_max_sweeps = 1;
};

// Per-matrix diagnostics: sweeps executed and off(A_final) / ||A||_F (NaN
// for a matrix holding NaN/Inf).
struct JacobiStats {
    int sweeps = 0;
    double residual = 0;
};

// Default convergence tolerance: off(A) <= 2u ||A||_F, i.e. the machine
// epsilon of the precision (cuSOLVER's syevj default). The last sweep of
// Jacobi's quadratically convergent iteration usually takes off(A) far below
// it, so a looser default would rarely save a sweep.
template <class R>
BATCHEIG_HD R jacobi_default_tol() {
    return R(2) * limits<R>::eps();
}

// Block width of the block variant for an n x n problem: the tuned width
// nb_max, but at most n/4 (and at least 1) so that small problems still
// split into several blocks instead of degenerating to one scalar solve.
BATCHEIG_HD index_t jacobi_block_width(index_t n, index_t nb_max) {
    index_t nb = n / 4;
    if (nb > nb_max) nb = nb_max;
    return nb < 1 ? 1 : nb;
}

// Relative tolerance of the block variants: tol (default
// jacobi_default_tol()), but at least block_tol_floor(n).
template <class R>
BATCHEIG_HD R block_tol(double tol, index_t n) {
    const R t = tol > 0 ? R(tol) : jacobi_default_tol<R>();
    return rmax(t, jacobi::block_tol_floor<R>(n));
}

// The stopping rule of the one-sided kernels that update U = A Q in place
// and test after whole sweeps (the CUDA lane and cluster variants):
// sweep() runs one sweep and returns the sum of |g_ij|^2, i != j, as the
// sweep met them (off(Q^H A Q)^2 as met); exact() returns off(Q^H U),
// computed exactly. Jacobi converges quadratically, so once a sweep met
// off <= sqrt(tol ||A||_F) (tol absolute here) the off left after it is
// usually below tol, and the exact test (cheaper than a sweep) saves the
// next sweep. A matrix runs at least one sweep (max_sweeps >= 1), and the
// off returned is always an exact one. Returns it; sweeps counts the sweeps.
template <class R, class Sweep, class Exact>
BATCHEIG_HD R sweep_to_tolerance(int max_sweeps, R tol, R normf, Sweep &&sweep, Exact &&exact, int &sweeps) {
    const R probe = rsqrt_(tol * normf);
    R off = R(0);
    bool have_off = false;
    sweeps = 0;
    for (;;) {
        if (sweeps >= max_sweeps) {
            if (!have_off) off = exact();
            return off;
        }
        const R est = rsqrt_(sweep());
        ++sweeps;
        have_off = false;
        if (est <= probe) {
            off = exact();
            have_off = true;
            if (off <= tol) return off;
        }
    }
}

// Scratch of one problem, laid out in one contiguous slice.
//   scalar: a (the iterate) and, with vectors, f (refine_orthonormal scratch);
//   block:  q (Q), m (where the refined vectors go before they are copied
//           to the caller's A), the pair scratch blk, wv (the unsorted
//           eigenvalues). U = A Q lives in the caller's A.
template <class T>
struct SyevjWork {
    MatView<T> a, f, m, q;
    VecView<real_t<T>> b, z;      // scalar variant: diagonal sums (n each)
    VecView<real_t<T>> wv;        // block variant: the eigenvalues, unsorted (n)
    jacobi::BlockScratch<T> blk;  // block variant
    jacobi::Rotation<T> *rot;     // block variant: the nb rotation slots of an inner step

    // Byte offset of the rotations after `t_bytes` bytes of T arrays.
    BATCHEIG_HD static std::size_t rotations_offset(std::size_t t_bytes) {
        const std::size_t al = alignof(jacobi::Rotation<T>);
        return (t_bytes + al - 1) / al * al;
    }

    // Leading dimension of the iterate: n rounded up to odd.
    BATCHEIG_HD static index_t work_ld(index_t n) { return n | 1; }

    // Bytes of one contiguous SyevjWork.
    BATCHEIG_HD static std::size_t bytes(index_t n, bool want_v, JacobiVariant variant, index_t nb) {
        const std::size_t nn = std::size_t(n) * std::size_t(n);
        std::size_t nt, nr, nrot;  // T, R elements, rotations
        if (variant == JacobiVariant::Block) {
            const std::size_t ls = std::size_t(2 * nb);
            nt = nn * (want_v ? 2 : 1) + 3 * ls * ls + std::size_t(n) * ls;
            nr = 2 * ls + std::size_t(n);
            nrot = std::size_t(nb);
        } else {
            nt = std::size_t(work_ld(n) - n) * std::size_t(n) + (want_v ? 2 * nn : nn);
            nr = 2 * std::size_t(n);
            nrot = 0;  // the sequential steps keep one rotation in registers
        }
        // T arrays, then the rotations (aligned: they hold 8-byte members, and
        // float arrays may end on a 4-byte boundary), then the reals.
        return rotations_offset(nt * sizeof(T)) + nrot * sizeof(jacobi::Rotation<T>) + nr * sizeof(real_t<T>);
    }
    // Lay a SyevjWork out over `mem` (64-byte aligned; T arrays first).
    BATCHEIG_HD static SyevjWork carve(void *mem, index_t n, bool want_v, JacobiVariant variant, index_t nb) {
        SyevjWork w{};
        T *pt = static_cast<T *>(mem);
        auto take = [&](index_t rows, index_t cols) {
            MatView<T> v{pt, rows, 1};
            pt += std::size_t(rows) * std::size_t(cols);
            return v;
        };
        if (variant == JacobiVariant::Block) {
            const index_t ls = 2 * nb;
            w.q = take(n, n);
            if (want_v) w.m = take(n, n);
            w.blk.g = take(ls, ls);
            w.blk.w = take(ls, ls);
            w.blk.f = take(ls, ls);
            w.blk.tmp = take(n, ls);
            char *base = static_cast<char *>(mem);
            const std::size_t t_bytes = static_cast<std::size_t>(reinterpret_cast<char *>(pt) - base);
            w.blk.rot = reinterpret_cast<jacobi::Rotation<T> *>(base + rotations_offset(t_bytes));
            w.rot = w.blk.rot;
            real_t<T> *pr = reinterpret_cast<real_t<T> *>(w.rot + nb);
            w.blk.b = VecView<real_t<T>>{pr, 1};
            w.blk.z = VecView<real_t<T>>{pr + ls, 1};
            w.wv = VecView<real_t<T>>{pr + 2 * ls, 1};
        } else {
            // The iterate's leading dimension is odd: the scalar variant writes
            // rows p and q of it, and a power-of-two stride (n = 64, 128, ...)
            // would map a whole row onto a few cache sets.
            w.a = take(work_ld(n), n);
            if (want_v) w.f = take(n, n);
            w.rot = nullptr;
            real_t<T> *pr = reinterpret_cast<real_t<T> *>(pt);
            w.b = VecView<real_t<T>>{pr, 1};
            w.z = VecView<real_t<T>>{pr + n, 1};
        }
        return w;
    }
};

namespace jacobi {

enum class Loaded { Ok, Zero, NonFinite };

// Entry (i, j) of the Hermitian matrix whose `lower` (else upper) triangle a
// holds: the diagonal's imaginary part dropped, the other triangle by
// conjugation.
template <class MA>
BATCHEIG_HD typename MA::value_type hermitian_entry(bool lower, MA a, index_t i, index_t j) {
    using T = typename MA::value_type;
    if (i == j) return T(real(a(i, i)));
    return (i > j) == lower ? a(i, j) : conj(a(j, i));
}

// The load's check of one entry: bad set for NaN/Inf, else amax raised to
// max(|re|, |im|).
template <class T, class R>
BATCHEIG_HD void check_entry(const T &x, R &amax, int &bad) {
    const R re = rabs(real(x)), im = rabs(imag(x));
    if (!is_finite(re) || !is_finite(im)) bad = 1;
    else amax = rmax(amax, rmax(re, im));
}

// Exact scaling by 2^-e: by the factor 2^-e itself where it is
// representable, else (amax subnormal or huge) entry by entry.
template <class R>
struct Pow2Scale {
    int e;
    R f;
    bool direct;
    BATCHEIG_HD explicit Pow2Scale(int e_) : e(e_), f(rldexp(R(1), -e_)), direct(f > R(0) && is_finite(f)) {}
    template <class T>
    BATCHEIG_HD T operator()(const T &x) const {
        return direct ? x * f : rldexp(x, -e);
    }
};

// Read the `lower` (else upper) triangle of a into the full Hermitian matrix
// it (imaginary parts of the diagonal dropped) and scale it by 2^-e, exactly,
// to max |re|, |im| in [1, 2): the sums of squares of the iteration can then
// neither overflow nor underflow harmfully, whatever the magnitude of the
// input. Every member returns the same verdict; a is not read afterwards.
template <class Team, class MA, class MS>
BATCHEIG_HD Loaded load_scaled(const Team &tm, bool lower, index_t n, MA a, MS it, int &e) {
    using T = typename MA::value_type;
    using R = real_t<T>;
    R amax = R(0);
    int bad = 0;
    for (index_t j = tm.first(0); j < n; j += tm.size()) {
        for (index_t i = j; i < n; ++i) {
            const T x = hermitian_entry(lower, a, i, j);
            check_entry(x, amax, bad);
            it(i, j) = x;
            it(j, i) = conj(x);
        }
    }
    // The reductions order memory like a sync: it is complete afterwards.
    bad = tm.max(bad);
    amax = tm.max(amax);
    e = 0;
    if (bad) return Loaded::NonFinite;
    if (amax == R(0)) return Loaded::Zero;
    e = rilogb(amax);
    if (e != 0) {
        const Pow2Scale<R> scale(e);
        for (index_t j = tm.first(0); j < n; j += tm.size())
            for (index_t i = 0; i < n; ++i) it(i, j) = scale(it(i, j));
    }
    return Loaded::Ok;
}

// The results of a matrix that holds NaN/Inf (w and, with vectors, a set to
// NaN) or is zero (w = 0, vectors I). Returns the info code.
template <class Team, class MA, class R>
BATCHEIG_HD int special_result(const Team &tm, Loaded ld, bool want_v, index_t n, MA a, VecView<R> w,
                               JacobiStats &stats) {
    using T = typename MA::value_type;
    const bool nan = ld == Loaded::NonFinite;
    for (index_t i = tm.first(0); i < n; i += tm.size()) w[i] = nan ? R(NAN) : R(0);
    if (want_v) {
        if (nan) {
            for (index_t j = tm.first(0); j < n; j += tm.size())
                for (index_t i = 0; i < n; ++i) a(i, j) = make_nan<T>();
        } else {
            set_identity(tm, n, a);
        }
    }
    tm.sync();
    stats.residual = nan ? double(NAN) : 0.0;
    return nan ? BATCHEIG_INFO_NONFINITE : 0;
}

// The two-sided (scalar) method on one matrix with a team. a: the caller's
// matrix (the triangle on entry, the vectors on exit); w: the eigenvalues.
// it: the iterate (odd leading dimension); v: where the rotations are
// accumulated (a itself, or scratch); f: refine_orthonormal's F (not it
// when v is a); out: where the refined, sorted vectors go (a, or scratch
// that copy_out then copies to a; never v). b, z: n reals; rot: the
// players(n)/2 rotation slots of the parallel steps (unused by a serial
// team running the sequential ones, parallel = false).
template <class Team, class MA, class MS, class MV, class MF, class MO, class R>
BATCHEIG_HD int syevj_scalar(const Team &tm, bool want_v, bool lower, index_t n, MA a, VecView<R> w, MS it, MV v,
                             MF f, MO out, bool copy_out, VecView<R> b, VecView<R> z,
                             Rotation<typename MA::value_type> *rot, bool parallel, const JacobiOptions &opt,
                             JacobiStats &stats) {
    stats.sweeps = 0;
    stats.residual = 0;
    int e = 0;
    const Loaded ld = load_scaled(tm, lower, n, a, it, e);
    if (ld != Loaded::Ok) return special_result(tm, ld, want_v, n, a, w, stats);
    if (want_v) set_identity(tm, n, v);
    const R normf = fro_norm(tm, n, it);
    const R tol = opt.tol > 0 ? R(opt.tol) : jacobi_default_tol<R>();
    const SolveResult<R> res = solve_scalar(tm, n, it, want_v, v, b, z, tol * normf, opt.max_sweeps, parallel, rot);
    // b holds the diagonal of the final iterate.
    for (index_t i = tm.first(0); i < n; i += tm.size())
        w[opt.sort ? sorted_position(n, b, i) : i] = e != 0 ? rldexp(b[i], e) : b[i];
    if (want_v) {
        refine_orthonormal(tm, n, v, f, out, opt.sort, b);
        if (copy_out) {
            for (index_t j = tm.first(0); j < n; j += tm.size())
                for (index_t r = 0; r < n; ++r) a(r, j) = out(r, j);
            tm.sync();
        }
    }
    stats.sweeps = static_cast<int>(res.sweeps);
    stats.residual = double(res.off) / double(normf);
    return res.off <= tol * normf ? 0 : BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
}

// The one-sided block method on one matrix (serial; the host's block
// variant). Arguments as core::syevj. The caller's a holds U = A Q during
// the iteration (so without vectors it is left as scratch); with vectors,
// F = (I - Q^H Q) / 2 goes there once the eigenvalues are read, the refined
// and sorted vectors to ws.m, then to a.
template <class T>
BATCHEIG_HD int syevj_block(bool want_v, bool lower, index_t n, MatView<T> a, VecView<real_t<T>> w,
                            const SyevjWork<T> &ws, const JacobiOptions &opt, JacobiStats &stats) {
    using R = real_t<T>;
    const SerialTeam tm;
    stats.sweeps = 0;
    stats.residual = 0;
    int e = 0;
    const Loaded ld = load_scaled(tm, lower, n, a, a, e);
    if (ld != Loaded::Ok) return special_result(tm, ld, want_v, n, a, w, stats);
    const R normf = fro_norm(tm, n, a);
    const R tol = block_tol<R>(opt.tol, n);
    const SolveResult<R> res =
        solve_block(n, opt.nb, a, ws.q, ws.blk, tol * normf, opt.max_sweeps, opt.inner_max_sweeps);
    block_eigenvalues(tm, n, ws.q, a, ws.wv);
    for (index_t i = 0; i < n; ++i)
        w[opt.sort ? sorted_position(n, ws.wv, i) : i] = e != 0 ? rldexp(ws.wv[i], e) : ws.wv[i];
    if (want_v) {
        refine_orthonormal(tm, n, ws.q, a, ws.m, opt.sort, ws.wv);
        for (index_t j = 0; j < n; ++j)
            for (index_t r = 0; r < n; ++r) a(r, j) = ws.m(r, j);
    }
    stats.sweeps = static_cast<int>(res.sweeps);
    stats.residual = double(res.off) / double(normf);
    return res.off <= tol * normf ? 0 : BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
}

}  // namespace jacobi

// Eigenvalues (ascending when opt.sort) of the n x n Hermitian matrix whose
// `lower` (else upper) triangle is stored in a; with want_v, a is
// overwritten by the orthonormal eigenvectors (column j belongs to w[j]).
// Imaginary parts of the diagonal are ignored, the other triangle is never
// read. Returns the per-matrix info code: 0;
// BATCHEIG_INFO_JACOBI_NOT_CONVERGED (off(A) > tol ||A||_F after max_sweeps
// sweeps: w and a hold the current approximation); BATCHEIG_INFO_NONFINITE
// (the triangle holds NaN/Inf: w and, with vectors, a are set to NaN).
// One thread, the host's sequential steps (the GPU kernels call
// jacobi::syevj_scalar with a team).
template <class T>
BATCHEIG_HD int syevj(bool want_v, bool lower, index_t n, MatView<T> a, VecView<real_t<T>> w,
                      const SyevjWork<T> &ws, const JacobiOptions &opt, JacobiStats &stats) {
    if (opt.variant == JacobiVariant::Block) return jacobi::syevj_block(want_v, lower, n, a, w, ws, opt, stats);
    return jacobi::syevj_scalar(SerialTeam{}, want_v, lower, n, a, w, ws.a, a, ws.f, ws.a, /*copy_out=*/true, ws.b,
                                ws.z, static_cast<jacobi::Rotation<T> *>(nullptr), /*parallel=*/false, opt, stats);
}

}  // namespace batcheig::core
