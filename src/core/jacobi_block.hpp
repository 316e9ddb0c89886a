// One-sided block Jacobi for Hermitian matrices (Huang, Liu and Zhao 2023,
// algorithm 3), the method their GPU "global-memory" kernels use for n > 32.
//
// The columns are split into K blocks of nb columns (the last one may be
// narrower). The iteration keeps U = A Q and Q (Q = I, U = A at the start)
// and never touches rows, so column-major storage is only ever read and
// written by whole column blocks. For a pair (p, q) of column blocks with
// column set S (2 nb columns):
//   G   = Q_S^H U_S                 (the S x S block of Q^H A Q; a small GEMM)
//   G   = W D W^H                   (its eigen-decomposition: the scalar
//                                    two-sided Jacobi of jacobi.hpp in its
//                                    parallel-step form, which a GPU runs in
//                                    shared memory; W is re-orthonormalized)
//   U_S = U_S W,  Q_S = Q_S W       (two small GEMMs)
// The K/2 pairs of one round-robin step touch disjoint column sets, so a GPU
// runs them concurrently (one thread block per pair). After each sweep
// M = Q^H U, whose diagonal holds the eigenvalues, gives the convergence
// test off(M) <= tol ||A||_F.
//
// Numerical note. U is updated, not recomputed, so it drifts from A Q by
// rounding errors of order u ||A|| that later rotations cannot remove (unlike
// the two-sided method, where the iterate is the matrix itself). off(M)
// therefore has a floor of a few u sqrt(n) ||A||_F; see block_tol_floor().
#pragma once

#include "core/jacobi.hpp"

