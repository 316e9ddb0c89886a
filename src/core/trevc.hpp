// Eigenvectors of a (quasi-)triangular Schur form T by back-substitution,
// back-transformed by the Schur vectors Q (xTREVC with HOWMNY = 'B'):
// on entry vr / vl hold Q, on exit the eigenvectors of the original matrix,
// each scaled so that its largest component has |re| + |im| = 1.
//
// Every division is guarded: near-singular pivots are perturbed to smin and
// the right-hand side is rescaled when an update could overflow, as LAPACK.
//
// Three phases per side (right, then left), so that a team works on many
// eigenvectors at once:
//   1. solve: the eigenvectors of T (column ki, or the pair that ends
//      (right) or starts (left) at ki) exactly as LAPACK; the solutions X
//      are kept in the part of T's array below its subdiagonal, which T
//      does not use (column col in row col + 3 for the right vectors,
//      mirrored for the left ones), and the last three columns in the 3n
//      scratch `xt`. Each eigenvector is solved by the member that owns
//      it, but for the right vectors of a real Schur form in a team (at
//      least kTrevcWavefrontMinTeam members, n >= kTrevcWavefrontMinN):
//      one wavefront over T's diagonal blocks (right_team_solve), the
//      owner of each eigenvector taking its pivots and the whole team its
//      updates;
//   2. back-transform: each member overwrites whole rows of Q by Q X, the
//      columns in the order that lets Q be overwritten in place;
//   3. scale: each member scales the columns it owns.
// The arithmetic of every entry is the serial xTREVC's, whatever the team.
//
// On the GPU the loops are not unrolled (BATCHEIG_NO_UNROLL): the members of
// a warp run different solves and phases at once, and with the loops
// unrolled the eigenvector launch's code (18 k instructions for double)
// kept its warps waiting for instruction fetches most of the time; rolled,
// it is half the size and about half the time (double, n = 30, on an
// H100), with the same results.
#pragma once

#include "core/laln2.hpp"

