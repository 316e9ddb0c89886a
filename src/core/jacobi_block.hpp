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
//                                    shared memory; W is re-orthonormalized
//                                    by one Newton-Schulz step)
//   U_S = U_S W,  Q_S = Q_S W       (two small GEMMs)
// The K/2 pairs of one round-robin step touch disjoint column sets, so a GPU
// runs them concurrently (a warp per pair). Before each sweep off(Q^H U)
// is tested against tol ||A||_F; at the end the eigenvalues are the
// diagonal of Q^H U (block_eigenvalues()). U lives in the caller's matrix,
// so the scratch of a problem is Q and the pair scratch.
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

// The floor of the CUDA lane variant's Gram form (every n > 64, and the
// smaller n where tuning::cuda_jacobi_pair_gram picks it): twice
// block_tol_floor. The Gram form adds the rounding of W^H W, of order
// u sigma^2 for a shift sigma of a few ||A||_F / sqrt(n) (more for the
// shift that always holds). On the tests' graded, clustered and +-1
// matrices of order 97..128 it stalled at 1.05 to 1.6 times
// block_tol_floor, and on an orthogonal similarity of a geometric spectrum
// of order 64 in complex double at 1.007 times (cuda/syevj/syevj_pair.cuh).
template <class R>
BATCHEIG_HD R lane_gram_tol_floor(index_t n) {
    return R(2) * block_tol_floor<R>(n);
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
// diagonal. Member j owns entries (i, j) and (j, i) for i >= j, so the
// members never touch each other's entries.
template <class Team, class M>
BATCHEIG_HD void hermitize(const Team &tm, index_t ls, M g) {
    using T = typename M::value_type;
    using R = real_t<T>;
    for (index_t j = tm.first(0); j < ls; j += tm.size()) {
        g(j, j) = T(real(g(j, j)));
        for (index_t i = j + 1; i < ls; ++i) {
            const T x = (g(i, j) + conj(g(j, i))) * R(0.5);
            g(i, j) = x;
            g(j, i) = conj(x);
        }
    }
    tm.sync();
}
template <class T>
BATCHEIG_HD void hermitize(index_t ls, MatView<T> g) {
    hermitize(SerialTeam{}, ls, g);
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

// off(Q^H U) = sqrt(2 sum_{i > j} |q_i^H u_j|^2): the off-diagonal norm of
// the current iterate M = Q^H U, from its lower triangle (M is Hermitian up
// to rounding), without storing M. Each product is summed in row order.
template <class Team, class MQ, class MU>
BATCHEIG_HD real_t<typename MQ::value_type> gram_off(const Team &tm, index_t n, MQ q, MU u) {
    using T = typename MQ::value_type;
    using R = real_t<T>;
    tm.sync();
    R s = R(0);
    for (index_t j = tm.first(0); j < n; j += tm.size()) {
        for (index_t i = j + 1; i < n; ++i) {
            T acc = T(0);
            for (index_t r = 0; r < n; ++r) acc += conj(q(r, i)) * u(r, j);
            s += abs2(acc);
        }
    }
    return rsqrt_(R(2) * tm.sum(s));
}

// w[k] = Re(q_k^H u_k) / (q_k^H q_k): the eigenvalues as the diagonal of
// Q^H U, each divided by the squared norm of its column of Q (Q is
// orthonormal only to a few u sqrt(sweeps); the quotient removes that first-
// order error). Their error is the drift of U = A Q, of order
// sqrt(updates) u ||A|| (see block_tol_floor()).
template <class Team, class MQ, class MU, class R>
BATCHEIG_HD void block_eigenvalues(const Team &tm, index_t n, MQ q, MU u, VecView<R> w) {
    using T = typename MQ::value_type;
    tm.sync();
    for (index_t k = tm.first(0); k < n; k += tm.size()) {
        R num = R(0), den = R(0);
        for (index_t r = 0; r < n; ++r) {
            const T x = q(r, k);
            num += real(conj(x) * u(r, k));
            den += abs2(x);
        }
        w[k] = num / den;
    }
    tm.sync();
}

// Scratch of the block iteration: the pair's Gram matrix g, its
// eigenvectors w and the orthonormality correction f (2nb x 2nb each), the
// GEMM buffer tmp (n x 2nb), and the diagonal sums (2nb each) and rotation
// slots (nb) of the inner scalar Jacobi.
template <class T>
struct BlockScratch {
    MatView<T> g, w, f, tmp;
    VecView<real_t<T>> b, z;  // 2nb: the inner solve's diagonal sums
    Rotation<T> *rot;
};

// Eigen-decomposition of one pair's Gram block g (ls x ls, Hermitian,
// overwritten): returns false when g is already diagonal to inner_tol (the
// pair is skipped); else its eigenvectors, re-orthonormalized by one
// Newton-Schulz step (refine_orthonormal: w is the product of many
// rotations and orthonormal only to about sqrt(#rotations) u, and every
// block update multiplies Q by it), end up in g. Every member returns the
// same verdict.
template <class Team, class M>
BATCHEIG_HD bool pair_rotation(const Team &tm, index_t ls, M g, M w, M f, VecView<real_t<typename M::value_type>> b,
                               VecView<real_t<typename M::value_type>> z, Rotation<typename M::value_type> *rot,
                               real_t<typename M::value_type> inner_tol, index_t inner_max_sweeps) {
    hermitize(tm, ls, g);
    if (off_norm(tm, ls, g) <= inner_tol) return false;
    set_identity(tm, ls, w);
    solve_scalar(tm, ls, g, true, w, b, z, inner_tol, inner_max_sweeps, /*parallel=*/true, rot);
    refine_orthonormal(tm, ls, w, f, g, false, VecView<real_t<typename M::value_type>>{nullptr, 1});
    return true;
}

// One-sided block Jacobi on the full Hermitian n x n matrix held in u
// (overwritten by A Q); q receives Q. Stops when off(Q^H U) <= tol_abs or
// after max_sweeps sweeps; each pair's 2nb x 2nb problem is solved by the
// scalar method with at most inner_max_sweeps sweeps. The serial form (the
// host's block variant); the CUDA block kernel runs the same steps with a
// warp per pair.
template <class T, class MU>
BATCHEIG_HD SolveResult<real_t<T>> solve_block(index_t n, index_t nb, MU u, MatView<T> q, const BlockScratch<T> &sc,
                                               real_t<T> tol_abs, index_t max_sweeps, index_t inner_max_sweeps) {
    using R = real_t<T>;
    const SerialTeam tm;
    SolveResult<R> res;
    set_identity(n, q);
    const index_t kb = block_count(n, nb);
    const index_t mp = players(kb);
    // A pair whose Gram block is this close to diagonal is skipped: the K(K-1)/2
    // pairs together then leave at most about tol_abs of off-diagonal mass.
    const R inner_tol = tol_abs / R(mp);
    for (;;) {
        res.off = gram_off(tm, n, q, u);
        if (res.off <= tol_abs || res.sweeps >= max_sweeps) break;
        for (index_t step = 0; step < mp - 1; ++step) {
            for (index_t k = 0; k < mp / 2; ++k) {
                index_t bp, bq;
                round_robin_pair(mp, step, k, bp, bq);
                if (bq >= kb) continue;  // the dummy block of odd K
                const BlockPair s = block_pair(n, nb, bp, bq);
                const index_t ls = s.size();
                gram_block(n, s, q, u, sc.g);
                if (!pair_rotation(tm, ls, sc.g, sc.w, sc.f, sc.b, sc.z, sc.rot, inner_tol, inner_max_sweeps))
                    continue;
                update_columns(n, s, u, sc.g, sc.tmp);
                update_columns(n, s, q, sc.g, sc.tmp);
            }
        }
        ++res.sweeps;
    }
    return res;
}

}  // namespace batcheig::core::jacobi