namespace batcheig::core::jacobi {

// Column set of a pair of column blocks: [p0, p0+lp) followed by [q0, q0+lq).
struct BlockPair {
    index_t p0, lp, q0, lq;
    BATCHEIG_HD index_t size() const { return lp + lq; }
    // k-th column of the set (0 <= k < size()).
    BATCHEIG_HD index_t col(index_t k) const { return k < lp ? p0 + k : q0 + (k - lp); }
};

BATCHEIG_HD index_t block_count(index_t n, index_t nb) { return (n + nb - 1) / nb; }

BATCHEIG_HD BlockPair block_pair(index_t n, index_t nb, index_t bp, index_t bq) {
    BlockPair s;
    s.p0 = bp * nb;
    s.lp = (s.p0 + nb <= n ? nb : n - s.p0);
    s.q0 = bq * nb;
    s.lq = (s.q0 + nb <= n ? nb : n - s.q0);
    return s;
}

// Smallest tolerance (relative to ||A||_F) the one-sided iteration can meet
// reliably: the drift of U plus the rounding of Q^H U, both of order
// sqrt(n) u ||A||_F for random rounding errors.
template <class R>
BATCHEIG_HD R block_tol_floor(index_t n) {
    return R(4) * rsqrt_(R(n)) * limits<R>::eps();
}

// G := Q_S^H U_S (ls x ls, ls = s.size()), the S x S block of Q^H A Q.
template <class T>
BATCHEIG_HD void gram_block(index_t n, const BlockPair &s, MatView<T> q, MatView<T> u, MatView<T> g) {
    const index_t ls = s.size();
    for (index_t j = 0; j < ls; ++j) {
        const VecView<T> uj = u.col(s.col(j));
        for (index_t i = 0; i < ls; ++i) {
            const VecView<T> qi = q.col(s.col(i));
            T acc = T(0);
            for (index_t r = 0; r < n; ++r) acc += conj(qi[r]) * uj[r];
            g(i, j) = acc;
        }
    }
}

// Make the ls x ls matrix g exactly Hermitian: the average of g and g^H
// (which discards the anti-Hermitian part of the rounding errors), real
// diagonal.
template <class T>
BATCHEIG_HD void hermitize(index_t ls, MatView<T> g) {
    using R = real_t<T>;
    for (index_t j = 0; j < ls; ++j) {
        g(j, j) = T(real(g(j, j)));
        for (index_t i = j + 1; i < ls; ++i) {
            const T x = (g(i, j) + conj(g(j, i))) * R(0.5);
            g(i, j) = x;
            g(j, i) = conj(x);
        }
    }
}

// X_S := X_S W for the n rows of X, through tmp (n x ls); W is ls x ls.
template <class T>
BATCHEIG_HD void update_columns(index_t n, const BlockPair &s, MatView<T> x, MatView<T> w, MatView<T> tmp) {
    const index_t ls = s.size();
    for (index_t j = 0; j < ls; ++j) {
        const VecView<T> tj = tmp.col(j);
        for (index_t r = 0; r < n; ++r) tj[r] = T(0);
        for (index_t k = 0; k < ls; ++k) {
            const T wkj = w(k, j);
            if (wkj == T(0)) continue;
            const VecView<T> xk = x.col(s.col(k));
            for (index_t r = 0; r < n; ++r) tj[r] += xk[r] * wkj;
        }
    }
    for (index_t j = 0; j < ls; ++j) {
        const VecView<T> tj = tmp.col(j), xj = x.col(s.col(j));
        for (index_t r = 0; r < n; ++r) xj[r] = tj[r];
    }
}

// M := Q^H U, computed in its lower triangle and mirrored (M is Hermitian
// up to rounding; the mirror keeps off(M) and the diagonal meaningful at
// half the cost).
template <class T>
BATCHEIG_HD void gram_full(index_t n, MatView<T> q, MatView<T> u, MatView<T> m) {
    for (index_t j = 0; j < n; ++j) {
        const VecView<T> uj = u.col(j);
        for (index_t i = j; i < n; ++i) {
            const VecView<T> qi = q.col(i);
            T acc = T(0);
            for (index_t r = 0; r < n; ++r) acc += conj(qi[r]) * uj[r];
            m(i, j) = acc;
            m(j, i) = conj(acc);
        }
        m(j, j) = T(real(m(j, j)));
    }
}

// Re-orthonormalize the columns of the ls x ls matrix w (modified
// Gram-Schmidt). w is the product of many rotations and is orthonormal only
// to about sqrt(#rotations) u; every block update multiplies Q by such a w,
// so without this the errors of all inner solves add up in Q.
template <class T>
BATCHEIG_HD void orthonormalize(index_t ls, MatView<T> w) {
    using R = real_t<T>;
    for (index_t j = 0; j < ls; ++j) {
        const VecView<T> wj = w.col(j);
        for (index_t k = 0; k < j; ++k) {
            const VecView<T> wk = w.col(k);
            T d = T(0);
            for (index_t r = 0; r < ls; ++r) d += conj(wk[r]) * wj[r];
            for (index_t r = 0; r < ls; ++r) wj[r] -= wk[r] * d;
        }
        R s = R(0);
        for (index_t r = 0; r < ls; ++r) s += abs2(wj[r]);
        const R inv = R(1) / rsqrt_(s);
        for (index_t r = 0; r < ls; ++r) wj[r] = wj[r] * inv;
    }
}

// w[k] = Re(q_k^H A q_k) for the n columns of q, through the n-vector t: the
// eigenvalues as Rayleigh quotients of the original matrix, free of the drift
// of U (their error is the rounding of A q_k, about sqrt(n) u ||A||, plus
// ||A q_k - w_k q_k||^2 / gap).
template <class T, class R>
BATCHEIG_HD void rayleigh_quotients(index_t n, MatView<T> a, MatView<T> q, VecView<R> w, VecView<T> t) {
    for (index_t k = 0; k < n; ++k) {
        const VecView<T> qk = q.col(k);
        for (index_t r = 0; r < n; ++r) t[r] = T(0);
        for (index_t c = 0; c < n; ++c) {
            const T x = qk[c];
            const VecView<T> ac = a.col(c);
            for (index_t r = 0; r < n; ++r) t[r] += ac[r] * x;
        }
        R acc = R(0);
        for (index_t r = 0; r < n; ++r) acc += real(conj(qk[r]) * t[r]);
        w[k] = acc;
    }
}

// Scratch of the block iteration: the pair's Gram matrix g and its
// eigenvectors w (2nb x 2nb), the GEMM buffer tmp (n x 2nb), and the
// diagonal sums (2nb each) and rotation slots (nb) of the inner scalar Jacobi.
template <class T>
struct BlockScratch {
    MatView<T> g, w, tmp;
    VecView<real_t<T>> b, z;  // 2nb: the inner solve's diagonal sums
    Rotation<T> *rot;
};

// One-sided block Jacobi on the full Hermitian n x n matrix held in u
// (overwritten by A Q). q receives the eigenvectors, m the final Q^H A Q
// (its diagonal holds the eigenvalues). Stops when off(m) <= tol_abs or
// after max_sweeps sweeps; each pair's 2nb x 2nb problem is solved by the
// scalar method with at most inner_max_sweeps sweeps.
template <class T>
BATCHEIG_HD SolveResult<real_t<T>> solve_block(index_t n, index_t nb, MatView<T> u, MatView<T> q, MatView<T> m,
                                               const BlockScratch<T> &sc, real_t<T> tol_abs, index_t max_sweeps,
                                               index_t inner_max_sweeps) {
    using R = real_t<T>;
    SolveResult<R> res;
    set_identity(n, q);
    for (index_t j = 0; j < n; ++j)
        for (index_t i = 0; i < n; ++i) m(i, j) = u(i, j);  // Q = I: Q^H U = A
    const index_t kb = block_count(n, nb);
    const index_t mp = players(kb);
    // A pair whose Gram block is this close to diagonal is skipped: the K(K-1)/2
    // pairs together then leave at most about tol_abs of off-diagonal mass.
    const R inner_tol = tol_abs / R(mp);
    for (;;) {
        res.off = off_norm(n, m);
        if (res.off <= tol_abs || res.sweeps >= max_sweeps) break;
        for (index_t step = 0; step < mp - 1; ++step) {
            for (index_t k = 0; k < mp / 2; ++k) {
                index_t bp, bq;
                round_robin_pair(mp, step, k, bp, bq);
                if (bq >= kb) continue;  // the dummy block of odd K
                const BlockPair s = block_pair(n, nb, bp, bq);
                const index_t ls = s.size();
                gram_block(n, s, q, u, sc.g);
                hermitize(ls, sc.g);
                if (off_norm(ls, sc.g) <= inner_tol) continue;
                set_identity(ls, sc.w);
                solve_scalar(SerialTeam{}, ls, sc.g, true, sc.w, sc.b, sc.z, inner_tol, inner_max_sweeps, /*parallel=*/true,
                             sc.rot);
                orthonormalize(ls, sc.w);
                update_columns(n, s, u, sc.w, sc.tmp);
                update_columns(n, s, q, sc.w, sc.tmp);
            }
        }
        ++res.sweeps;
        gram_full(n, q, u, m);
    }
    return res;
}

}  // namespace batcheig::core::jacobi
