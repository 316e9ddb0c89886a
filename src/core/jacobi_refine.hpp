// A double-precision finish for syevj / heevj from approximate eigenvectors
// (those of a single-precision Jacobi, say): the per-matrix part of one
// refinement iteration X <- X F: the per-matrix kernel of
// BATCHEIG_ALG_JACOBI_CUDA_MIXED (src/cuda/syevj/syevj_mixed.cuh); also run
// by test_syevj_refine and bench/experiments/syevj_refine_model.cpp.
//
// The caller forms, with GEMMs (the library's batched GEMMs, or the host's loops),
//     C = X^H X,   S = X^H (A X),
// and refine_update() turns them into the eigenvalue estimates
//     lambda_i = s_ii / c_ii
// and the update F (written over C) of
//     X <- X F,   F = I + R/2 + W,   R = I - C,
// W anti-Hermitian with, for i, j in different groups,
//     w_ij = (s_ij + r_ij (lambda_i + lambda_j) / 2) / (lambda_j - lambda_i),
// (s and r their Hermitian parts). This is the first-order update of Ogita
// and Aishima (2018), E_ij = (s_ij + lambda_j r_ij) / (lambda_j - lambda_i),
// with its Hermitian part R/2, which restores orthonormality, kept out of
// the division by the gap: close pairs then lose no orthogonality. Groups
// are runs of the sorted lambda with gaps <= delta,
//     delta = max(kRefineDeltaFactor (off(S) + max|lambda| ||R||_F),
//                 kRefineDeltaFloor max|lambda|),
// inside which w = 0; each group g of two or more is then solved exactly:
// the eigenvectors Q_g of its projected block S_gg - m I + m R_gg (m the
// group's mean lambda; two-sided Jacobi in the working precision) rotate
// its columns, F(:, g) <- F(:, g) Q_g, and lambda_g <- m + their
// eigenvalues. Convergence is quadratic, but the orthogonality lost to
// second order, about (s_ij / gap)^2, takes one more iteration for pairs
// far closer than ||A||: from single-precision vectors two iterations reach
// double accuracy on random and clustered spectra, three on close pairs and
// graded matrices, up to four on the tests' geometric spectra
// (test_syevj_refine). Rotating each group to its Ritz vectors before
// forming W (so W couples them instead of the raw group columns) was
// tried: the same iteration counts on 252 test matrices.
//
// While the columns are far from orthonormal (||R||_F above
// kRefineOrthFirstMinR and max|lambda| ||R||_F above kRefineOrthFirst
// off(S)), an iteration only orthogonalizes them,
// F = I + R/2, so that R does not inflate delta (below). A caller whose
// first iterate's S is off the diagonal mostly through lambda_j r_ij (the
// vectors of a tridiagonal method: inverse iteration gives accurate
// directions of imperfect orthogonality, so off(S) is about max|lambda|
// ||R||_F and the ratio test never holds) asks for that step with
// `orthogonalize`: then ||R||_F above kRefineOrthFirstMinR alone decides.
//
// Stopping: the update's first-order step is emax = max |F - I| outside the
// groups' rotations, and what it leaves is of order emax^2, so
// refine_converged() (emax^2 <= n u) says that X F is final, without
// another pass: on 504 test matrices (every family, n = 2..100, double and
// complex double) it never held for an X F short of the syevj thresholds,
// the smallest emax^2 after an iteration that fell short being 41 u.
#pragma once

#include "core/jacobi.hpp"