namespace batcheig::core {

namespace detail {
// 1-norms of the strictly upper triangular columns of t (overflow control).
template <class Team, class M, class V>
BATCHEIG_HD void column_norms(const Team &tm, index_t n, M t, V cn) {
    using R = typename V::value_type;
    for (index_t j = tm.first(0); j < n; j += tm.size()) {
        R s = R(0);
        BATCHEIG_NO_UNROLL
        for (index_t i = 0; i < j; ++i) s += abs1(t(i, j));
        cn[j] = s;
    }
    tm.sync();
}

// Whether x_column marks its view as shared memory (assume_shared) where T's
// array is a SharedView. Without the mark the compiler addresses X (the
// back-transformation's and the wavefront updates' loads and stores)
// through generic 64-bit pointers. Measured on an H100 with right vectors
// (batcheig_bench geev --vectors, ms, batch 200 000; each A/B alternated
// on one machine; docs/performance.md, sessions 103 and 106), results
// bitwise the same:
//   float, marked against unmarked (session 103, through a helper):
//     n = 20 / 24 / 30 15.58 / 23.74 / 35.52 against 15.99 / 24.63 / 37.02;
//   float, the mark set here on the view against that helper (session
//     106): 15.44 / 23.57 / 34.32 against 15.59 / 23.72 / 35.58;
//   double, this form marked against unmarked (session 106): n = 20 / 25 /
//     30 / 40 31.28 / 47.78 / 62.88 / 77.67 against 31.81 / 48.59 / 62.43 /
//     78.97, so 0.7 % slower at n = 30, the issue-4 size for right vectors;
//   the complex types within 0.5 % (session 103, not alternated).
// So float only. (Marking also the views that the solves keep, and laln2's
// views of T, gave wrong float vectors on the GPU; sessions 103-105.)
template <class T>
inline constexpr bool kTrevcXShared = std::is_same_v<T, float>;

// Column col of the eigenvector solutions X until the back-transformation:
// a right vector has entries 0..col+1, a left one col-1..n-1, so column
// col lives in row col + 3 of t (entries (col + 3, k), k <= col + 1, all at
// least two below the diagonal), a left one mirrored ((n + 2 - col, n - 1 -
// k)); the three columns that do not fit (col >= n - 3) live in xt (3n).
// With a SharedView t both lie in shared memory; in float the view says so
// to the compiler (kTrevcXShared).
template <class M, class V>
BATCHEIG_HD VecView<typename M::value_type> x_column(M t, V xt, index_t n, index_t col, bool left) {
    using T = typename M::value_type;
    const std::int64_t step = std::int64_t(t.ld) * t.es;
    const index_t c = left ? n - 1 - col : col;
    VecView<T> x;
    if (c + 3 < n) {
        x = left ? VecView<T>{&t(c + 3, n - 1), -step} : VecView<T>{&t(c + 3, 0), step};
    } else {
        T *base = &xt[(c - (n - 3)) * n];
        x = left ? VecView<T>{base + std::int64_t(n - 1) * xt.inc, -xt.inc} : VecView<T>{base, xt.inc};
    }
    if constexpr (kTrevcXShared<T> && is_shared_view<M>) x.p = assume_shared(x.p);
    return x;
}

// True when columns (ki - 1, ki) of the real Schur form t are a 2x2 block.
template <class M>
BATCHEIG_HD bool pair_ends_at(M t, index_t ki) {
    if constexpr (is_complex<typename M::value_type>) return false;
    else return ki > 0 && t(ki, ki - 1) != typename M::value_type(0);
}

// True when columns (ki, ki + 1) of t are a 2x2 block.
template <class M>
BATCHEIG_HD bool pair_starts_at(M t, index_t n, index_t ki) {
    return ki + 1 < n && pair_ends_at(t, ki + 1);
}

// x[lo..hi] *= s, where s != 1.
template <class V, class R>
BATCHEIG_HD void scale_range(index_t lo, index_t hi, V x, R s) {
    if (s == R(1)) return;
    BATCHEIG_NO_UNROLL
    for (index_t k = lo; k <= hi; ++k) x[k] = x[k] * s;
}

// Sum of t(k, j) * x[k] (conj(t(k, j)) for conj_t) over k in [lo, hi).
template <bool conj_t, class M, class V>
BATCHEIG_HD typename V::value_type dot_column(index_t lo, index_t hi, M t, index_t j, V x) {
    typename V::value_type s = typename V::value_type(0);
    BATCHEIG_NO_UNROLL
    for (index_t k = lo; k < hi; ++k) {
        if constexpr (conj_t) s += conj(t(k, j)) * x[k];
        else s += t(k, j) * x[k];
    }
    return s;
}

// Overflow thresholds of the solves.
template <class R>
struct TrevcLimits {
    R ulp, smlnum, bignum;
    BATCHEIG_HD explicit TrevcLimits(index_t n)
        : ulp(limits<R>::ulp()), smlnum(limits<R>::safmin() * (R(n) / ulp)), bignum((R(1) - ulp) / smlnum) {}
};

// ---- Real Schur form: the solves of one eigenvector (or pair) ---------------

// x[k] -= xj * t(k, j), and the 2x2 pivot's x[k] -= xa * t(k, j - 1) +
// xb * t(k, j): one entry of a back-substitution update, the same
// expression for a serial solve (right_update_rows) and for a team's
// (right_team_solve).
template <class S, class E>
BATCHEIG_HD void sub1(S &xk, S xj, E tj) {
    xk -= xj * tj;
}
template <class R>
BATCHEIG_HD void sub2(R &xk, R xa, R ta, R xb, R tb) {
    xk -= xa * ta + xb * tb;
}

// The right eigenvector that ends at column ki of the real Schur form t:
// the real eigenvalue t(ki, ki), or the pair (ki - 1, ki) with eigenvalue
// wr + i wi; smin bounds the solves' pivots from below.
template <class R>
struct RightVector {
    index_t ki;
    bool pair;
    R wr, wi, smin;
};
template <class M, class R>
BATCHEIG_HD RightVector<R> right_vector(index_t ki, M t, const TrevcLimits<R> &lim) {
    RightVector<R> v{ki, pair_ends_at(t, ki), t(ki, ki), R(0), R(0)};
    if (v.pair) {
        v.wi = rsqrt_(rabs(t(ki, ki - 1))) * rsqrt_(rabs(t(ki - 1, ki)));
        v.smin = rmax(lim.ulp * (rabs(v.wr) + rabs(v.wi)), lim.smlnum);
    } else {
        v.smin = rmax(lim.ulp * rabs(v.wr), lim.smlnum);
    }
    return v;
}

// Where the solution of v lives (x_column): xr the real eigenvector or a
// pair's real part (column ki - 1), xi a pair's imaginary part (column ki).
template <class M, class V, class R>
BATCHEIG_HD void right_views(M t, V xt, index_t n, const RightVector<R> &v, VecView<R> &xr, VecView<R> &xi) {
    xr = x_column(t, xt, n, v.pair ? v.ki - 1 : v.ki, false);
    xi = v.pair ? x_column(t, xt, n, v.ki, false) : xr;
}

// The right-hand side before the back-substitution: a real eigenvalue
// solves (T(0:ki-1,0:ki-1) - wr) x = -T(0:ki-1, ki) into xr[0..ki]; a pair
// puts its real part in xr[0..ki] and its imaginary part in xi[0..ki].
template <class M, class R>
BATCHEIG_HD void right_start(const RightVector<R> &v, M t, VecView<R> xr, VecView<R> xi) {
    const index_t ki = v.ki;
    if (!v.pair) {
        BATCHEIG_NO_UNROLL
        for (index_t k = 0; k <= ki; ++k) xr[k] = k == ki ? R(1) : -t(k, ki);
        return;
    }
    R xr0, xi1;  // xr[ki-1], xi[ki]
    if (rabs(t(ki - 1, ki)) >= rabs(t(ki, ki - 1))) {
        xr0 = R(1);
        xi1 = v.wi / t(ki - 1, ki);
    } else {
        xr0 = -v.wi / t(ki, ki - 1);
        xi1 = R(1);
    }
    BATCHEIG_NO_UNROLL
    for (index_t k = 0; k <= ki; ++k) {
        if (k == ki - 1) {
            xr[k] = xr0;
            xi[k] = R(0);
        } else if (k == ki) {
            xr[k] = R(0);
            xi[k] = xi1;
        } else {
            xr[k] = -xr0 * t(k, ki - 1);
            xi[k] = -xi1 * t(k, ki);
        }
    }
}

// One pivot of the back-substitution, the diagonal block of T that ends at
// row j (two: the 2x2 block (j-1, j)): solve it (laln2), scale the whole
// solution (x[0..ki], both parts of a pair) when that avoids an overflow,
// and store the block's entries x[j] (and x[j-1]). The updates of the rows
// above the block (right_update_rows, or right_team_solve's) follow.
template <class M, class V, class R>
BATCHEIG_HD void right_pivot(const RightVector<R> &v, index_t j, bool two, M t, V cn, VecView<R> xr, VecView<R> xi,
                             const TrevcLimits<R> &lim) {
    R x[4], b[4];
    R scale, xnorm;
    const index_t ki = v.ki;
    if (!v.pair) {
        if (!two) {
            b[0] = xr[j];
            laln2(false, 1, 1, v.smin, MatView<R>{&t(j, j), t.ld, t.es}, b, v.wr, R(0), x, scale, xnorm);
            // Scale x to avoid overflow when updating the right-hand side.
            if (xnorm > R(1) && cn[j] > lim.bignum / xnorm) {
                x[0] /= xnorm;
                scale /= xnorm;
            }
            scale_range(0, ki, xr, scale);
            xr[j] = x[0];
        } else {
            b[0] = xr[j - 1];
            b[1] = xr[j];
            laln2(false, 2, 1, v.smin, MatView<R>{&t(j - 1, j - 1), t.ld, t.es}, b, v.wr, R(0), x, scale, xnorm);
            if (xnorm > R(1)) {
                R beta = rmax(cn[j - 1], cn[j]);
                if (beta > lim.bignum / xnorm) {
                    x[0] /= xnorm;
                    x[1] /= xnorm;
                    scale /= xnorm;
                }
            }
            scale_range(0, ki, xr, scale);
            xr[j - 1] = x[0];
            xr[j] = x[1];
        }
        return;
    }
    if (!two) {
        b[0] = xr[j];
        b[2] = xi[j];
        laln2(false, 1, 2, v.smin, MatView<R>{&t(j, j), t.ld, t.es}, b, v.wr, v.wi, x, scale, xnorm);
        if (xnorm > R(1) && cn[j] > lim.bignum / xnorm) {
            x[0] /= xnorm;
            x[2] /= xnorm;
            scale /= xnorm;
        }
        scale_range(0, ki, xr, scale);
        xr[j] = x[0];
        scale_range(0, ki, xi, scale);
        xi[j] = x[2];
    } else {
        b[0] = xr[j - 1];
        b[1] = xr[j];
        b[2] = xi[j - 1];
        b[3] = xi[j];
        laln2(false, 2, 2, v.smin, MatView<R>{&t(j - 1, j - 1), t.ld, t.es}, b, v.wr, v.wi, x, scale, xnorm);
        if (xnorm > R(1)) {
            R beta = rmax(cn[j - 1], cn[j]);
            if (beta > lim.bignum / xnorm) {
                R rec = R(1) / xnorm;
                for (int q = 0; q < 4; ++q) x[q] *= rec;
                scale *= rec;
            }
        }
        scale_range(0, ki, xr, scale);
        xr[j - 1] = x[0];
        xr[j] = x[1];
        scale_range(0, ki, xi, scale);
        xi[j - 1] = x[2];
        xi[j] = x[3];
    }
}

// The update after right_pivot, serially: x[k] for k above the block.
template <class M, class V>
BATCHEIG_HD void right_update_rows(index_t j, bool two, M t, V x) {
    if (two) {
        const auto xa = x[j - 1], xb = x[j];
        BATCHEIG_NO_UNROLL
        for (index_t k = 0; k < j - 1; ++k) sub2(x[k], xa, t(k, j - 1), xb, t(k, j));
    } else {
        const auto xj = x[j];
        BATCHEIG_NO_UNROLL
        for (index_t k = 0; k < j; ++k) sub1(x[k], xj, t(k, j));
    }
}

// The right eigenvector (or pair) that ends at column ki, serially into
// x_column's storage: real part of a pair at column ki - 1, imaginary part
// at ki.
template <class M, class V, class R>
BATCHEIG_HD void solve_right_serial(index_t n, index_t ki, M t, V cn, V xt, const TrevcLimits<R> &lim) {
    const RightVector<R> v = right_vector(ki, t, lim);
    VecView<R> xr, xi;
    right_views(t, xt, n, v, xr, xi);
    right_start(v, t, xr, xi);
    bool two = false;  // the diagonal block ending at row j is 2x2
    for (index_t j = v.pair ? ki - 2 : ki - 1; j >= 0; j -= two ? 2 : 1) {
        two = pair_ends_at(t, j);
        right_pivot(v, j, two, t, cn, xr, xi, lim);
        right_update_rows(j, two, t, xr);
        if (v.pair) right_update_rows(j, two, t, xi);
    }
}

// Left eigenvector of the real eigenvalue t(ki, ki): solve
// (T(ki+1:, ki+1:) - wr)^T x = -T(ki, ki+1:)^T into xr[ki..n-1].
template <class M, class V, class R>
BATCHEIG_HD void solve_left_real(index_t n, index_t ki, M t, V cn, VecView<R> xr, const TrevcLimits<R> &lim) {
    R x[4], b[4];
    const R wr = t(ki, ki);
    const R smin = rmax(lim.ulp * rabs(wr), lim.smlnum);
    BATCHEIG_NO_UNROLL
    for (index_t k = ki; k < n; ++k) xr[k] = k == ki ? R(1) : -t(ki, k);
    R vmax = R(1), vcrit = lim.bignum;
    bool two = false;  // the diagonal block starting at row j is 2x2
    for (index_t j = ki + 1; j < n; j += two ? 2 : 1) {
        two = j < n - 1 && t(j + 1, j) != R(0);
        R scale, xnorm;
        if (!two) {
            // Scale if necessary to avoid overflow when forming the right-hand side.
            if (cn[j] > vcrit) {
                scale_range(ki, n - 1, xr, R(1) / vmax);
                vmax = R(1);
                vcrit = lim.bignum;
            }
            b[0] = xr[j] - dot_column<false>(ki + 1, j, t, j, xr);
            laln2(false, 1, 1, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, R(0), x, scale, xnorm);
            scale_range(ki, n - 1, xr, scale);
            xr[j] = x[0];
            vmax = rmax(rabs(x[0]), vmax);
            vcrit = lim.bignum / vmax;
        } else {
            R beta = rmax(cn[j], cn[j + 1]);
            if (beta > vcrit) {
                scale_range(ki, n - 1, xr, R(1) / vmax);
                vmax = R(1);
                vcrit = lim.bignum;
            }
            b[0] = xr[j] - dot_column<false>(ki + 1, j, t, j, xr);
            b[1] = xr[j + 1] - dot_column<false>(ki + 1, j, t, j + 1, xr);
            laln2(true, 2, 1, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, R(0), x, scale, xnorm);
            scale_range(ki, n - 1, xr, scale);
            xr[j] = x[0];
            xr[j + 1] = x[1];
            vmax = rmax(rmax(rabs(x[0]), rabs(x[1])), vmax);
            vcrit = lim.bignum / vmax;
        }
    }
}

// Left eigenvector of the pair (ki, ki+1), eigenvalue wr - i wi: real part
// into xr[ki..n-1], imaginary part into xi[ki..n-1].
template <class M, class V, class R>
BATCHEIG_HD void solve_left_pair(index_t n, index_t ki, M t, V cn, VecView<R> xr, VecView<R> xi,
                                 const TrevcLimits<R> &lim) {
    R x[4], b[4];
    const R wr = t(ki, ki);
    const R wi = rsqrt_(rabs(t(ki, ki + 1))) * rsqrt_(rabs(t(ki + 1, ki)));
    const R smin = rmax(lim.ulp * (rabs(wr) + rabs(wi)), lim.smlnum);
    R xr0, xi1;  // xr[ki], xi[ki+1]
    if (rabs(t(ki, ki + 1)) >= rabs(t(ki + 1, ki))) {
        xr0 = wi / t(ki, ki + 1);
        xi1 = R(1);
    } else {
        xr0 = R(1);
        xi1 = -wi / t(ki + 1, ki);
    }
    BATCHEIG_NO_UNROLL
    for (index_t k = ki; k < n; ++k) {
        if (k == ki) {
            xr[k] = xr0;
            xi[k] = R(0);
        } else if (k == ki + 1) {
            xr[k] = R(0);
            xi[k] = xi1;
        } else {
            xr[k] = -xr0 * t(ki, k);
            xi[k] = -xi1 * t(ki + 1, k);
        }
    }
    R vmax = R(1), vcrit = lim.bignum;
    bool two = false;  // the diagonal block starting at row j is 2x2
    for (index_t j = ki + 2; j < n; j += two ? 2 : 1) {
        two = j < n - 1 && t(j + 1, j) != R(0);
        R scale, xnorm;
        if (!two) {
            if (cn[j] > vcrit) {
                const R rec = R(1) / vmax;
                scale_range(ki, n - 1, xr, rec);
                scale_range(ki, n - 1, xi, rec);
                vmax = R(1);
                vcrit = lim.bignum;
            }
            b[0] = xr[j] - dot_column<false>(ki + 2, j, t, j, xr);
            b[2] = xi[j] - dot_column<false>(ki + 2, j, t, j, xi);
            laln2(false, 1, 2, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, -wi, x, scale, xnorm);
            scale_range(ki, n - 1, xr, scale);
            scale_range(ki, n - 1, xi, scale);
            xr[j] = x[0];
            xi[j] = x[2];
            vmax = rmax(rmax(rabs(x[0]), rabs(x[2])), vmax);
            vcrit = lim.bignum / vmax;
        } else {
            R beta = rmax(cn[j], cn[j + 1]);
            if (beta > vcrit) {
                const R rec = R(1) / vmax;
                scale_range(ki, n - 1, xr, rec);
                scale_range(ki, n - 1, xi, rec);
                vmax = R(1);
                vcrit = lim.bignum;
            }
            const R sr0 = dot_column<false>(ki + 2, j, t, j, xr);
            const R si0 = dot_column<false>(ki + 2, j, t, j, xi);
            const R sr1 = dot_column<false>(ki + 2, j, t, j + 1, xr);
            const R si1 = dot_column<false>(ki + 2, j, t, j + 1, xi);
            b[0] = xr[j] - sr0;
            b[1] = xr[j + 1] - sr1;
            b[2] = xi[j] - si0;
            b[3] = xi[j + 1] - si1;
            laln2(true, 2, 2, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, -wi, x, scale, xnorm);
            scale_range(ki, n - 1, xr, scale);
            scale_range(ki, n - 1, xi, scale);
            xr[j] = x[0];
            xi[j] = x[2];
            xr[j + 1] = x[1];
            xi[j + 1] = x[3];
            vmax = rmax(rmax(rmax(rabs(x[0]), rabs(x[2])), rmax(rabs(x[1]), rabs(x[3]))), vmax);
            vcrit = lim.bignum / vmax;
        }
    }
}

// ---- Complex Schur form: the solves of one eigenvector ----------------------

// Solve d * xj = rhs with |d| kept >= smin; returns the factor (<= 1) by
// which the whole right-hand side must be scaled first to avoid overflow.
template <class T, class R>
BATCHEIG_HD R guarded_div(T rhs, T d, R smin, R bignum, T &xj) {
    if (abs1(d) < smin) d = T(smin);
    R cnorm = abs1(d), bnorm = abs1(rhs), scale = R(1);
    if (cnorm < R(1) && bnorm > R(1) && bnorm > bignum * cnorm) scale = R(1) / bnorm;
    xj = (rhs * scale) / d;
    return scale;
}

// Right eigenvector of t(ki, ki) of the complex Schur form: back-substitution
// (T(0:ki-1,0:ki-1) - lambda) x = -T(0:ki-1, ki) into x[0..ki], one pivot
// per row j < ki, each followed by the update of the rows above it
// (right_update_rows, as the real form's).
template <class M, class V, class T, class R>
BATCHEIG_HD void solve_right_complex(index_t ki, M t, V cn, VecView<T> x, const TrevcLimits<R> &lim) {
    const T lambda = t(ki, ki);
    const R smin = rmax(lim.ulp * abs1(lambda), lim.smlnum);
    BATCHEIG_NO_UNROLL
    for (index_t k = 0; k <= ki; ++k) x[k] = k == ki ? T(R(1)) : -t(k, ki);
    for (index_t j = ki - 1; j >= 0; --j) {
        T xj;
        R scale = guarded_div(x[j], t(j, j) - lambda, smin, lim.bignum, xj);
        R xnorm = abs1(xj);
        if (xnorm > R(1) && cn[j] > lim.bignum / xnorm) {
            xj = xj / xnorm;
            scale /= xnorm;
        }
        scale_range(0, ki, x, scale);
        x[j] = xj;
        right_update_rows(j, false, t, x);
    }
}

// The right eigenvectors of a real Schur form over a team, all at once: a
// wavefront over the diagonal blocks of T from the last. At the block that
// ends at row j (two: 2x2), every eigenvector that ends in a later column
// takes its pivot, by the member that owns its last column (pivot(ki, j,
// two)); then the team updates the entries above the block of all of them
// together (x_column's storage: a real eigenvector, or a pair's real or
// imaginary part, per column). Every entry gets the serial solve's
// arithmetic in the serial order, so the results are those of the
// per-member solve. (A member that solved its own eigenvectors alone kept
// about a third of a warp busy: the eigenvectors' lengths differ, and at
// any moment the members stood at different blocks, 1x1 and 2x2.)
template <class Team, class M, class V, class Pivot>
BATCHEIG_HD void right_team_solve(const Team &tm, index_t n, M t, V xt, Pivot pivot) {
    bool two = false, stepped = false;
    for (index_t j = n - 1; j >= 0; j -= two ? 2 : 1) {
        two = pair_ends_at(t, j);
        if (j >= n - 1) continue;  // no eigenvector ends after the block
        stepped = true;
        for (index_t ki = tm.first(j + 1); ki < n; ki += tm.size()) pivot(ki, j, two);
        tm.sync();  // every pivot entry and scaling is in place
        // The updates: a tile of the active columns (j, n) by the rows above
        // the block per member, gc columns apart (gc a power of two, at most
        // the active columns, so a member takes one or two) and gk rows
        // apart.
        const index_t rows = two ? j - 1 : j, active = n - 1 - j;
        index_t gc = 1, lg = 0;
        while (2 * gc <= active && 2 * gc <= tm.size()) {
            gc *= 2;
            ++lg;
        }
        const index_t gk = tm.size() >> lg, k0 = tm.rank() >> lg;
        BATCHEIG_NO_UNROLL
        for (index_t c = j + 1 + (tm.rank() & (gc - 1)); c < n && k0 < gk; c += gc) {
            const auto x = x_column(t, xt, n, c, false);
            auto *xp = &x[k0];  // x[k], stepped (as in transformed)
            const auto xs = x.inc * gk;
            if (two) {
                const auto xa = x[j - 1], xb = x[j];
                BATCHEIG_NO_UNROLL
                for (index_t k = k0; k < rows; k += gk, xp += xs) sub2(*xp, xa, t(k, j - 1), xb, t(k, j));
            } else {
                const auto xj = x[j];
                BATCHEIG_NO_UNROLL
                for (index_t k = k0; k < rows; k += gk, xp += xs) sub1(*xp, xj, t(k, j));
            }
        }
        tm.sync();  // the updated entries are in place for the next pivots
    }
    if (!stepped) tm.sync();  // one block (n = 1, or a 2x2 T): the starts are the solutions
}

// Left eigenvector of t(ki, ki): forward substitution
// (T(ki+1:,ki+1:) - lambda)^H x = s * rhs into x[ki..n-1].
template <class M, class V, class T, class R>
BATCHEIG_HD void solve_left_complex(index_t n, index_t ki, M t, V cn, VecView<T> x, const TrevcLimits<R> &lim) {
    const T lambda = t(ki, ki);
    const R smin = rmax(lim.ulp * abs1(lambda), lim.smlnum);
    BATCHEIG_NO_UNROLL
    for (index_t k = ki; k < n; ++k) x[k] = k == ki ? T(R(1)) : -conj(t(ki, k));
    R vmax = R(1), vcrit = lim.bignum;
    for (index_t j = ki + 1; j < n; ++j) {
        if (cn[j] > vcrit) {
            scale_range(ki, n - 1, x, R(1) / vmax);
            vmax = R(1);
            vcrit = lim.bignum;
        }
        const T s = dot_column<true>(ki + 1, j, t, j, x);
        T xj;
        R scale = guarded_div(x[j] - s, conj(t(j, j) - lambda), smin, lim.bignum, xj);
        scale_range(ki, n - 1, x, scale);
        x[j] = xj;
        vmax = rmax(abs1(xj), vmax);
        vcrit = lim.bignum / vmax;
    }
}

// ---- Phases 2 and 3 ----------------------------------------------------------

// q(r, col) * x[col] + sum of q(r, c) * x[c] over c in [c0, c0 + len), the
// back-transformed entry r of column col.
// (The loop steps pointers: x's stride is 64-bit, and indexing it cost a
// multiplication per entry on the GPU. Two terms per trip here, and a
// pair's two sums in one pass in transformed_pair, measured together in
// one process on an H200, right vectors, batch 100 000, ms: double n = 12
// 4.998 -> 4.923, 20 17.08 -> 17.14, 30 33.16 -> 33.17, 40 85.27 ->
// 83.50, 48 151.5 -> 147.1; float n = 46 59.12 -> 57.60; bitwise the same
// results; docs/performance.md, session 76.)
template <class M, class V>
BATCHEIG_HD typename M::value_type transformed(M q, index_t r, index_t col, index_t c0, index_t len, V x) {
    auto y = q(r, col) * x[col];
    if (len <= 0) return y;
    const auto *qp = &q(r, c0), *xp = &x[c0];
    const auto qs = q.ld * q.es, xs = x.inc;
    // Two terms per trip, in order: the same sum in half the loop's steps.
    index_t c = 0;
    BATCHEIG_NO_UNROLL
    for (; c + 1 < len; c += 2, qp += 2 * qs, xp += 2 * xs) {
        y += qp[0] * xp[0];
        y += qp[qs] * xp[xs];
    }
    if (c < len) y += *qp * *xp;
    return y;
}

// Both entries r of a pair's columns ca and cb at once (ya: transformed(q,
// r, ca, c0, len, xa); yb: the same with cb, xb), each row entry of q read
// once for both sums; each sum keeps its own order, so the results are
// those of two calls.
template <class M, class V>
BATCHEIG_HD void transformed_pair(M q, index_t r, index_t ca, index_t cb, index_t c0, index_t len, V xa, V xb,
                                  typename M::value_type &ya, typename M::value_type &yb) {
    ya = q(r, ca) * xa[ca];
    yb = q(r, cb) * xb[cb];
    if (len <= 0) return;
    const auto *qp = &q(r, c0), *ap = &xa[c0], *bp = &xb[c0];
    const auto qs = q.ld * q.es;
    BATCHEIG_NO_UNROLL
    for (index_t c = 0; c < len; ++c, qp += qs, ap += xa.inc, bp += xb.inc) {
        const auto qv = *qp;
        ya += qv * *ap;
        yb += qv * *bp;
    }
}

// Entry r of the right eigenvector (or pair) that ends at column ki, from
// Q and X, written over q(r, ki) (and q(r, ki - 1)); returns the first
// column written. Column ki of Q X needs columns 0..ki of Q, so the columns
// are done from the last.
template <class M, class V>
BATCHEIG_HD index_t back_transform_right_row(index_t n, M t, M q, V xt, index_t r, index_t ki) {
    if (pair_ends_at(t, ki)) {
        typename M::value_type yr, yi;
        transformed_pair(q, r, ki - 1, ki, 0, ki - 1, x_column(t, xt, n, ki - 1, false),
                         x_column(t, xt, n, ki, false), yr, yi);
        q(r, ki - 1) = yr;
        q(r, ki) = yi;
        return ki - 1;
    }
    q(r, ki) = transformed(q, r, ki, 0, ki, x_column(t, xt, n, ki, false));
    return ki;
}

// As back_transform_right_row for the left eigenvector (or pair) that
// starts at column ki (columns done from the first); returns the last
// column written.
template <class M, class V>
BATCHEIG_HD index_t back_transform_left_row(index_t n, M t, M q, V xt, index_t r, index_t ki) {
    if (pair_starts_at(t, n, ki)) {
        typename M::value_type yr, yi;
        transformed_pair(q, r, ki, ki + 1, ki + 2, n - ki - 2, x_column(t, xt, n, ki, true),
                         x_column(t, xt, n, ki + 1, true), yr, yi);
        q(r, ki) = yr;
        q(r, ki + 1) = yi;
        return ki + 1;
    }
    q(r, ki) = transformed(q, r, ki, ki + 1, n - ki - 1, x_column(t, xt, n, ki, true));
    return ki;
}

// Scale the eigenvector in column ki (a real pair: columns ki, ki + 1) so
// that its largest |re| + |im| (pair: |v(k, re)| + |v(k, im)|) is 1.
template <class M>
BATCHEIG_HD void scale_column(index_t n, M t, M v, index_t ki) {
    using R = real_t<typename M::value_type>;
    if (pair_starts_at(t, n, ki)) {
        R emax = R(0);
        BATCHEIG_NO_UNROLL
        for (index_t k = 0; k < n; ++k) emax = rmax(emax, rabs(real(v(k, ki))) + rabs(real(v(k, ki + 1))));
        const R remax = R(1) / emax;
        BATCHEIG_NO_UNROLL
        for (index_t k = 0; k < n; ++k) v(k, ki) = v(k, ki) * remax;
        BATCHEIG_NO_UNROLL
        for (index_t k = 0; k < n; ++k) v(k, ki + 1) = v(k, ki + 1) * remax;
    } else {
        const R emax = abs1(v(iamax(n, v.col(ki)), ki));
        BATCHEIG_NO_UNROLL
        for (index_t k = 0; k < n; ++k) v(k, ki) = v(k, ki) * (R(1) / emax);
    }
}

// Phases 2 and 3 of one side over a team: q = q X in place, each member
// whole rows; then each member scales the eigenvectors whose first column
// it owns.
template <class Team, class M, class V>
BATCHEIG_HD void back_transform_and_scale(const Team &tm, bool left, index_t n, M t, M q, V xt) {
    for (index_t r = tm.first(0); r < n; r += tm.size()) {
        if (left)
            for (index_t ki = 0; ki < n; ++ki) ki = back_transform_left_row(n, t, q, xt, r, ki);
        else
            for (index_t ki = n - 1; ki >= 0; --ki) ki = back_transform_right_row(n, t, q, xt, r, ki);
    }
    tm.sync();
    for (index_t ki = tm.first(0); ki < n; ki += tm.size())
        if (!pair_ends_at(t, ki)) scale_column(n, t, q, ki);
    tm.sync();
}

// back_transform_left_row / back_transform_right_row for rows
// [0, r_end) with r_end the largest multiple of kCpuBlock<T> <= n, the
// rows of a block at once (a team_cpu_blocked team, unit element stride):
// each row's sums in transformed's (transformed_pair's) order, so bitwise
// the row forms' results; the block's sums are independent chains and
// read down q's columns. Column ca (and cb = ca + 1 for a pair) is
// written from itself (x's entry ca, cb) and columns [c0, c0 + len).
template <bool Pair, class M, class X>
BATCHEIG_HD index_t back_transform_blocked_cols(index_t n, M q, index_t ca, index_t c0, index_t len, X xa, X xb) {
    using T = typename M::value_type;
    constexpr index_t B = kCpuBlock<T>;
    constexpr index_t P = Pair ? 2 : 1;
    T *q0 = &q(0, 0);
    const std::int64_t ld = q.ld;
    const X x[2] = {xa, xb};
    index_t r = 0;
    for (; r + B <= n; r += B) {
        T y[P][B];
        for (index_t p = 0; p < P; ++p) {
            const T *qa = q0 + (ca + p) * ld + r;
            const T xc = x[p][ca + p];
            for (index_t u = 0; u < B; ++u) y[p][u] = qa[u] * xc;
        }
        for (index_t k = 0; k < len; ++k) {
            const index_t c = c0 + k;
            const T *qc = q0 + c * ld + r;
            for (index_t p = 0; p < P; ++p) {
                const T xc = x[p][c];
                for (index_t u = 0; u < B; ++u) y[p][u] += qc[u] * xc;
            }
        }
        for (index_t p = 0; p < P; ++p)
            for (index_t u = 0; u < B; ++u) q0[(ca + p) * ld + r + u] = y[p][u];
    }
    return r;
}

// The back-transformation of the eigenvector (or pair) ki, as the row
// forms choose its columns; returns the first row left to them.
template <class M, class V>
BATCHEIG_HD index_t back_transform_blocked(bool left, index_t n, M t, M q, V xt, index_t ki) {
    const bool pair = left ? pair_starts_at(t, n, ki) : pair_ends_at(t, ki);
    const index_t ca = !left && pair ? ki - 1 : ki;
    const index_t c0 = left ? ca + (pair ? 2 : 1) : 0, len = left ? n - c0 : ca;
    const auto xa = x_column(t, xt, n, ca, left);
    if (pair) return back_transform_blocked_cols<true>(n, q, ca, c0, len, xa, x_column(t, xt, n, ca + 1, left));
    return back_transform_blocked_cols<false>(n, q, ca, c0, len, xa, xa);
}

// One eigenvector (or pair) of a serial team, whole: its back-transformed
// column(s) of q, scaled; ki as for the row forms. Blocked: the team is
// team_cpu_blocked (back_transform_blocked).
template <bool Blocked, class M, class V>
BATCHEIG_HD void finish_serial(bool left, index_t n, M t, M q, V xt, index_t ki) {
    index_t r = 0;
    if constexpr (Blocked) {
        if (q.es == 1) r = back_transform_blocked(left, n, t, q, xt, ki);
    }
    for (; r < n; ++r) {
        if (left) back_transform_left_row(n, t, q, xt, r, ki);
        else back_transform_right_row(n, t, q, xt, r, ki);
    }
    scale_column(n, t, q, !left && pair_ends_at(t, ki) ? ki - 1 : ki);
}
}  // namespace detail

// Teams of at least kTrevcWavefrontMinTeam members solve the right
// eigenvectors of a real Schur form of order kTrevcWavefrontMinN or more in
// right_team_solve's wavefront; otherwise each member solves its own
// eigenvectors whole (small teams: with two members each has every other
// column, about half the work; small n: the wavefront's two barriers per
// block cost more than the balance gains). The same results either way.
// Measured on an H100 (batcheig_bench geev --vectors, batch 50 000, ms,
// per-member / wavefront, lanes in parentheses): double n = 10 (4) 1.81 /
// 1.81, 12 (4) 2.96 / 3.03, 14 (8) 3.59 / 3.61, 16 (8) 4.87 / 4.90, 20
// (16) 9.21 / 8.49, 30 (32) 25.04 / 23.45; float n = 10 (2) 0.973 / 1.009,
// 12 (4) 1.34 / 1.37, 14 (4) 2.21 / 2.19, 16 (4) 3.17 / 3.21, 20 (8) 4.91
// / 4.73, 30 (16) 15.02 / 14.47. Complex Schur forms keep the per-member
// solve: the wavefront gained nothing there (complex double n = 30, 32
// lanes: 172.3 / 172.3 ms; complex float n = 10..30 0.2-0.9 % slower).
inline constexpr index_t kTrevcWavefrontMinTeam = 4;
inline constexpr index_t kTrevcWavefrontMinN = 18;

// Whether the wavefront's members keep their right eigenvector (its shift
// and views, formed for its start) for all its pivots where each owns one
// at most (n <= team size), instead of forming it at every block (T's
// diagonal blocks and the views do not change during the solves; the
// same results either way). Measured on an H100 against forming it at
// every block (batcheig_bench geev --vectors, batch 200 000, ms;
// docs/performance.md, session 102): double n = 20 32.62 -> 31.84, 30
// 64.64 -> 62.41 (and 32.7 -> 31.7, 49.4 -> 48.4, 64.7 -> 63.1 at n =
// 20 / 25 / 30 in two rounds of the earlier forms); n = 18-19 and 40
// (teams whose members own two) and the block variant at n = 56 within
// 0.5 %. In float n = 30 was 2 % faster, but the larger kernel made float
// n = 20 and 24 (8 and 16 lanes, forming at every block) 0.7 and 1.7 %
// slower, so float forms it at every block.
template <class R>
inline constexpr bool kTrevcKeepOwn = sizeof(R) >= sizeof(double);

// Real Schur form. t: n x n quasi-triangular with standardized 2x2 blocks;
// the part of its array below the subdiagonal is overwritten. cn: n reals;
// xt: 3n reals.
template <class Team, class M, class V>
BATCHEIG_HD void trevc_real(const Team &tm, bool right, bool left, index_t n, M t, M vl, M vr, V cn, V xt) {
    using R = typename M::value_type;
    const detail::TrevcLimits<R> lim(n);
    detail::column_norms(tm, n, t, cn);
    // Solve the left eigenvector (or pair) of column ki; a serial team
    // finishes it at once (its columns of Q are no longer needed by the
    // later ones).
    auto solve_left = [&](index_t ki) {
        if (detail::pair_starts_at(t, n, ki))
            detail::solve_left_pair(n, ki, t, cn, detail::x_column(t, xt, n, ki, true),
                                    detail::x_column(t, xt, n, ki + 1, true), lim);
        else
            detail::solve_left_real(n, ki, t, cn, detail::x_column(t, xt, n, ki, true), lim);
        if constexpr (Team::serial) detail::finish_serial<team_cpu_blocked<Team>>(true, n, t, vl, xt, ki);
    };
    if (right) {
        if constexpr (Team::serial) {
            // Each eigenvector (or pair) whole, from the last column.
            for (index_t ki = n - 1; ki >= 0; --ki) {
                detail::solve_right_serial(n, ki, t, cn, xt, lim);
                detail::finish_serial<team_cpu_blocked<Team>>(false, n, t, vr, xt, ki);
                if (detail::pair_ends_at(t, ki)) --ki;
            }
        } else if (tm.size() < kTrevcWavefrontMinTeam || n < kTrevcWavefrontMinN) {
            // Each member its own eigenvectors (or pairs), whole.
            for (index_t ki = tm.first(0); ki < n; ki += tm.size())
                if (!detail::pair_starts_at(t, n, ki)) detail::solve_right_serial(n, ki, t, cn, xt, lim);
            tm.sync();
            detail::back_transform_and_scale(tm, false, n, t, vr, xt);
        } else {
            // The eigenvector (or pair) that ends at column ki, with its
            // storage; a pair by its 2nd column (false for its 1st).
            auto vector_at = [&](index_t ki, detail::RightVector<R> &v, VecView<R> &xr, VecView<R> &xi) {
                if (detail::pair_starts_at(t, n, ki)) return false;
                v = detail::right_vector(ki, t, lim);
                detail::right_views(t, xt, n, v, xr, xi);
                return true;
            };
            // In double (kTrevcKeepOwn), where every member owns one
            // eigenvector at most (n <= team size), each keeps its own, as
            // formed for its start, for all its pivots; otherwise each
            // pivot forms its eigenvector again (kTrevcKeepOwn has why).
            detail::RightVector<R> v;
            VecView<R> xr, xi;
            bool own = false;
            for (index_t ki = tm.first(0); ki < n; ki += tm.size()) {
                own = vector_at(ki, v, xr, xi);
                if (own) detail::right_start(v, t, xr, xi);
            }
            if (kTrevcKeepOwn<R> && n <= tm.size()) {
                detail::right_team_solve(tm, n, t, xt, [&](index_t, index_t j, bool two) {
                    if (own) detail::right_pivot(v, j, two, t, cn, xr, xi, lim);
                });
            } else {
                detail::right_team_solve(tm, n, t, xt, [&](index_t ki, index_t j, bool two) {
                    if (vector_at(ki, v, xr, xi)) detail::right_pivot(v, j, two, t, cn, xr, xi, lim);
                });
            }
            detail::back_transform_and_scale(tm, false, n, t, vr, xt);
        }
    }
    if (left) {
        if constexpr (Team::serial) {
            for (index_t ki = 0; ki < n; ++ki) {
                solve_left(ki);
                if (detail::pair_starts_at(t, n, ki)) ++ki;
            }
        } else {
            for (index_t ki = tm.first(0); ki < n; ki += tm.size())
                if (!detail::pair_ends_at(t, ki)) solve_left(ki);  // a pair by its 1st column
            tm.sync();
            detail::back_transform_and_scale(tm, true, n, t, vl, xt);
        }
    }
}

// Complex Schur form. t: n x n upper triangular; the part of its array
// below the subdiagonal is overwritten. cn: n reals; xt: 3n complex.
template <class Team, class M, class VR_, class VC>
BATCHEIG_HD void trevc_complex(const Team &tm, bool right, bool left, index_t n, M t, M vl, M vr, VR_ cn, VC xt) {
    using R = real_t<typename M::value_type>;
    const detail::TrevcLimits<R> lim(n);
    detail::column_norms(tm, n, t, cn);
    if (right) {
        if constexpr (Team::serial) {
            // From the last column, finishing each vector at once.
            for (index_t ki = n - 1; ki >= 0; --ki) {
                detail::solve_right_complex(ki, t, cn, detail::x_column(t, xt, n, ki, false), lim);
                detail::finish_serial<team_cpu_blocked<Team>>(false, n, t, vr, xt, ki);
            }
        } else {
            // Each member its own eigenvectors, whole (see kTrevcWavefrontMinTeam).
            for (index_t ki = tm.first(0); ki < n; ki += tm.size())
                detail::solve_right_complex(ki, t, cn, detail::x_column(t, xt, n, ki, false), lim);
            tm.sync();
            detail::back_transform_and_scale(tm, false, n, t, vr, xt);
        }
    }
    if (left) {
        for (index_t ki = tm.first(0); ki < n; ki += tm.size()) {
            detail::solve_left_complex(n, ki, t, cn, detail::x_column(t, xt, n, ki, true), lim);
            if constexpr (Team::serial) detail::finish_serial<team_cpu_blocked<Team>>(true, n, t, vl, xt, ki);
        }
        if constexpr (!Team::serial) {
            tm.sync();
            detail::back_transform_and_scale(tm, true, n, t, vl, xt);
        }
    }
}

}  // namespace batcheig::core
