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
#pragma once

#include "core/laln2.hpp"

namespace batcheig::core {

namespace detail {
// 1-norms of the strictly upper triangular columns of t (overflow control).
template <class M, class V>
BATCHEIG_HD void column_norms(index_t n, M t, V cn) {
    using R = typename V::value_type;
    for (index_t j = 0; j < n; ++j) {
        R s = R(0);
        for (index_t i = 0; i < j; ++i) s += abs1(t(i, j));
        cn[j] = s;
    }
}

// y = Q(:, c0:c0+len) * x(c0:c0+len) + beta * Q(:, col), written into Q(:, col).
template <class M, class V, class S>
BATCHEIG_HD void back_transform(index_t n, M q, index_t c0, index_t len, V x, S beta, index_t col) {
    for (index_t r = 0; r < n; ++r) q(r, col) = q(r, col) * beta;
    for (index_t c = c0; c < c0 + len; ++c) {
        const auto xc = x[c];
        for (index_t r = 0; r < n; ++r) q(r, col) += q(r, c) * xc;
    }
}
}  // namespace detail

// Real Schur form. t: n x n quasi-triangular with standardized 2x2 blocks.
// cn: n reals; xr, xi: n reals each.
template <class M, class V>
BATCHEIG_HD void trevc_real(bool right, bool left, index_t n, M t, M vl, M vr, V cn, V xr, V xi) {
    using R = typename M::value_type;
    const R unfl = limits<R>::safmin();
    const R ulp = limits<R>::ulp();
    const R smlnum = unfl * (R(n) / ulp);
    const R bignum = (R(1) - ulp) / smlnum;
    detail::column_norms(n, t, cn);
    R x[4], b[4];

    if (right) {
        for (index_t ki = n - 1; ki >= 0; --ki) {
            const bool pair = ki > 0 && t(ki, ki - 1) != R(0);  // ki is the 2nd of a pair
            R wr = t(ki, ki), wi = R(0);
            if (pair) wi = rsqrt_(rabs(t(ki, ki - 1))) * rsqrt_(rabs(t(ki - 1, ki)));
            const R smin = rmax(ulp * (rabs(wr) + rabs(wi)), smlnum);
            if (!pair) {
                // Real right eigenvector: solve (T(0:ki-1,0:ki-1) - wr) x = -T(0:ki-1, ki).
                xr[ki] = R(1);
                for (index_t k = 0; k < ki; ++k) xr[k] = -t(k, ki);
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
                        if (scale != R(1)) scal(ki + 1, scale, xr);
                        xr[j] = x[0];
                        for (index_t k = 0; k < j; ++k) xr[k] -= x[0] * t(k, j);
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
                        if (scale != R(1)) scal(ki + 1, scale, xr);
                        xr[j - 1] = x[0];
                        xr[j] = x[1];
                        for (index_t k = 0; k < j - 1; ++k) xr[k] -= x[0] * t(k, j - 1) + x[1] * t(k, j);
                    }
                }
                detail::back_transform(n, vr, 0, ki, xr, xr[ki], ki);
                R emax = rabs(vr(iamax(n, vr.col(ki)), ki));
                scal(n, R(1) / emax, vr.col(ki));
            } else {
                // Complex right eigenvector for the pair (ki-1, ki), eigenvalue wr + i wi.
                if (rabs(t(ki - 1, ki)) >= rabs(t(ki, ki - 1))) {
                    xr[ki - 1] = R(1);
                    xi[ki] = wi / t(ki - 1, ki);
                } else {
                    xr[ki - 1] = -wi / t(ki, ki - 1);
                    xi[ki] = R(1);
                }
                xr[ki] = R(0);
                xi[ki - 1] = R(0);
                for (index_t k = 0; k < ki - 1; ++k) {
                    xr[k] = -xr[ki - 1] * t(k, ki - 1);
                    xi[k] = -xi[ki] * t(k, ki);
                }
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
                        if (scale != R(1)) {
                            scal(ki + 1, scale, xr);
                            scal(ki + 1, scale, xi);
                        }
                        xr[j] = x[0];
                        xi[j] = x[2];
                        for (index_t k = 0; k < j; ++k) {
                            xr[k] -= x[0] * t(k, j);
                            xi[k] -= x[2] * t(k, j);
                        }
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
                        if (scale != R(1)) {
                            scal(ki + 1, scale, xr);
                            scal(ki + 1, scale, xi);
                        }
                        xr[j - 1] = x[0];
                        xr[j] = x[1];
                        xi[j - 1] = x[2];
                        xi[j] = x[3];
                        for (index_t k = 0; k < j - 1; ++k) {
                            xr[k] -= x[0] * t(k, j - 1) + x[1] * t(k, j);
                            xi[k] -= x[2] * t(k, j - 1) + x[3] * t(k, j);
                        }
                    }
                }
                detail::back_transform(n, vr, 0, ki - 1, xr, xr[ki - 1], ki - 1);
                detail::back_transform(n, vr, 0, ki - 1, xi, xi[ki], ki);
                R emax = R(0);
                for (index_t k = 0; k < n; ++k) emax = rmax(emax, rabs(vr(k, ki - 1)) + rabs(vr(k, ki)));
                const R remax = R(1) / emax;
                scal(n, remax, vr.col(ki - 1));
                scal(n, remax, vr.col(ki));
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
                xr[ki] = R(1);
                for (index_t k = ki + 1; k < n; ++k) xr[k] = -t(ki, k);
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
                            scal(n - ki, R(1) / vmax, VecView<R>{&xr[ki], xr.inc});
                            vmax = R(1);
                            vcrit = bignum;
                        }
                        R s = R(0);
                        for (index_t k = ki + 1; k < j; ++k) s += t(k, j) * xr[k];
                        b[0] = xr[j] - s;
                        laln2(false, 1, 1, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, R(0), x, scale, xnorm);
                        if (scale != R(1)) scal(n - ki, scale, VecView<R>{&xr[ki], xr.inc});
                        xr[j] = x[0];
                        vmax = rmax(rabs(xr[j]), vmax);
                        vcrit = bignum / vmax;
                    } else {
                        R beta = rmax(cn[j], cn[j + 1]);
                        if (beta > vcrit) {
                            scal(n - ki, R(1) / vmax, VecView<R>{&xr[ki], xr.inc});
                            vmax = R(1);
                            vcrit = bignum;
                        }
                        R s0 = R(0), s1 = R(0);
                        for (index_t k = ki + 1; k < j; ++k) {
                            s0 += t(k, j) * xr[k];
                            s1 += t(k, j + 1) * xr[k];
                        }
                        b[0] = xr[j] - s0;
                        b[1] = xr[j + 1] - s1;
                        laln2(true, 2, 1, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, R(0), x, scale, xnorm);
                        if (scale != R(1)) scal(n - ki, scale, VecView<R>{&xr[ki], xr.inc});
                        xr[j] = x[0];
                        xr[j + 1] = x[1];
                        vmax = rmax(rmax(rabs(xr[j]), rabs(xr[j + 1])), vmax);
                        vcrit = bignum / vmax;
                    }
                }
                detail::back_transform(n, vl, ki + 1, n - ki - 1, xr, xr[ki], ki);
                R emax = rabs(vl(iamax(n, vl.col(ki)), ki));
                scal(n, R(1) / emax, vl.col(ki));
            } else {
                // Complex left eigenvector for the pair (ki, ki+1), eigenvalue wr - i wi.
                if (rabs(t(ki, ki + 1)) >= rabs(t(ki + 1, ki))) {
                    xr[ki] = wi / t(ki, ki + 1);
                    xi[ki + 1] = R(1);
                } else {
                    xr[ki] = R(1);
                    xi[ki + 1] = -wi / t(ki + 1, ki);
                }
                xr[ki + 1] = R(0);
                xi[ki] = R(0);
                for (index_t k = ki + 2; k < n; ++k) {
                    xr[k] = -xr[ki] * t(ki, k);
                    xi[k] = -xi[ki + 1] * t(ki + 1, k);
                }
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
                            scal(n - ki, rec, VecView<R>{&xr[ki], xr.inc});
                            scal(n - ki, rec, VecView<R>{&xi[ki], xi.inc});
                            vmax = R(1);
                            vcrit = bignum;
                        }
                        R sr = R(0), si = R(0);
                        for (index_t k = ki + 2; k < j; ++k) {
                            sr += t(k, j) * xr[k];
                            si += t(k, j) * xi[k];
                        }
                        b[0] = xr[j] - sr;
                        b[2] = xi[j] - si;
                        laln2(false, 1, 2, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, -wi, x, scale, xnorm);
                        if (scale != R(1)) {
                            scal(n - ki, scale, VecView<R>{&xr[ki], xr.inc});
                            scal(n - ki, scale, VecView<R>{&xi[ki], xi.inc});
                        }
                        xr[j] = x[0];
                        xi[j] = x[2];
                        vmax = rmax(rmax(rabs(xr[j]), rabs(xi[j])), vmax);
                        vcrit = bignum / vmax;
                    } else {
                        R beta = rmax(cn[j], cn[j + 1]);
                        if (beta > vcrit) {
                            const R rec = R(1) / vmax;
                            scal(n - ki, rec, VecView<R>{&xr[ki], xr.inc});
                            scal(n - ki, rec, VecView<R>{&xi[ki], xi.inc});
                            vmax = R(1);
                            vcrit = bignum;
                        }
                        R sr0 = R(0), si0 = R(0), sr1 = R(0), si1 = R(0);
                        for (index_t k = ki + 2; k < j; ++k) {
                            sr0 += t(k, j) * xr[k];
                            si0 += t(k, j) * xi[k];
                            sr1 += t(k, j + 1) * xr[k];
                            si1 += t(k, j + 1) * xi[k];
                        }
                        b[0] = xr[j] - sr0;
                        b[1] = xr[j + 1] - sr1;
                        b[2] = xi[j] - si0;
                        b[3] = xi[j + 1] - si1;
                        laln2(true, 2, 2, smin, MatView<R>{&t(j, j), t.ld, t.es}, b, wr, -wi, x, scale, xnorm);
                        if (scale != R(1)) {
                            scal(n - ki, scale, VecView<R>{&xr[ki], xr.inc});
                            scal(n - ki, scale, VecView<R>{&xi[ki], xi.inc});
                        }
                        xr[j] = x[0];
                        xr[j + 1] = x[1];
                        xi[j] = x[2];
                        xi[j + 1] = x[3];
                        vmax = rmax(rmax(rmax(rabs(x[0]), rabs(x[2])), rmax(rabs(x[1]), rabs(x[3]))), vmax);
                        vcrit = bignum / vmax;
                    }
                }
                detail::back_transform(n, vl, ki + 2, n - ki - 2, xr, xr[ki], ki);
                detail::back_transform(n, vl, ki + 2, n - ki - 2, xi, xi[ki + 1], ki + 1);
                R emax = R(0);
                for (index_t k = 0; k < n; ++k) emax = rmax(emax, rabs(vl(k, ki)) + rabs(vl(k, ki + 1)));
                const R remax = R(1) / emax;
                scal(n, remax, vl.col(ki));
                scal(n, remax, vl.col(ki + 1));
                ++ki;  // the pair is done
            }
        }
    }
}