namespace batcheig::core::jacobi {

// delta's multiple of the first-order error bound. Ogita and Aishima use 2;
// 20 sends more near-degenerate pairs to the exact group solve, which took
// graded (geometric) spectra from 4-6 iterations to 3 in the model.
inline constexpr double kRefineDeltaFactor = 20;
// Pairs closer than this, relative to max |lambda|, always share a group:
// their w would be mostly the rounding of S divided by a tiny gap. 1e-6
// also groups the eigenvalues single precision cannot resolve: with 1e-8 an
// eigenvalue 1.4e-7 next to them converged at the rate (off / gap)^2 and
// the tests' geometric spectrum 1 .. 1e-8 of order 8 needed more iterations.
inline constexpr double kRefineDeltaFloor = 1e-6;
// When max|lambda| ||R||_F exceeds this multiple of off(S), the iteration
// only orthogonalizes: F = I + R/2 (X F is a Newton-Schulz step, which
// leaves ||R|| of order ||R||^2), with no W and no groups. Otherwise R's
// share of delta would group large runs of the spectrum: the grid
// variant's single-precision vectors at n = 256 start at ||R||_F = 2.7e-3
// against off(S) = 3e-4 (max|lambda| = 18), so delta was about 1 and the
// groups' exact solves took 80 % of the probe's time (docs/performance.md,
// session 45). The lane variant's vectors (||R|| about 4e-5 at n = 128,
// max|lambda| ||R|| about off(S)) never take this step.
inline constexpr double kRefineOrthFirst = 10;
// ... and when ||R||_F exceeds this: below it R's share of delta, 20
// max|lambda| ||R||_F, is at most 2e-3 max|lambda|, and near convergence
// (off(S) and R both at rounding level, or off(S) = 0 for n = 1) the
// ratio alone would keep the iteration orthogonalizing.
inline constexpr double kRefineOrthFirstMinR = 1e-4;

template <class R>
struct RefineNorms {
    R off = R(0);         // off(S) = sqrt(sum over i != j of |s_ij|^2)
    R rnorm = R(0);       // ||I - C||_F
    R amax = R(0);        // max |lambda_i|
    R delta = R(0);       // the group separation used
    index_t grouped = 0;  // indices in groups of two or more
    R emax = R(0);        // max |F - I| outside the groups' rotations: the
                          // first-order step, whose square the update leaves
    bool orth_only = false;  // F = I + R/2 only (kRefineOrthFirst): X F is
                             // never final
};

// Scratch of refine_update for order n.
//   order: n indices (position k of the ascending order -> index);
//   start: n indices (index -> ascending position of its group's first);
//   it:    the group block being solved (ld >= n, at least n x n);
//   q:     n * n elements: the groups' eigenvectors, packed (group after
//          group, each m x m with ld m);
//   tmp:   n x n (ld >= n): F(:, g) Q_g before it goes back to F; it may
//          be the same storage as it (it is used only before F is formed,
//          tmp only after), e.g. the dead A X half of the caller's [X AX];
//   b, z, wg: n reals each (solve_scalar's scratch; the groups' new
//          eigenvalues);
//   rot:   players(n) / 2 rotation slots (a team's parallel steps; unused
//          by a serial team).
// True when X F, the result of the iteration that returned `norms`, needs no
// further iteration (see the stopping note above). n: the order.
template <class R>
BATCHEIG_HD bool refine_converged(const RefineNorms<R> &norms, index_t n) {
    return !norms.orth_only && norms.emax * norms.emax <= R(n) * limits<R>::eps();  // eps() is u
}

template <class T>
struct RefineScratch {
    index_t *order;
    index_t *start;
    MatView<T> it;
    T *q;
    MatView<T> tmp;
    VecView<real_t<T>> b, z, wg;
    Rotation<T> *rot;
};

// Size of the group that starts at ascending position k0.
template <class T>
BATCHEIG_HD index_t group_size(index_t n, const RefineScratch<T> &ws, index_t k0) {
    index_t m = 1;
    while (k0 + m < n && ws.start[ws.order[k0 + m]] == k0) ++m;
    return m;
}

// The first part of an iteration: the Rayleigh quotients lambda_i = s_ii /
// c_ii, off(S), ||R||_F, max|lambda|, delta and the orthogonalizing-step
// decision of the iterate X that C and S came from. Neither c nor s is
// written. Collective over the team; ends with a sync. A caller that tests
// X itself (syevj's mixed variant) measures, and calls refine_update() with
// these norms only when X is not final.
template <class Team, class MC, class MS>
BATCHEIG_HD RefineNorms<real_t<typename MC::value_type>> refine_measure(
    const Team &tm, index_t n, MC c, MS s, VecView<real_t<typename MC::value_type>> lambda,
    bool orthogonalize = false) {
    using T = typename MC::value_type;
    using R = real_t<T>;
    RefineNorms<R> out;
    // Rayleigh quotients and the norms of S's off-diagonal part and of R.
    // The entries are dealt out in storage order (consecutive members take
    // consecutive rows of a column), so a GPU team's loads coalesce.
    R off2 = R(0), r2 = R(0), amax = R(0);
    for (index_t j = tm.first(0); j < n; j += tm.size()) {
        lambda[j] = real(s(j, j)) / real(c(j, j));
        amax = rmax(amax, rabs(lambda[j]));
    }
    for (index_t e = tm.first(0); e < n * n; e += tm.size()) {
        const index_t i = e % n, j = e / n;
        if (i != j) off2 += abs2(s(i, j));
        r2 += abs2(i == j ? T(R(1) - real(c(i, j))) : c(i, j));
    }
    out.off = rsqrt_(tm.sum(off2));
    out.rnorm = rsqrt_(tm.sum(r2));
    out.amax = tm.max(amax);
    out.delta = rmax(R(kRefineDeltaFactor) * (out.off + out.amax * out.rnorm), R(kRefineDeltaFloor) * out.amax);
    out.orth_only = out.rnorm > R(kRefineOrthFirstMinR) &&
                    (orthogonalize || out.amax * out.rnorm > R(kRefineOrthFirst) * out.off);
    tm.sync();  // lambda complete
    return out;
}

// The per-matrix part of one iteration (see above) after refine_measure():
// `measured` is what it returned for these c, s and lambda. c: C on entry,
// F on exit; s: S (read only); lambda: the n estimates on entry, updated by
// the groups' solves. Collective over the team; ends with a sync.
template <class Team, class MC, class MS>
BATCHEIG_HD RefineNorms<real_t<typename MC::value_type>> refine_update(
    const Team &tm, index_t n, MC c, MS s, VecView<real_t<typename MC::value_type>> lambda,
    const RefineScratch<typename MC::value_type> &ws, const RefineNorms<real_t<typename MC::value_type>> &measured) {
    using T = typename MC::value_type;
    using R = real_t<T>;
    RefineNorms<R> out = measured;
    if (out.orth_only) {
        // F = I + R/2 over C, entry by entry in storage order.
        R emax = R(0);
        for (index_t e = tm.first(0); e < n * n; e += tm.size()) {
            const index_t i = e % n, j = e / n;
            const T f = i == j ? T(R(1) + (R(1) - real(c(j, j))) * R(0.5)) : c(i, j) * R(-0.5);
            c(i, j) = f;
            emax = rmax(emax, i == j ? rabs(real(f) - R(1)) : abs1(f));
        }
        out.emax = tm.max(emax);
        tm.sync();
        return out;
    }
    // The ascending order, then the groups (the leader scans it once).
    for (index_t i = tm.first(0); i < n; i += tm.size()) ws.order[sorted_position(n, lambda, i)] = i;
    tm.sync();
    if (tm.leader()) {
        index_t first = 0;
        for (index_t k = 0; k < n; ++k) {
            if (k > 0 && lambda[ws.order[k]] - lambda[ws.order[k - 1]] > out.delta) first = k;
            ws.start[ws.order[k]] = first;
        }
    }
    tm.sync();
    // Each group of two or more: the eigenvectors of its projected block
    // into q (packed), its new eigenvalues into wg (by index).
    index_t packed = 0;
    for (index_t k0 = 0; k0 < n;) {
        const index_t m = group_size(n, ws, k0);
        if (m >= 2) {
            out.grouped += m;
            R mean = R(0);
            for (index_t a = 0; a < m; ++a) mean += lambda[ws.order[k0 + a]];
            mean /= R(m);
            for (index_t bb = tm.first(0); bb < m; bb += tm.size()) {
                const index_t j = ws.order[k0 + bb];
                for (index_t a = 0; a < m; ++a) {
                    const index_t i = ws.order[k0 + a];
                    const T sh = (s(i, j) + conj(s(j, i))) * R(0.5);
                    const T ch = (c(i, j) + conj(c(j, i))) * R(0.5);
                    // S_gg - m I + m R_gg, R = I - C: the identity terms cancel.
                    ws.it(a, bb) = a == bb ? T(real(sh) - mean * real(ch)) : sh - ch * mean;
                }
            }
            tm.sync();
            const MatView<T> qg{ws.q + packed, m, 1};
            set_identity(tm, m, qg);
            const R tol = R(2) * limits<R>::eps() * fro_norm(tm, m, ws.it);  // syevj's default, 2u
            solve_scalar(tm, m, ws.it, true, qg, ws.b, ws.z, tol, index_t(100), !Team::serial, ws.rot);
            for (index_t a = tm.first(0); a < m; a += tm.size()) ws.wg[ws.order[k0 + a]] = mean + ws.b[a];
            tm.sync();
            packed += m * m;
        }
        k0 += m;
    }
    // F = I + R/2 + W over C. Each pair i < j is one member's: it writes
    // entries (i, j) and (j, i), which no other member touches. The pairs
    // are dealt out in the storage order of the strict upper triangle
    // (k = j (j - 1) / 2 + i), so consecutive members read consecutive rows
    // of column j; then the diagonal.
    R emax = R(0);
    const index_t pairs = n * (n - 1) / 2;
    index_t j = 1;
    for (index_t k = tm.first(0); k < pairs; k += tm.size()) {
        while (j * (j + 1) / 2 <= k) ++j;  // k's column: j (j - 1) / 2 <= k < j (j + 1) / 2
        const index_t i = k - j * (j - 1) / 2;
        const T rh = -(c(i, j) + conj(c(j, i))) * R(0.5);  // r_ij, Hermitian part
        T fij = rh * R(0.5), fji = conj(rh) * R(0.5);
        if (ws.start[i] != ws.start[j]) {
            const T sh = (s(i, j) + conj(s(j, i))) * R(0.5);
            const T w = (sh + rh * ((lambda[i] + lambda[j]) * R(0.5))) / (lambda[j] - lambda[i]);
            fij += w;
            fji -= conj(w);
        }
        c(i, j) = fij;
        c(j, i) = fji;
        emax = rmax(emax, rmax(abs1(fij), abs1(fji)));
    }
    for (index_t jj = tm.first(0); jj < n; jj += tm.size()) {
        const R rjj = R(1) - real(c(jj, jj));
        c(jj, jj) = T(R(1) + rjj * R(0.5));
        emax = rmax(emax, rabs(rjj) * R(0.5));
    }
    out.emax = tm.max(emax);
    tm.sync();
    // F(:, g) <- F(:, g) Q_g, row by row, through tmp.
    packed = 0;
    for (index_t k0 = 0; k0 < n;) {
        const index_t m = group_size(n, ws, k0);
        if (m >= 2) {
            const MatView<T> qg{ws.q + packed, m, 1};
            for (index_t r = tm.first(0); r < n; r += tm.size()) {
                for (index_t bb = 0; bb < m; ++bb) {
                    T acc = T(0);
                    for (index_t a = 0; a < m; ++a) acc += c(r, ws.order[k0 + a]) * qg(a, bb);
                    ws.tmp(r, bb) = acc;
                }
                for (index_t bb = 0; bb < m; ++bb) c(r, ws.order[k0 + bb]) = ws.tmp(r, bb);
            }
            tm.sync();
            for (index_t a = tm.first(0); a < m; a += tm.size()) lambda[ws.order[k0 + a]] = ws.wg[ws.order[k0 + a]];
            tm.sync();
            packed += m * m;
        }
        k0 += m;
    }
    return out;
}

// One whole iteration: refine_measure() then refine_update(). c: C on
// entry, F on exit; s: S (read only); lambda: the n estimates on exit;
// orthogonalize: refine_measure()'s.
template <class Team, class MC, class MS>
BATCHEIG_HD RefineNorms<real_t<typename MC::value_type>> refine_update(
    const Team &tm, index_t n, MC c, MS s, VecView<real_t<typename MC::value_type>> lambda,
    const RefineScratch<typename MC::value_type> &ws, bool orthogonalize = false) {
    return refine_update(tm, n, c, s, lambda, ws, refine_measure(tm, n, c, s, lambda, orthogonalize));
}

}  // namespace batcheig::core::jacobi
