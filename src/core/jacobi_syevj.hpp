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
    index_t inner_max_sweeps = 30;  // block variant: sweeps of each 2nb x 2nb solve
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

// Scratch of one problem, laid out in one contiguous slice.
//   scalar: a (the iterate) and, with vectors, f (refine_orthonormal scratch);
//   block:  a (U = A Q), a0 (the scaled input, for the Rayleigh quotients),
//           m (Q^H U), q (Q when the caller's A does not hold it), the pair
//           scratch blk; a and m double as refine_orthonormal scratch.
template <class T>
struct SyevjWork {
    MatView<T> a, f, a0, m, q;
    VecView<real_t<T>> b, z;      // scalar variant: diagonal sums (n each)
    jacobi::BlockScratch<T> blk;  // block variant
    jacobi::Rotation<T> *rot;     // block variant: the nb + 1 rotations of an inner step

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
        std::size_t nt = std::size_t(work_ld(n) - n) * std::size_t(n), nr, nrot;  // T, R elements, rotations
        if (variant == JacobiVariant::Block) {
            const std::size_t ls = std::size_t(2 * nb);
            nt += nn * (want_v ? 3 : 4) + 2 * ls * ls + std::size_t(n) * ls;
            nr = 2 * ls;
            nrot = std::size_t(nb + 1);
        } else {
            nt += want_v ? 2 * nn : nn;
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
        // The iterate's leading dimension is odd: the scalar variant writes
        // rows p and q of it, and a power-of-two stride (n = 64, 128, ...)
        // would map a whole row onto a few cache sets.
        w.a = take(work_ld(n), n);
        if (variant == JacobiVariant::Block) {
            const index_t ls = 2 * nb;
            w.a0 = take(n, n);
            w.m = take(n, n);
            if (!want_v) w.q = take(n, n);
            w.blk.g = take(ls, ls);
            w.blk.w = take(ls, ls);
            w.blk.tmp = take(n, ls);
            char *base = static_cast<char *>(mem);
            const std::size_t t_bytes = static_cast<std::size_t>(reinterpret_cast<char *>(pt) - base);
            w.blk.rot = reinterpret_cast<jacobi::Rotation<T> *>(base + rotations_offset(t_bytes));
            w.rot = w.blk.rot;
            real_t<T> *pr = reinterpret_cast<real_t<T> *>(w.rot + (nb + 1));
            w.blk.b = VecView<real_t<T>>{pr, 1};
            w.blk.z = VecView<real_t<T>>{pr + ls, 1};
        } else {
            if (want_v) w.f = take(n, n);
            w.rot = nullptr;
            real_t<T> *pr = reinterpret_cast<real_t<T> *>(pt);
            w.b = VecView<real_t<T>>{pr, 1};
            w.z = VecView<real_t<T>>{pr + n, 1};
        }
        return w;
    }
};

// Eigenvalues (ascending when opt.sort) of the n x n Hermitian matrix whose
// `lower` (else upper) triangle is stored in a; with want_v, a is
// overwritten by the orthonormal eigenvectors (column j belongs to w[j]).
// Imaginary parts of the diagonal are ignored, the other triangle is never
// read. Returns the per-matrix info code: 0;
// BATCHEIG_INFO_JACOBI_NOT_CONVERGED (off(A) > tol ||A||_F after max_sweeps
// sweeps: w and a hold the current approximation); BATCHEIG_INFO_NONFINITE
// (the triangle holds NaN/Inf: w and, with want_v, a are set to NaN).
template <class T>
BATCHEIG_HD int syevj(bool want_v, bool lower, index_t n, MatView<T> a, VecView<real_t<T>> w,
                      const SyevjWork<T> &ws, const JacobiOptions &opt, JacobiStats &stats) {
    using R = real_t<T>;
    // Full Hermitian working copy of the triangle; largest |re|, |im|.
    R amax = R(0);
    bool finite = true;
    for (index_t j = 0; j < n; ++j) {
        for (index_t i = j; i < n; ++i) {
            const T x = i == j ? T(real(a(j, j))) : (lower ? a(i, j) : conj(a(j, i)));
            const R re = rabs(real(x)), im = rabs(imag(x));
            if (!is_finite(re) || !is_finite(im)) finite = false;
            else amax = rmax(amax, rmax(re, im));
            ws.a(i, j) = x;
            ws.a(j, i) = conj(x);
        }
    }
    stats.sweeps = 0;
    stats.residual = 0;
    if (!finite) {
        for (index_t i = 0; i < n; ++i) w[i] = R(NAN);
        if (want_v)
            for (index_t j = 0; j < n; ++j)
                for (index_t i = 0; i < n; ++i) a(i, j) = make_nan<T>();
        stats.residual = double(NAN);
        return BATCHEIG_INFO_NONFINITE;
    }
    if (want_v) jacobi::set_identity(n, a);
    if (amax == R(0)) {
        for (index_t i = 0; i < n; ++i) w[i] = R(0);
        return 0;
    }

    // Scale by a power of two (exact) to max |re|, |im| in [1, 2): the sums of
    // squares of the iteration can then neither overflow nor underflow
    // harmfully, whatever the magnitude of the input.
    const int e = rilogb(amax);
    if (e != 0) {
        // 2^-e itself is representable unless amax is subnormal or huge; then
        // scale entry by entry (slower, but exact as well).
        const R f = rldexp(R(1), -e);
        const bool direct = f > R(0) && is_finite(f);
        for (index_t j = 0; j < n; ++j)
            for (index_t i = 0; i < n; ++i) ws.a(i, j) = direct ? ws.a(i, j) * f : rldexp(ws.a(i, j), -e);
    }

    const R normf = jacobi::fro_norm(n, ws.a);
    R tol = opt.tol > 0 ? R(opt.tol) : jacobi_default_tol<R>();
    jacobi::SolveResult<R> res;
    if (opt.variant == JacobiVariant::Block) {
        tol = rmax(tol, jacobi::block_tol_floor<R>(n));
        const MatView<T> q = want_v ? a : ws.q;
        for (index_t j = 0; j < n; ++j)
            for (index_t i = 0; i < n; ++i) ws.a0(i, j) = ws.a(i, j);
        res = jacobi::solve_block(n, opt.nb, ws.a, q, ws.m, ws.blk, tol * normf, opt.max_sweeps,
                                  opt.inner_max_sweeps);
        // diag(Q^H U) carries the drift of U; orthonormalize Q (with and
        // without vectors, so that both give the same eigenvalues) and take
        // the Rayleigh quotients of the input instead.
        jacobi::refine_orthonormal(n, q, ws.m, ws.a);
        jacobi::rayleigh_quotients(n, ws.a0, q, w, ws.a.col(0));
    } else {
        res = jacobi::solve_scalar(n, ws.a, want_v, a, ws.b, ws.z, tol * normf, opt.max_sweeps, /*parallel=*/false,
                                   ws.rot);
        for (index_t i = 0; i < n; ++i) w[i] = real(ws.a(i, i));
        // The iterate is free now: it is the second scratch matrix.
        if (want_v) jacobi::refine_orthonormal(n, a, ws.f, ws.a);
    }
    if (opt.sort) jacobi::sort_ascending(n, w, want_v, a);
    if (e != 0)
        for (index_t i = 0; i < n; ++i) w[i] = rldexp(w[i], e);

    stats.sweeps = static_cast<int>(res.sweeps);
    stats.residual = double(res.off) / double(normf);
    return res.off <= tol * normf ? 0 : BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
}

}  // namespace batcheig::core
