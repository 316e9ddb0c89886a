// Eigenvectors of a (quasi-)triangular Schur form T by back-substitution,
// back-transformed by the Schur vectors Q (xTREVC with HOWMNY = 'B'):
// on entry vr / vl hold Q, on exit the eigenvectors of the original matrix,
// each scaled so that its largest component has |re| + |im| = 1.
//
// Every division is guarded: near-singular pivots are perturbed to smin and
// the right-hand side is rescaled when an update could overflow, as LAPACK.
// The columns are processed in the order that lets the back-transformation
// overwrite Q in place (right vectors from the last column, left vectors
// from the first).
//
// Teams (core/team.hpp): the member that owns index k of the work vectors
// does every update of entry k (scaling, solution, axpy), in the serial
// order; the pivots are solved redundantly by every member; the dot products
// of the left solves are team sums; the back-transformation gives each
// member whole rows of Q.
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
        for (index_t i = 0; i < j; ++i) s += abs1(t(i, j));
        cn[j] = s;
    }
    tm.sync();
}

// y = Q(:, c0:c0+len) * x(c0:c0+len) + beta * Q(:, col), written into
// Q(:, col); each member owns whole rows.
template <class Team, class M, class V, class S>
BATCHEIG_HD void back_transform(const Team &tm, index_t n, M q, index_t c0, index_t len, V x, S beta,
                                index_t col) {
    for (index_t r = tm.first(0); r < n; r += tm.size()) {
        auto y = q(r, col) * beta;
        for (index_t c = c0; c < c0 + len; ++c) y += q(r, c) * x[c];
        q(r, col) = y;
    }
    tm.sync();
}

// Entries [lo, hi] of x: x[k] *= scale (if scale != 1), then x[j] = xj and
// x[k] -= xj * t(k, j) for k < j, by the owner of each entry.
template <class Team, class M, class V, class S, class R>
BATCHEIG_HD void solve_update(const Team &tm, index_t lo, index_t hi, V x, R scale, index_t j, S xj, M t) {
    for (index_t k = tm.first(lo); k <= hi; k += tm.size()) {
        auto v = x[k];
        if (scale != R(1)) v = v * scale;
        if (k == j) v = xj;
        else if (k < j) v -= xj * t(k, j);
        x[k] = v;
    }
}

// As solve_update for a 2x2 pivot at (j-1, j): x[j-1] = xa, x[j] = xb and
// x[k] -= xa * t(k, j-1) + xb * t(k, j) for k < j-1.
template <class Team, class M, class V, class R>
BATCHEIG_HD void solve_update2(const Team &tm, index_t lo, index_t hi, V x, R scale, index_t j, R xa, R xb, M t) {
    for (index_t k = tm.first(lo); k <= hi; k += tm.size()) {
        R v = x[k];
        if (scale != R(1)) v *= scale;
        if (k == j - 1) v = xa;
        else if (k == j) v = xb;
        else if (k < j - 1) v -= xa * t(k, j - 1) + xb * t(k, j);
        x[k] = v;
    }
}

// x[lo..hi] *= s, by the owners, where s != 1 (the left solves' rescaling
// and the scaling by a pivot's scale factor), no sync.
template <class Team, class V, class R>
BATCHEIG_HD void scale_owned(const Team &tm, index_t lo, index_t hi, V x, R s) {
    if (s == R(1)) return;
    for (index_t k = tm.first(lo); k <= hi; k += tm.size()) x[k] = x[k] * s;
}

// Team sum of t(k, j) * x[k] (conj(t(k, j)) for conj) over k in [lo, hi),
// each member adding the entries it owns.
template <bool conj_t, class Team, class M, class V>
BATCHEIG_HD typename V::value_type owned_dot(const Team &tm, index_t lo, index_t hi, M t, index_t j, V x) {
    typename V::value_type s = typename V::value_type(0);
    for (index_t k = tm.first(lo); k < hi; k += tm.size()) {
        if constexpr (conj_t) s += conj(t(k, j)) * x[k];
        else s += t(k, j) * x[k];
    }
    return team_sum(tm, s);
}
}  // namespace detail

