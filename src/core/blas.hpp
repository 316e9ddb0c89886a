// Small level-1 kernels and elementary transformations used by the core
// routines: safe norms, scaling, Householder reflectors, plane rotations.
#pragma once

#include "core/team.hpp"
#include "core/types.hpp"

namespace batcheig::core {

// Euclidean norm of x[0..n) without destructive underflow or overflow
// (scaled sum of squares, as LAPACK's xLASSQ).
template <class V>
BATCHEIG_HD real_t<typename V::value_type> nrm2(index_t n, V x) {
    using R = real_t<typename V::value_type>;
    R scale = 0, ssq = 1;
    auto acc = [&](R a) {
        if (a != R(0)) {
            a = rabs(a);
            if (scale < a) {
                R q = scale / a;
                ssq = R(1) + ssq * q * q;
                scale = a;
            } else {
                R q = a / scale;
                ssq += q * q;
            }
        }
    };
    for (index_t i = 0; i < n; ++i) {
        acc(real(x[i]));
        if constexpr (is_complex<typename V::value_type>) acc(imag(x[i]));
    }
    return scale * rsqrt_(ssq);
}

// Multiply x[0..n) by the scalar s.
template <class V, class S>
BATCHEIG_HD void scal(index_t n, S s, V x) {
    for (index_t i = 0; i < n; ++i) x[i] = x[i] * s;
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
// x holds v(1:). n is the length of (alpha, x).
template <class V>
BATCHEIG_HD void larfg(index_t n, typename V::value_type &alpha, V x, typename V::value_type &tau) {
    using T = typename V::value_type;
    using R = real_t<T>;
    if (n <= 1) {
        tau = T(0);
        return;
    }
    R xnorm = nrm2(n - 1, x);
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
            scal(n - 1, rsafmn, x);
            beta *= rsafmn;
            alphr *= rsafmn;
            alphi *= rsafmn;
        } while (rabs(beta) < safmin && knt < 20);
        xnorm = nrm2(n - 1, x);
        if constexpr (is_complex<T>) beta = -sign(lapy2(lapy2(alphr, alphi), xnorm), alphr);
        else beta = -sign(lapy2(alphr, xnorm), alphr);
    }
    if constexpr (is_complex<T>) {
        tau = T((beta - alphr) / beta, -alphi / beta);
        T a = T(R(1)) / (T(alphr, alphi) - T(beta));
        scal(n - 1, a, x);
    } else {
        tau = (beta - alphr) / beta;
        scal(n - 1, R(1) / (alphr - beta), x);
    }
    for (int j = 0; j < knt; ++j) beta *= safmin;
    alpha = T(beta);
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

// nrm2 over a team: every member accumulates the scaled sum of squares of
// its share, then the pairs (scale, ssq) are combined at the largest scale.
template <class Team, class V>
BATCHEIG_HD real_t<typename V::value_type> team_nrm2(const Team &tm, index_t n, V x) {
    using R = real_t<typename V::value_type>;
    if constexpr (Team::serial) {
        return nrm2(n, x);
    } else {
        R scale = 0, ssq = 1;
        auto acc = [&](R a) {
            if (a != R(0)) {
                a = rabs(a);
                if (scale < a) {
                    R q = scale / a;
                    ssq = R(1) + ssq * q * q;
                    scale = a;
                } else {
                    R q = a / scale;
                    ssq += q * q;
                }
            }
        };
        for (index_t i = tm.first(0); i < n; i += tm.size()) {
            acc(real(x[i]));
            if constexpr (is_complex<typename V::value_type>) acc(imag(x[i]));
        }
        const R smax = tm.max(scale);
        R part = R(0);
        if (scale != R(0)) {
            R q = scale / smax;
            part = ssq * q * q;
        }
        const R total = tm.sum(part);
        return smax == R(0) ? R(0) : smax * rsqrt_(total);
    }
}

// x[0..n) *= s.
template <class Team, class V, class S>
BATCHEIG_HD void team_scal(const Team &tm, index_t n, S s, V x) {
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

// Apply the rotation [c s; -s c] to (x, y) over a team.
template <class Team, class V, class R>
BATCHEIG_HD void team_rot(const Team &tm, index_t n, V x, V y, R c, R s) {
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
    using T = typename V::value_type;
    using R = real_t<T>;
    if constexpr (Team::serial) {
        larfg(n, alpha, x, tau);
    } else {
        if (n <= 1) {
            tau = T(0);
            return;
        }
        R xnorm = team_nrm2(tm, n - 1, x);
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
            do {
                ++knt;
                team_scal(tm, n - 1, rsafmn, x);
                beta *= rsafmn;
                alphr *= rsafmn;
                alphi *= rsafmn;
            } while (rabs(beta) < safmin && knt < 20);
            xnorm = team_nrm2(tm, n - 1, x);
            if constexpr (is_complex<T>) beta = -sign(lapy2(lapy2(alphr, alphi), xnorm), alphr);
            else beta = -sign(lapy2(alphr, xnorm), alphr);
        }
        if constexpr (is_complex<T>) {
            tau = T((beta - alphr) / beta, -alphi / beta);
            T a = T(R(1)) / (T(alphr, alphi) - T(beta));
            team_scal(tm, n - 1, a, x);
        } else {
            tau = (beta - alphr) / beta;
            team_scal(tm, n - 1, R(1) / (alphr - beta), x);
        }
        for (int j = 0; j < knt; ++j) beta *= safmin;
        alpha = T(beta);
    }
}

}  // namespace batcheig::core