// Complex Schur form. t: n x n upper triangular. cn: n reals; x: n complex.
template <class M, class VR_, class VC>
BATCHEIG_HD void trevc_complex(bool right, bool left, index_t n, M t, M vl, M vr, VR_ cn, VC x) {
    using T = typename M::value_type;
    using R = real_t<T>;
    const R unfl = limits<R>::safmin();
    const R ulp = limits<R>::ulp();
    const R smlnum = unfl * (R(n) / ulp);
    const R bignum = (R(1) - ulp) / smlnum;
    detail::column_norms(n, t, cn);

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
            x[ki] = T(R(1));
            for (index_t k = 0; k < ki; ++k) x[k] = -t(k, ki);
            // Back-substitution (T(0:ki-1,0:ki-1) - lambda) x = s * rhs.
            for (index_t j = ki - 1; j >= 0; --j) {
                T xj;
                R scale = guarded_div(x[j], t(j, j) - lambda, smin, xj);
                R xnorm = abs1(xj);
                if (xnorm > R(1) && cn[j] > bignum / xnorm) {
                    xj = xj / xnorm;
                    scale /= xnorm;
                }
                if (scale != R(1)) scal(ki + 1, scale, x);
                x[j] = xj;
                for (index_t k = 0; k < j; ++k) x[k] -= xj * t(k, j);
            }
            detail::back_transform(n, vr, 0, ki, x, x[ki], ki);
            R emax = abs1(vr(iamax(n, vr.col(ki)), ki));
            scal(n, R(1) / emax, vr.col(ki));
        }
    }

    if (left) {
        for (index_t ki = 0; ki < n; ++ki) {
            const T lambda = t(ki, ki);
            const R smin = rmax(ulp * abs1(lambda), smlnum);
            x[ki] = T(R(1));
            for (index_t k = ki + 1; k < n; ++k) x[k] = -conj(t(ki, k));
            // Forward substitution (T(ki+1:,ki+1:) - lambda)^H x = s * rhs.
            R vmax = R(1), vcrit = bignum;
            for (index_t j = ki + 1; j < n; ++j) {
                if (cn[j] > vcrit) {
                    scal(n - ki, R(1) / vmax, VecView<T>{&x[ki], x.inc});
                    vmax = R(1);
                    vcrit = bignum;
                }
                T s = T(0);
                for (index_t k = ki + 1; k < j; ++k) s += conj(t(k, j)) * x[k];
                T xj;
                R scale = guarded_div(x[j] - s, conj(t(j, j) - lambda), smin, xj);
                if (scale != R(1)) scal(n - ki, scale, VecView<T>{&x[ki], x.inc});
                x[j] = xj;
                vmax = rmax(abs1(xj), vmax);
                vcrit = bignum / vmax;
            }
            detail::back_transform(n, vl, ki + 1, n - ki - 1, x, x[ki], ki);
            R emax = abs1(vl(iamax(n, vl.col(ki)), ki));
            scal(n, R(1) / emax, vl.col(ki));
        }
    }
}

}  // namespace batcheig::core