// Real Schur form. t: n x n quasi-triangular with standardized 2x2 blocks.
// cn: n reals; xr, xi: n reals each.
template <class Team, class M, class V>
BATCHEIG_HD void trevc_real(const Team &tm, bool right, bool left, index_t n, M t, M vl, M vr, V cn, V xr, V xi) {
    using R = typename M::value_type;
    const R unfl = limits<R>::safmin();
    const R ulp = limits<R>::ulp();
    const R smlnum = unfl * (R(n) / ulp);
    const R bignum = (R(1) - ulp) / smlnum;
    detail::column_norms(tm, n, t, cn);
    R x[4], b[4];

    if (right) {
        for (index_t ki = n - 1; ki >= 0; --ki) {
            const bool pair = ki > 0 && t(ki, ki - 1) != R(0);  // ki is the 2nd of a pair
            R wr = t(ki, ki), wi = R(0);
            if (pair) wi = rsqrt_(rabs(t(ki, ki - 1))) * rsqrt_(rabs(t(ki - 1, ki)));
            const R smin = rmax(ulp * (rabs(wr) + rabs(wi)), smlnum);
            if (!pair) {
                // Real right eigenvector: solve (T(0:ki-1,0:ki-1) - wr) x = -T(0:ki-1, ki).
                for (index_t k = tm.first(0); k <= ki; k += tm.size()) xr[k] = k == ki ? R(1) : -t(k, ki);
                tm.sync();
                index_t jnxt = ki - 1;
                for (index_t j = ki - 1; j >= 0; --j) {
                    if (j > jnxt) continue;
                    index_t j1 = j;
                    jnxt = j - 1;
                    if (j > 0 && t(j, j - 1) != R(0)) {
                        j1 = j - 1;
                        jnxt = j - 2;
                    }
                    R scale, xnorm;
                    if (j1 == j) {
                        b[0] = xr[j];
                        laln2(false, 1, 1, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, R(0), x, scale, xnorm);
                        // Scale x to avoid overflow when updating the right-hand side.
                        if (xnorm > R(1) && cn[j] > bignum / xnorm) {
                            x[0] /= xnorm;
                            scale /= xnorm;
                        }
                        tm.sync();  // every member has read xr[j]
                        detail::solve_update(tm, 0, ki, xr, scale, j, x[0], t);
                        tm.sync();
                    } else {
                        b[0] = xr[j - 1];
                        b[1] = xr[j];
                        laln2(false, 2, 1, smin, MatView<R>{&t(j - 1, j - 1), t.ld, t.es}, b, wr, R(0), x, scale, xnorm);
                        if (xnorm > R(1)) {
                            R beta = rmax(cn[j - 1], cn[j]);
                            if (beta > bignum / xnorm) {
                                x[0] /= xnorm;
                                x[1] /= xnorm;
                                scale /= xnorm;
                            }
                        }
                        tm.sync();
                        detail::solve_update2(tm, 0, ki, xr, scale, j, x[0], x[1], t);
                        tm.sync();
                    }
                }
                detail::back_transform(tm, n, vr, 0, ki, xr, xr[ki], ki);
                R emax = rabs(vr(team_iamax(tm, n, vr.col(ki)), ki));
                tm.sync();
                team_scal(tm, n, R(1) / emax, vr.col(ki));
            } else {
                // Complex right eigenvector for the pair (ki-1, ki), eigenvalue wr + i wi.
                R xr0, xi1;  // xr[ki-1], xi[ki]
                if (rabs(t(ki - 1, ki)) >= rabs(t(ki, ki - 1))) {
                    xr0 = R(1);
                    xi1 = wi / t(ki - 1, ki);
                } else {
                    xr0 = -wi / t(ki, ki - 1);
                    xi1 = R(1);
                }
                for (index_t k = tm.first(0); k <= ki; k += tm.size()) {
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
                tm.sync();
                index_t jnxt = ki - 2;
                for (index_t j = ki - 2; j >= 0; --j) {
                    if (j > jnxt) continue;
                    index_t j1 = j;
                    jnxt = j - 1;
                    if (j > 0 && t(j, j - 1) != R(0)) {
                        j1 = j - 1;
                        jnxt = j - 2;
                    }
                    R scale, xnorm;
                    if (j1 == j) {
                        b[0] = xr[j];
                        b[2] = xi[j];
                        laln2(false, 1, 2, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, wi, x, scale, xnorm);
                        if (xnorm > R(1) && cn[j] > bignum / xnorm) {
                            x[0] /= xnorm;
                            x[2] /= xnorm;
                            scale /= xnorm;
                        }
                        tm.sync();
                        detail::solve_update(tm, 0, ki, xr, scale, j, x[0], t);
                        detail::solve_update(tm, 0, ki, xi, scale, j, x[2], t);
                        tm.sync();
                    } else {
                        b[0] = xr[j - 1];
                        b[1] = xr[j];
                        b[2] = xi[j - 1];
                        b[3] = xi[j];
                        laln2(false, 2, 2, smin, MatView<R>{&t(j - 1, j - 1), t.ld, t.es}, b, wr, wi, x, scale, xnorm);
                        if (xnorm > R(1)) {
                            R beta = rmax(cn[j - 1], cn[j]);
                            if (beta > bignum / xnorm) {
                                R rec = R(1) / xnorm;
                                for (int q = 0; q < 4; ++q) x[q] *= rec;
                                scale *= rec;
                            }
                        }
                        tm.sync();
                        detail::solve_update2(tm, 0, ki, xr, scale, j, x[0], x[1], t);
                        detail::solve_update2(tm, 0, ki, xi, scale, j, x[2], x[3], t);
                        tm.sync();
                    }
                }
                const R betar = xr[ki - 1], betai = xi[ki];
                tm.sync();  // the back-transformations overwrite nothing in x, but keep phases clean
                detail::back_transform(tm, n, vr, 0, ki - 1, xr, betar, ki - 1);
                detail::back_transform(tm, n, vr, 0, ki - 1, xi, betai, ki);
                R emax = R(0);
                for (index_t k = tm.first(0); k < n; k += tm.size())
                    emax = rmax(emax, rabs(vr(k, ki - 1)) + rabs(vr(k, ki)));
                emax = tm.max(emax);
                const R remax = R(1) / emax;
                team_scal(tm, n, remax, vr.col(ki - 1));
                team_scal(tm, n, remax, vr.col(ki));
                --ki;  // the pair is done
            }
        }
    }

    if (left) {
        for (index_t ki = 0; ki < n; ++ki) {
            const bool pair = ki < n - 1 && t(ki + 1, ki) != R(0);  // ki is the 1st of a pair
            R wr = t(ki, ki), wi = R(0);
            if (pair) wi = rsqrt_(rabs(t(ki, ki + 1))) * rsqrt_(rabs(t(ki + 1, ki)));
            const R smin = rmax(ulp * (rabs(wr) + rabs(wi)), smlnum);
            if (!pair) {
                // Real left eigenvector: solve (T(ki+1:, ki+1:) - wr)^T x = -T(ki, ki+1:)^T.
                for (index_t k = tm.first(ki); k < n; k += tm.size()) xr[k] = k == ki ? R(1) : -t(ki, k);
                tm.sync();
                R vmax = R(1), vcrit = bignum;
                index_t jnxt = ki + 1;
                for (index_t j = ki + 1; j < n; ++j) {
                    if (j < jnxt) continue;
                    index_t j2 = j;
                    jnxt = j + 1;
                    if (j < n - 1 && t(j + 1, j) != R(0)) {
                        j2 = j + 1;
                        jnxt = j + 2;
                    }
                    R scale, xnorm;
                    if (j2 == j) {
                        // Scale if necessary to avoid overflow when forming the right-hand side.
                        if (cn[j] > vcrit) {
                            detail::scale_owned(tm, ki, n - 1, xr, R(1) / vmax);
                            vmax = R(1);
                            vcrit = bignum;
                        }
                        // (The team sum is a barrier: xr[j] is read after its owner rescaled it.)
                        R s = detail::owned_dot<false>(tm, ki + 1, j, t, j, xr);
                        b[0] = xr[j] - s;
                        laln2(false, 1, 1, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, R(0), x, scale, xnorm);
                        tm.sync();  // every member has read xr[j]
                        detail::scale_owned(tm, ki, n - 1, xr, scale);
                        if (tm.first(j) == j) xr[j] = x[0];
                        vmax = rmax(rabs(x[0]), vmax);
                        vcrit = bignum / vmax;
                    } else {
                        R beta = rmax(cn[j], cn[j + 1]);
                        if (beta > vcrit) {
                            detail::scale_owned(tm, ki, n - 1, xr, R(1) / vmax);
                            vmax = R(1);
                            vcrit = bignum;
                        }
                        R s0 = detail::owned_dot<false>(tm, ki + 1, j, t, j, xr);
                        R s1 = detail::owned_dot<false>(tm, ki + 1, j, t, j + 1, xr);
                        b[0] = xr[j] - s0;
                        b[1] = xr[j + 1] - s1;
                        laln2(true, 2, 1, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, R(0), x, scale, xnorm);
                        tm.sync();
                        detail::scale_owned(tm, ki, n - 1, xr, scale);
                        if (tm.first(j) == j) xr[j] = x[0];
                        if (tm.first(j + 1) == j + 1) xr[j + 1] = x[1];
                        vmax = rmax(rmax(rabs(x[0]), rabs(x[1])), vmax);
                        vcrit = bignum / vmax;
                    }
                }
                tm.sync();
                detail::back_transform(tm, n, vl, ki + 1, n - ki - 1, xr, xr[ki], ki);
                R emax = rabs(vl(team_iamax(tm, n, vl.col(ki)), ki));
                tm.sync();
                team_scal(tm, n, R(1) / emax, vl.col(ki));
            } else {
                // Complex left eigenvector for the pair (ki, ki+1), eigenvalue wr - i wi.
                R xr0, xi1;  // xr[ki], xi[ki+1]
                if (rabs(t(ki, ki + 1)) >= rabs(t(ki + 1, ki))) {
                    xr0 = wi / t(ki, ki + 1);
                    xi1 = R(1);
                } else {
                    xr0 = R(1);
                    xi1 = -wi / t(ki + 1, ki);
                }
                for (index_t k = tm.first(ki); k < n; k += tm.size()) {
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
                tm.sync();
                R vmax = R(1), vcrit = bignum;
                index_t jnxt = ki + 2;
                for (index_t j = ki + 2; j < n; ++j) {
                    if (j < jnxt) continue;
                    index_t j2 = j;
                    jnxt = j + 1;
                    if (j < n - 1 && t(j + 1, j) != R(0)) {
                        j2 = j + 1;
                        jnxt = j + 2;
                    }
                    R scale, xnorm;
                    if (j2 == j) {
                        if (cn[j] > vcrit) {
                            const R rec = R(1) / vmax;
                            detail::scale_owned(tm, ki, n - 1, xr, rec);
                            detail::scale_owned(tm, ki, n - 1, xi, rec);
                            vmax = R(1);
                            vcrit = bignum;
                        }
                        R sr = detail::owned_dot<false>(tm, ki + 2, j, t, j, xr);
                        R si = detail::owned_dot<false>(tm, ki + 2, j, t, j, xi);
                        b[0] = xr[j] - sr;
                        b[2] = xi[j] - si;
                        laln2(false, 1, 2, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, -wi, x, scale, xnorm);
                        tm.sync();
                        detail::scale_owned(tm, ki, n - 1, xr, scale);
                        detail::scale_owned(tm, ki, n - 1, xi, scale);
                        if (tm.first(j) == j) {
                            xr[j] = x[0];
                            xi[j] = x[2];
                        }
                        vmax = rmax(rmax(rabs(x[0]), rabs(x[2])), vmax);
                        vcrit = bignum / vmax;
                    } else {
                        R beta = rmax(cn[j], cn[j + 1]);
                        if (beta > vcrit) {
                            const R rec = R(1) / vmax;
                            detail::scale_owned(tm, ki, n - 1, xr, rec);
                            detail::scale_owned(tm, ki, n - 1, xi, rec);
                            vmax = R(1);
                            vcrit = bignum;
                        }
                        R sr0 = detail::owned_dot<false>(tm, ki + 2, j, t, j, xr);
                        R si0 = detail::owned_dot<false>(tm, ki + 2, j, t, j, xi);
                        R sr1 = detail::owned_dot<false>(tm, ki + 2, j, t, j + 1, xr);
                        R si1 = detail::owned_dot<false>(tm, ki + 2, j, t, j + 1, xi);
                        b[0] = xr[j] - sr0;
                        b[1] = xr[j + 1] - sr1;
                        b[2] = xi[j] - si0;
                        b[3] = xi[j + 1] - si1;
                        laln2(true, 2, 2, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, -wi, x, scale, xnorm);
                        tm.sync();
                        detail::scale_owned(tm, ki, n - 1, xr, scale);
                        detail::scale_owned(tm, ki, n - 1, xi, scale);
                        if (tm.first(j) == j) {
                            xr[j] = x[0];
                            xi[j] = x[2];
                        }
                        if (tm.first(j + 1) == j + 1) {
                            xr[j + 1] = x[1];
                            xi[j + 1] = x[3];
                        }
                        vmax = rmax(rmax(rmax(rabs(x[0]), rabs(x[2])), rmax(rabs(x[1]), rabs(x[3]))), vmax);
                        vcrit = bignum / vmax;
                    }
                }
                tm.sync();
                const R betar = xr[ki], betai = xi[ki + 1];
                detail::back_transform(tm, n, vl, ki + 2, n - ki - 2, xr, betar, ki);
                detail::back_transform(tm, n, vl, ki + 2, n - ki - 2, xi, betai, ki + 1);
                R emax = R(0);
                for (index_t k = tm.first(0); k < n; k += tm.size())
                    emax = rmax(emax, rabs(vl(k, ki)) + rabs(vl(k, ki + 1)));
                emax = tm.max(emax);
                const R remax = R(1) / emax;
                team_scal(tm, n, remax, vl.col(ki));
                team_scal(tm, n, remax, vl.col(ki + 1));
                ++ki;  // the pair is done
            }
        }
    }
}

// Complex Schur form. t: n x n upper triangular. cn: n reals; x: n complex.
template <class Team, class M, class VR_, class VC>
BATCHEIG_HD void trevc_complex(const Team &tm, bool right, bool left, index_t n, M t, M vl, M vr, VR_ cn, VC x) {
    using T = typename M::value_type;
    using R = real_t<T>;
    const R unfl = limits<R>::safmin();
    const R ulp = limits<R>::ulp();
    const R smlnum = unfl * (R(n) / ulp);
    const R bignum = (R(1) - ulp) / smlnum;
    detail::column_norms(tm, n, t, cn);

    // Solve d * xj = rhs with |d| kept >= smin; returns the factor (<= 1) by
    // which the whole right-hand side must be scaled first to avoid overflow.
    auto guarded_div = [&](T rhs, T d, R smin, T &xj) -> R {
        if (abs1(d) < smin) d = T(smin);
        R cnorm = abs1(d), bnorm = abs1(rhs), scale = R(1);
        if (cnorm < R(1) && bnorm > R(1) && bnorm > bignum * cnorm) scale = R(1) / bnorm;
        xj = (rhs * scale) / d;
        return scale;
    };

    if (right) {
        for (index_t ki = n - 1; ki >= 0; --ki) {
            const T lambda = t(ki, ki);
            const R smin = rmax(ulp * abs1(lambda), smlnum);
            for (index_t k = tm.first(0); k <= ki; k += tm.size()) x[k] = k == ki ? T(R(1)) : -t(k, ki);
            tm.sync();
            // Back-substitution (T(0:ki-1,0:ki-1) - lambda) x = s * rhs.
            for (index_t j = ki - 1; j >= 0; --j) {
                T xj;
                R scale = guarded_div(x[j], t(j, j) - lambda, smin, xj);
                R xnorm = abs1(xj);
                if (xnorm > R(1) && cn[j] > bignum / xnorm) {
                    xj = xj / xnorm;
                    scale /= xnorm;
                }
                tm.sync();  // every member has read x[j]
                detail::solve_update(tm, 0, ki, x, scale, j, xj, t);
                tm.sync();
            }
            detail::back_transform(tm, n, vr, 0, ki, x, x[ki], ki);
            R emax = abs1(vr(team_iamax(tm, n, vr.col(ki)), ki));
            tm.sync();
            team_scal(tm, n, R(1) / emax, vr.col(ki));
        }
    }

    if (left) {
        for (index_t ki = 0; ki < n; ++ki) {
            const T lambda = t(ki, ki);
            const R smin = rmax(ulp * abs1(lambda), smlnum);
            for (index_t k = tm.first(ki); k < n; k += tm.size()) x[k] = k == ki ? T(R(1)) : -conj(t(ki, k));
            tm.sync();
            // Forward substitution (T(ki+1:,ki+1:) - lambda)^H x = s * rhs.
            R vmax = R(1), vcrit = bignum;
            for (index_t j = ki + 1; j < n; ++j) {
                if (cn[j] > vcrit) {
                    detail::scale_owned(tm, ki, n - 1, x, R(1) / vmax);
                    vmax = R(1);
                    vcrit = bignum;
                }
                // (The team sum is a barrier: x[j] is read after its owner rescaled it.)
                T s = detail::owned_dot<true>(tm, ki + 1, j, t, j, x);
                T xj;
                R scale = guarded_div(x[j] - s, conj(t(j, j) - lambda), smin, xj);
                tm.sync();  // every member has read x[j]
                detail::scale_owned(tm, ki, n - 1, x, scale);
                if (tm.first(j) == j) x[j] = xj;
                vmax = rmax(abs1(xj), vmax);
                vcrit = bignum / vmax;
            }
            tm.sync();
            detail::back_transform(tm, n, vl, ki + 1, n - ki - 1, x, x[ki], ki);
            R emax = abs1(vl(team_iamax(tm, n, vl.col(ki)), ki));
            tm.sync();
            team_scal(tm, n, R(1) / emax, vl.col(ki));
        }
    }
}

}  // namespace batcheig::core
